import Base
import FoundationEssentials

/// A master playlist (RFC 8216 §4.3.4): the variant streams, and the alternative audio
/// renditions they may use. Video, subtitle and caption renditions are left out.
package struct HLSMasterPlaylist: Sendable, Equatable {
    package var variants: [HLSVariant]
    /// The EXT-X-MEDIA renditions of TYPE=AUDIO.
    package var audio: [HLSRendition]

    package init(variants: [HLSVariant], audio: [HLSRendition] = []) {
        self.variants = variants
        self.audio = audio
    }

    /// Reads a master playlist's lines (after `#EXTM3U`): each EXT-X-STREAM-INF must be followed
    /// by its URI; a variant whose URI is not an http(s) URL is left out.
    init(lines: ArraySlice<HLSLine>, base: URL) throws {
        var variants: [HLSVariant] = []
        var audio: [HLSRendition] = []
        // The variant an EXT-X-STREAM-INF describes, its URI (the next line) still the base's.
        var pending: (line: HLSLine, variant: HLSVariant)?
        for line in lines {
            do {
                switch line.tag {
                case nil:
                    guard var variant = pending?.variant else { throw ParseError.malformed("a URI without #EXT-X-STREAM-INF before it") }
                    pending = nil
                    guard let uri = LinkResolver.url(line.text, relativeTo: base) else { continue }
                    variant.uri = uri
                    variants.append(variant)
                case "EXT-X-STREAM-INF"?:
                    if let earlier = pending { throw earlier.line.error("#EXT-X-STREAM-INF without a URI after it") }
                    pending = (line, try Self.variant(HLSAttributeList(line.value), uri: base))
                case "EXT-X-MEDIA"?:
                    if let rendition = try Self.rendition(HLSAttributeList(line.value), base: base) { audio.append(rendition) }
                default:
                    continue
                }
            } catch let error as ParseError {
                throw error.message.hasPrefix("line ") ? error : line.error(error.message)
            }
        }
        if let pending { throw pending.line.error("#EXT-X-STREAM-INF without a URI after it") }
        self.init(variants: variants, audio: audio)
    }

    private static func variant(_ attributes: HLSAttributeList, uri: URL) throws -> HLSVariant {
        let codecs = try attributes.string("CODECS")?.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return HLSVariant(uri: uri, bandwidth: try attributes.integer("BANDWIDTH") ?? 0,
                          averageBandwidth: try attributes.integer("AVERAGE-BANDWIDTH"),
                          codecs: codecs ?? [], audioGroup: try attributes.string("AUDIO"))
    }

    /// An audio rendition; nil for the other types.
    private static func rendition(_ attributes: HLSAttributeList, base: URL) throws -> HLSRendition? {
        guard try attributes.enumerated("TYPE") == "AUDIO" else { return nil }
        guard let group = try attributes.string("GROUP-ID"), let name = try attributes.string("NAME") else {
            throw ParseError.malformed("EXT-X-MEDIA without GROUP-ID or NAME")
        }
        return HLSRendition(groupID: group, name: name, uri: try attributes.string("URI").flatMap { LinkResolver.url($0, relativeTo: base) },
                            isDefault: try attributes.flag("DEFAULT"), autoselect: try attributes.flag("AUTOSELECT"),
                            language: try attributes.string("LANGUAGE"))
    }
}
