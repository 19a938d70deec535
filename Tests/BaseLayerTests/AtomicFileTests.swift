import Base
import Foundation
import Testing
import TestSupport

/// `AtomicFile`: the new contents or the old, owner-only, and nothing left behind.
@Suite struct AtomicFileTests {
    private func contents(_ url: URL) -> [UInt8]? {
        FileManager.default.contents(atPath: url.path).map(Array.init)
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    private func mode(_ url: URL) -> mode_t {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test("writes the bytes, owner-only, and leaves no temporary file; a second write replaces them")
    func writesAndReplaces() throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let file = folder.appendingPathComponent("state.json")
        let first = Fixtures.noise(count: 200_000, seed: 5)
        try AtomicFile.write(first, to: file)
        #expect(contents(file) == first)
        #expect(mode(file) == 0o600)
        #expect(try names(in: folder) == ["state.json"])
        try AtomicFile.write(Data("new".utf8), to: file)
        #expect(contents(file) == Array("new".utf8))
        #expect(mode(file) == 0o600)
        #expect(try names(in: folder) == ["state.json"])
    }

    @Test("a mode other than the default is the file's")
    func givenMode() throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let file = folder.appendingPathComponent("shared")
        try AtomicFile.write([1, 2, 3], to: file, mode: 0o640)
        #expect(mode(file) == 0o640 & ~Self.umask)
    }

    @Test("a folder the writer may not write into: an error that says so, the old file intact, nothing left")
    func readOnlyFolderKeepsTheOldFile() async throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let file = folder.appendingPathComponent("state.json")
        try AtomicFile.write(Array("old".utf8), to: file)
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        let outcome = await Self.withoutRootPowers { Result { try AtomicFile.write(Array("new".utf8), to: file) } }
        let error = #expect(throws: AtomicFileError.self) { try outcome.get() }
        #expect(error.map(String.init(describing:))
                == "cannot save \(file.path): creating a temporary file beside it failed: Permission denied")
        #expect(contents(file) == Array("old".utf8))
        #expect(try names(in: folder) == ["state.json"])
    }

    @Test("a folder in the file's place: the rename fails, the temporary file is removed, the folder stays")
    func failedRenameRemovesTheTemporaryFile() throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let target = folder.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try AtomicFile.write(Array("inside".utf8), to: target.appendingPathComponent("kept"))
        let error = #expect(throws: AtomicFileError.self) { try AtomicFile.write(Array("new".utf8), to: target) }
        #expect(error?.step == .rename)
        #expect(try names(in: folder) == ["taken"])
        #expect(contents(target.appendingPathComponent("kept")) == Array("inside".utf8))
    }

    /// The process's umask, read without setting it (other tests create files meanwhile).
    private static var umask: mode_t {
        let status = ProcFile.read("/proc/self/status")
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") } ?? "Umask: 0022"
        return mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) ?? 0o022
    }

    /// Runs `body` on a thread of its own whose file-system identity is `nobody` when the tests run
    /// as root, who may write into any folder: so a folder's permissions apply to it as to a user.
    /// (`setfsuid` acts on the calling thread alone, and drops root's file powers with it.)
    private static func withoutRootPowers<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                typealias SetFSUID = @convention(c) (uid_t) -> Int32
                let setfsuid = geteuid() == 0 ? dlsym(nil, "setfsuid").map { unsafeBitCast($0, to: SetFSUID.self) } : nil
                let previous = setfsuid?(65534)
                continuation.resume(returning: body())
                if let previous { _ = setfsuid?(uid_t(previous)) }
            }
        }
    }

    @Test("without the folder's sync the file is still replaced whole, and its temporary files are recognised")
    func withoutFolderSync() throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let file = folder.appendingPathComponent("k.ranges")
        try AtomicFile.write(Array("old".utf8), to: file, syncingFolder: false)
        try AtomicFile.write(Array("new".utf8), to: file, syncingFolder: false)
        #expect(contents(file) == Array("new".utf8))
        #expect(try names(in: folder) == ["k.ranges"])
        #expect(mode(file) == 0o600)
        #expect(AtomicFile.isTemporary(".k.ranges.0123abcd.tmp"))
        #expect(!AtomicFile.isTemporary("k.ranges") && !AtomicFile.isTemporary("k.tmp") && !AtomicFile.isTemporary(".k.data"))
    }
}
