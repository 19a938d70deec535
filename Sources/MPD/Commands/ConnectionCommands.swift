/// The connection's own commands: `ping`, `close`, `password`, `binarylimit`, `tagtypes`, and
/// what the server can do (`commands`, `notcommands`, `urlhandlers`, `decoders`).
/// (`idle`, `noidle` and the command lists are carried out by MPDConnection.)
package enum ConnectionCommands: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "ping": MPDCommand(.none) { _ in },
        // The connection carries out `idle` itself (and `noidle`, which is no command of the
        // table, as in MPD); here for its permission and `commands`.
        "idle": MPDCommand(.read, atLeast: 0) { _ in },
        "close": MPDCommand(.none, atLeast: 0) { call in call.session.closing = true },
        "password": MPDCommand(.none, arguments: 1...1, password),
        "binarylimit": MPDCommand(.none, arguments: 1...1) { call in
            let limit = try call.unsigned(0)
            // MPD's bounds: a chunk must hold more than the answer's own lines, and fit the
            // client's output buffer with them (a chunk is held whole until the client reads it).
            guard limit <= call.context.settings.limits.maxBinaryLimit else { throw MPDError(.argument, "Number too large: \(call.arguments[0])") }
            guard limit >= 64 else { throw MPDError(.argument, "Value too small") }
            call.session.binaryLimit = limit
        },
        "tagtypes": MPDCommand(.none, atLeast: 0, tagTypes),
        "commands": MPDCommand(.none) { call in
            for name in MPDCommandTable.names where MPDCommandTable.commands[name]?.isListed == true
                && call.session.permissions.isSuperset(of: MPDCommandTable.commands[name]?.permission ?? .all) {
                call.response.field("command", name)
            }
        },
        "notcommands": MPDCommand(.none) { call in
            for name in MPDCommandTable.names where MPDCommandTable.commands[name]?.isListed == true
                && !call.session.permissions.isSuperset(of: MPDCommandTable.commands[name]?.permission ?? .all) {
                call.response.field("command", name)
            }
        },
        "urlhandlers": MPDCommand(.read) { call in
            for scheme in ["http://", "https://"] { call.response.field("handler", scheme) }
        },
        "decoders": MPDCommand(.read) { call in
            for decoder in decoders {
                call.response.field("plugin", decoder.plugin)
                for suffix in decoder.suffixes { call.response.field("suffix", suffix) }
                for type in decoder.types { call.response.field("mime_type", type) }
            }
        },
    ]

    /// The decoders behind the player, as MPD lists its plugins.
    private static let decoders: [(plugin: String, suffixes: [String], types: [String])] = [
        ("mpg123", ["mp3"], ["audio/mpeg"]),
        ("flac", ["flac"], ["audio/flac", "audio/x-flac"]),
        ("opus", ["opus"], ["audio/ogg", "audio/opus"]),
        ("vorbis", ["ogg", "oga"], ["audio/ogg", "audio/vorbis"]),
        ("ffmpeg", ["m4a", "m4b", "mp4", "aac"], ["audio/mp4", "audio/aac"]),
        ("pcm", ["wav"], ["audio/wav", "audio/x-wav"]),
    ]

    /// `password`: a right one gives every permission; a wrong one is MPD's `incorrect password`
    /// (and the password never appears in an answer or the log).
    private static func password(_ call: inout MPDCall) async throws {
        guard let expected = call.context.settings.password, constantTimeEqual(call.arguments[0], expected.reveal()) else {
            throw MPDError(.password, "incorrect password")
        }
        call.session.permissions = .all
    }

    /// Compares without stopping at the first difference, so the time taken tells nothing of it.
    private static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let (a, b) = (Array(given.utf8), Array(expected.utf8))
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    /// `tagtypes` lists the tags enabled for the client; `tagtypes enable|disable TAG...`,
    /// `tagtypes clear`, `tagtypes all` change them.
    private static func tagTypes(_ call: inout MPDCall) async throws {
        guard let action = call.argument(0) else {
            for tag in MPDTag.listed where call.session.tags.contains(tag) { call.response.field("tagtype", tag.rawValue) }
            return
        }
        let names = call.arguments.dropFirst()
        switch action {
        case "clear":
            call.session.tags = []
        case "all":
            call.session.tags = MPDSong.allTags
        case "enable", "disable":
            guard !names.isEmpty else { throw MPDError.tooFewArguments(call.name) }
            var tags: [MPDTag] = []
            for name in names {
                if let tag = MPDTag(name: name) {
                    tags.append(tag)
                } else if !MPDTag.isMPDTagName(name) {
                    throw MPDError(.argument, "Unknown tag type")
                }
            }
            if action == "enable" { call.session.tags.formUnion(tags) } else { call.session.tags.subtract(tags) }
        default:
            throw MPDError(.argument, "Unknown sub command")
        }
    }
}
