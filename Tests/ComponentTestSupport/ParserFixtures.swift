import Foundation
import TestSupport

/// Makes audio fixtures with the real tools (sox, lame, opusenc, eyeD3, id3v2) in a temporary
/// folder at test time — in their repeatable modes (`RepeatableTool`), so each is the same bytes
/// on every run — and measures reference decodes (mpg123, opusdec), so no binary is committed and
/// every expectation comes from an independent implementation.
package final class ParserFixtures {
    package let directory: URL

    package init() throws {
        directory = try ScratchSpace.directory()
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Whether every tool is on this machine (tests that need one are skipped without it).
    package static func have(_ tools: String...) -> Bool {
        tools.allSatisfy { tool in
            ["/usr/bin", "/usr/local/bin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
    }

    package func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    package func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    package func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
    }

    /// Runs a tool in the fixture folder; its standard output, or an error with its exit status.
    @discardableResult
    package func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + RepeatableTool.arguments(for: tool, arguments)
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ParserFixtureError(message: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A 16-bit sine tone WAV.
    package func tone(_ name: String, seconds: Double, rate: Int = 44100, channels: Int = 2) throws {
        try run("sox", ["-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", name, "synth", "\(seconds)", "sine", "440"])
    }

    /// Samples per channel in a WAV file.
    package func samples(_ wav: String) throws -> Int {
        let text = try run("soxi", ["-s", wav]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let count = Int(text) else { throw ParserFixtureError(message: "soxi said \(text)") }
        return count
    }

    /// A WAV file's sample rate.
    package func sampleRate(_ wav: String) throws -> Int {
        let text = try run("soxi", ["-r", wav]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let rate = Int(text) else { throw ParserFixtureError(message: "soxi said \(text)") }
        return rate
    }

    /// Samples mpg123 (gapless, as it decodes by default) outputs for an MP3.
    package func mpg123Samples(_ mp3: String) throws -> Int {
        try run("mpg123", ["-q", "-w", mp3 + ".wav", mp3])
        return try samples(mp3 + ".wav")
    }

    /// Samples opusdec outputs at 48 kHz for an Opus file.
    package func opusdecSamples(_ opus: String) throws -> Int {
        try run("opusdec", ["--quiet", "--rate", "48000", opus, opus + ".wav"])
        return try samples(opus + ".wav")
    }

    /// A PNG that encoders accept (signature and IHDR) with `size` bytes of made-up data after it.
    package static func png(size: Int = 600) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8) + [0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0] + [0, 0, 0, 0]
        bytes += (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        return bytes
    }

    /// A JPEG-looking file (start and end markers) that lame accepts for --ti.
    package static func jpeg(size: Int = 600) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0] + (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ 3) } + [0xFF, 0xD9]
    }
}
