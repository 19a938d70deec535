/// Which output to play through, as the user writes it: `pulse`, `pulse:SINK`, `wav:PATH`, `null`.
package enum OutputSpec: Sendable, Equatable, CustomStringConvertible {
    case pulse(sink: String?)
    case wav(path: String)
    case null

    package init(parsing text: String) throws {
        let (kind, argument) = text.firstIndex(of: ":").map {
            (String(text[..<$0]), String(text[text.index(after: $0)...]))
        } ?? (text, nil)
        switch (kind, argument) {
        case ("pulse", let sink): self = .pulse(sink: sink?.isEmpty == false ? sink : nil)
        case ("wav", let path?) where !path.isEmpty: self = .wav(path: path)
        case ("null", nil): self = .null
        default:
            throw OutputError.invalidSpec("unknown output '\(text)': use pulse, pulse:SINK, wav:PATH or null")
        }
    }

    package var description: String {
        switch self {
        case .pulse(let sink?): "pulse:\(sink)"
        case .pulse(nil): "pulse"
        case .wav(let path): "wav:\(path)"
        case .null: "null"
        }
    }

    /// Opens the output. `paced: false` lets the null output take samples as fast as they come.
    package func makeOutput(paced: Bool = true) async throws -> any AudioOutput {
        switch self {
        case .pulse(let sink): try await PulseOutput.connect(sink: sink)
        case .wav(let path): try WAVOutput(path: path)
        case .null: NullOutput(paced: paced)
        }
    }
}
