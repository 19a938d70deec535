import Base
import FoundationEssentials

/// What a station URL or a station file holds, for the radio: a station list — M3U (extended or
/// not, `.m3u8` included), PLS, XSPF or ASX — whose entries the player tries in order until one
/// plays; an HLS playlist, which is a stream and not a list; or neither (audio, a web page).
/// Servers label lists every which way, so the content decides first, then the Content-Type,
/// then the name. No networking here: the loader asks `looksLikeList` of an answer's first bytes,
/// fetches the whole document (at most `maxBytes`) when it says so, and hands it to `read`.
package enum StationList {
    /// The formats of station lists.
    package enum Format: String, Sendable, Equatable, CaseIterable {
        case m3u, pls, xspf, asx
    }

    /// What a whole document is.
    package enum Content: Sendable, Equatable {
        /// A list and its entries, in the order to try them; empty when none may be played.
        case stations(Format, [PlaylistItem])
        /// An HLS playlist (`#EXT-X-TARGETDURATION`, `#EXT-X-STREAM-INF`, `#EXT-X-MEDIA-SEQUENCE`):
        /// a stream for an HLS input, not a list of stations.
        case hls
        /// A web page: a station's site rather than its stream, for one clear error.
        case webPage
        /// Anything else: audio, or a document that is no list.
        case notAList
    }

    /// What the first bytes of an answer say.
    package enum FirstLook: Sendable, Equatable {
        /// A list, or a document that may be one: fetch it whole (at most `maxBytes`) and `read` it.
        case list
        /// A web page: neither a list nor audio.
        case webPage
        /// Not a list: audio, for the decoder to recognise or refuse.
        case media
    }

    /// The largest list read: thousands of stations fit in a fraction of it.
    package static let maxBytes = 4 << 20
    /// How many first bytes `looksLikeList` looks at; fewer will do (a first read's worth).
    package static let lookBytes = 1024

    /// Whether an answer is a list, a web page or media, from its Content-Type (nil when it has
    /// none), its name (a file name or URL path, if known) and as many of its first bytes as have
    /// arrived. Cheap enough for every answer: no more than `lookBytes` are looked at.
    package static func looksLikeList(contentType: String?, name: String? = nil, firstBytes: some Collection<UInt8>) -> FirstLook {
        let sniffed = StationListSniff(firstBytes.prefix(lookBytes))
        switch sniffed {
        case .m3u, .urls, .pls, .xspf, .asx, .xml: return .list
        case .html: return .webPage
        case .binary: return .media
        case .text, .empty:
            if declared(contentType: contentType, name: name) != nil { return .list }
            return isHTML(contentType) ? .webPage : .media
        }
    }

    /// What `bytes`, a whole document, is; its entries resolved against `base`, the list's own
    /// URL, as `PlaylistFileParser` resolves M3U's (so a list from a server never names a local
    /// file). `name` is the file name or URL path (`base`'s last component if nil).
    /// Throws `ParseError` for a document over `maxBytes`, or one that is the list its content
    /// or type says but broken (XML that is not well-formed or has another root, a PLS with
    /// neither `[playlist]` nor a `FileN=`).
    package static func read(_ bytes: [UInt8], contentType: String?, name: String? = nil, base: URL) throws -> Content {
        guard bytes.count <= maxBytes else {
            throw ParseError.unsupported("a station list larger than \(maxBytes >> 20) MiB")
        }
        let sniffed = StationListSniff(bytes.prefix(lookBytes))
        let said = declared(contentType: contentType, name: name ?? base.lastPathComponent)
        let format: Format?
        switch sniffed {
        case .m3u, .urls: format = .m3u
        case .pls: format = .pls
        case .xspf: format = .xspf
        case .asx: format = .asx
        case .html, .binary: format = nil
        case .xml: format = said == .xspf || said == .asx ? said : nil
        case .text, .empty: format = said
        }
        switch format {
        case .m3u?: return StationListSniff.isHLS(bytes) ? .hls : .stations(.m3u, PlaylistFileParser.m3u(bytes, base: base))
        case .pls?: return .stations(.pls, try PlaylistFileParser.pls(bytes, base: base))
        case .xspf?: return .stations(.xspf, try XSPFParser.parse(bytes, base: base))
        case .asx?: return .stations(.asx, try ASXParser.parse(bytes, base: base))
        case nil: return sniffed == .html || (sniffed != .binary && isHTML(contentType)) ? .webPage : .notAList
        }
    }

    // MARK: Types and names

    /// The list a Content-Type names, else the one a name's extension names. `video/x-ms-asf`
    /// is ASX's type and ASF's (Windows Media audio) alike: the content, looked at first, tells.
    private static func declared(contentType: String?, name: String?) -> Format? {
        if let type = mediaType(contentType), let format = types[type] { return format }
        guard let name, let dot = name.lastIndex(of: ".") else { return nil }
        return extensions[name[name.index(after: dot)...].lowercased()]
    }

    private static func isHTML(_ contentType: String?) -> Bool {
        ["text/html", "application/xhtml+xml"].contains(mediaType(contentType))
    }

    /// `audio/x-mpegurl` of `Audio/X-MpegURL; charset=utf-8`.
    private static func mediaType(_ contentType: String?) -> String? {
        contentType.flatMap { $0.split(separator: ";").first?.trimmingWhitespace().lowercased() }
    }

    private static let types: [String: Format] = [
        "audio/x-mpegurl": .m3u, "audio/mpegurl": .m3u, "application/x-mpegurl": .m3u, "application/mpegurl": .m3u,
        "application/vnd.apple.mpegurl": .m3u, "application/vnd.apple.mpegurl.audio": .m3u, "audio/x-mpequrl": .m3u,
        "audio/x-scpls": .pls, "audio/scpls": .pls, "application/pls+xml": .pls, "application/pls": .pls,
        "application/xspf+xml": .xspf,
        "video/x-ms-asf": .asx, "video/x-ms-asx": .asx, "audio/x-ms-asx": .asx, "audio/x-ms-wax": .asx,
        "video/x-ms-wvx": .asx, "video/x-ms-wmx": .asx,
    ]

    private static let extensions: [String: Format] = [
        "m3u": .m3u, "m3u8": .m3u, "pls": .pls, "xspf": .xspf, "asx": .asx, "wax": .asx, "wvx": .asx, "wmx": .asx,
    ]
}
