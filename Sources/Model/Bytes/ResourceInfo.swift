/// What a server says about a file: its length, its version, its type, and whether it serves
/// byte ranges. Learned from the first response (a ranged GET, a HEAD or a PROPFIND).
package struct ResourceInfo: Sendable, Equatable {
    package var length: Int64
    /// The version as `Validator.text`: an entity tag, a Last-Modified date, or both. Nil when the
    /// server gives neither — then a cached copy cannot be checked, and is trusted on its length.
    package var validator: String?
    /// What `If-Range` may carry (`Validator.ifRange`): set only from what a server's answer to
    /// a GET or HEAD said (a listing's tag may be of another form than GET's). Nil: a bare `Range`.
    package var ifRange: String?
    package var contentType: String?
    package var acceptsRanges: Bool

    package init(length: Int64, validator: String?, ifRange: String? = nil, contentType: String? = nil, acceptsRanges: Bool = true) {
        self.length = length
        self.validator = validator
        self.ifRange = ifRange
        self.contentType = contentType
        self.acceptsRanges = acceptsRanges
    }

    /// Whether a copy of `length` bytes kept as version `validator` is the version this states
    /// (a listing, or a server's answer): the same length, and `Validator.cachedCopyIsCurrent`.
    package func statesCopy(length: Int64, validator: String?) -> Bool {
        self.length == length && Validator.cachedCopyIsCurrent(listed: self.validator, recorded: validator)
    }
}
