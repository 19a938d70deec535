import Playback

/// The one output, as MPD lists its outputs: disabling it mutes the player (the volume is kept
/// and given back when it is enabled again), since the player has one sound device.
package enum OutputCommands: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "outputs": MPDCommand(.read) { call in
            call.response.field("outputid", 0)
            call.response.field("outputname", "cloudplayerd")
            call.response.field("plugin", "pulse")
            call.response.field("outputenabled", call.context.current.outputEnabled ? "1" : "0")
        },
        "enableoutput": MPDCommand(.admin, arguments: 1...1) { call in try await set(true, call) },
        "disableoutput": MPDCommand(.admin, arguments: 1...1) { call in try await set(false, call) },
        "toggleoutput": MPDCommand(.admin, arguments: 1...1) { call in try await set(!call.context.current.outputEnabled, call) },
        // The output has no attributes to set.
        "outputset": MPDCommand(.admin, arguments: 3...3) { call in
            guard try call.unsigned(0) == 0 else { throw MPDError(.noExist, "No such audio output") }
            throw MPDError(.argument, "Unsupported attribute")
        },
    ]

    private static func set(_ enabled: Bool, _ call: MPDCall) async throws {
        guard try call.unsigned(0) == 0 else { throw MPDError(.noExist, "No such audio output") }
        let context = call.context
        let restore: Double? = context.update { state in
            guard state.outputEnabled != enabled else { return nil }
            state.outputEnabled = enabled
            if enabled {
                defer { state.volumeBeforeDisable = nil }
                return state.volumeBeforeDisable ?? state.snapshot.volume
            }
            state.volumeBeforeDisable = state.snapshot.volume
            return 0
        }
        guard let restore else { return }
        await context.perform(.setVolume(restore))
        context.idle.notify([.output])
    }
}
