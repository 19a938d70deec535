import Foundation

/// A source client feeding one mount of an `IcecastServer` (ffmpeg, ezstream or ices2; started by
/// `IcecastServer+Sources`), its config and log in a folder of its own, stopped when the test
/// process ends (a `ServerProcess`). Stopping it ends the mount: listeners' streams end.
public final class IcecastSource: Sendable {
    public enum Kind: String, Sendable {
        case ffmpeg, ezstream, ices2
    }

    public let kind: Kind
    public let mount: String
    /// Its config, playlist and (ices2) log.
    public let folder: URL
    /// A log file of its own (ices2 writes one); the others log to standard error.
    private let logFile: URL?
    private let process: ServerProcess

    init(_ kind: Kind, mount: String, folder: URL, logFile: URL? = nil, process: ServerProcess) {
        (self.kind, self.mount, self.folder, self.logFile, self.process) = (kind, mount, folder, logFile, process)
    }

    /// The source client has ended (it gave up, or a `once` playlist is done).
    public var hasEnded: Bool { process.serverEnded }

    /// What it logged so far: ezstream's "streaming: Artist - Title (file)" lines, ices2's
    /// "Currently playing" ones, ffmpeg's warnings.
    public func log() -> String {
        let own = logFile.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
        return own + process.errorSoFar()
    }

    /// Sends a signal to the source client itself: for ezstream SIGUSR1 skips to the next
    /// track at once (an event to wait on, not the track's length).
    public func signal(_ number: Int32) {
        process.signalServer(number)
    }

    /// Stops the source now: Icecast drops the mount, and its listeners' streams end.
    public func stop() async {
        await process.stop()
    }
}
