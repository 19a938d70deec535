/// One result of a desktop search as both desktops show it: a name, a line under it, and a
/// picture — the cover file from the art cache when there is one.
package struct DesktopResult: Sendable, Equatable {
    package var id: DesktopResultID
    package var name: String
    package var detail: String
    /// A cover image file (the art cache's), or nil: then the kind's themed icon.
    package var coverPath: String?

    package init(id: DesktopResultID, name: String, detail: String, coverPath: String? = nil) {
        self.id = id
        self.name = name
        self.detail = detail
        self.coverPath = coverPath
    }

}
