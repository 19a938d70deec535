import FoundationEssentials

/// An alternative audio rendition (`EXT-X-MEDIA:TYPE=AUDIO`): a language or a commentary that
/// the variants of its group can play instead of their own audio.
package struct HLSRendition: Sendable, Equatable {
    package var groupID: String
    package var name: String
    /// Its media playlist; nil when the variant's own stream carries this audio.
    package var uri: URL?
    package var isDefault: Bool
    package var autoselect: Bool
    package var language: String?

    package init(groupID: String, name: String, uri: URL? = nil, isDefault: Bool = false, autoselect: Bool = false, language: String? = nil) {
        self.groupID = groupID
        self.name = name
        self.uri = uri
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.language = language
    }
}
