/// Why a parser refused its input. Input comes from outside (servers, files, feeds), so a
/// refusal is an everyday outcome with a message for the log, never a crash.
package enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a format this parser reads (say, an Ogg Vorbis file handed to the tag reader).
    case unsupported(String)
    /// The right format, but broken or cut short.
    case malformed(String)

    /// The message alone, for wrapping in another error (`LoaderError.badResponse(error.message)`).
    package var message: String {
        switch self {
        case .unsupported(let message), .malformed(let message): message
        }
    }

    package var description: String {
        switch self {
        case .unsupported(let message): "unsupported: \(message)"
        case .malformed(let message): "malformed: \(message)"
        }
    }
}
