import FoundationEssentials

/// One variant stream of a master playlist (`EXT-X-STREAM-INF` and the URI after it): the same
/// content at one bit rate, in the codecs it names.
package struct HLSVariant: Sendable, Equatable {
    /// Its media playlist.
    package var uri: URL
    /// Peak bits per second (0 when the tag leaves it out, against RFC 8216).
    package var bandwidth: Int
    package var averageBandwidth: Int?
    /// RFC 6381 codec names ("mp4a.40.2", "avc1.4d401e"); empty when CODECS is absent.
    package var codecs: [String]
    /// The GROUP-ID of the EXT-X-MEDIA audio renditions that go with it.
    package var audioGroup: String?

    package init(uri: URL, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String] = [], audioGroup: String? = nil) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.audioGroup = audioGroup
    }
}
