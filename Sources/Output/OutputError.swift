/// Why audio could not go out. Messages are one line, for a person.
package enum OutputError: Error, CustomStringConvertible, Equatable {
    /// No sound server to talk to.
    case serverUnreachable(String)
    /// The device failed while playing (a stream refused, the disk filled up).
    case deviceFailed(String)
    /// The sound server went away (restarted, crashed): `AudioOutput.reconnect` may bring it back.
    case serverLost(String)
    /// This output cannot take a track of this format (only this track fails).
    case unsupportedFormat(String)
    /// The output specification itself is wrong.
    case invalidSpec(String)

    package var description: String {
        switch self {
        case .serverUnreachable(let reason): "cannot connect to PulseAudio: \(reason)"
        case .deviceFailed(let reason): "audio output failed: \(reason)"
        case .serverLost(let reason): "lost the sound server: \(reason)"
        case .unsupportedFormat(let reason): reason
        case .invalidSpec(let reason): reason
        }
    }
}
