import Foundation

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    /// True when the process ended by a signal (then `status` is the signal number).
    public var killedBySignal: Bool
    /// When the process ended, as a thread that waits for nothing else saw it.
    public var endedAt: ContinuousClock.Instant
    public var stdout: String
    public var stderr: String

    /// Standard error, one trimmed line per entry.
    public var errorLines: [String] {
        stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// How it ended and the end of what it said, for a failed expectation about its status.
    public var ending: String {
        "\(killedBySignal ? "signal" : "status") \(status); stderr ends: \(stderr.suffix(1500))"
    }
}
