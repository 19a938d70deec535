import Foundation
import Testing
import TestSupport

/// The cloud sources are as safe to kill as WebDAV (issue 16): `cloudplayerd play` of a track of
/// each provider's emulator (Yandex.Disk, Dropbox, OneDrive, Google Drive, Box), on a slow download, killed with SIGKILL mid-download again and again —
/// the cache never vouches for a wrong byte, and the next play completes it and sounds right.
@Suite(.timeLimit(.minutes(5))) struct CloudKillTests {
    enum Provider: String, CaseIterable, Sendable {
        case yandexDisk, dropbox, oneDrive, googleDrive, box

        func start() async throws -> any EmulatedCloud {
            switch self {
            case .yandexDisk: try await YandexDiskTestServer()
            case .dropbox: try await DropboxTestServer()
            case .oneDrive: try await OneDriveTestServer()
            case .googleDrive: try await GoogleDriveTestServer()
            case .box: try await BoxTestServer()
            }
        }
    }

    @Test("killed (SIGKILL) mid-download again and again: the cache never vouches for a wrong byte; then the track plays whole and right",
          arguments: Provider.allCases)
    func killedMidDownload(_ provider: Provider) async throws {
        let server = try await provider.start()
        let file = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: file)
        try server.publish(file, as: "Other/long.mp3")
        let folder = try Fixtures.shared.scratchDirectory()
        let config = folder.appendingPathComponent("config.toml")
        try "[cache]\ndir = \"\(folder.appendingPathComponent("cache").path)\"\n\n\(server.sourcesText)\n".write(to: config, atomically: true, encoding: .utf8)
        let cache = CacheInspector(cacheDirectory: folder.appendingPathComponent("cache"))
        let location = "cloudplayer://plain/Other/long.mp3"

        try await server.control(#"{"download_rate": 200000}"#)
        let wrongBytes = try await KillLoop.run(rounds: 4, cache: cache, origin: origin, startsBefore: 55) { _, start in
            ["play", "--no-mpris", "--quiet", "--config", config.path, "--output", "null", "--start", String(start), location]
        }
        #expect(wrongBytes == 0)
        #expect(cache.entries.contains { $0.recordedBytes > 0 }, "downloads were recorded between kills")

        try await server.control(#"{"download_rate": null}"#)
        let output = folder.appendingPathComponent("out.wav")
        let played = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--quiet", "--config", config.path, "--output", "wav:\(output.path)", location])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(file)))
        #expect(try cache.entries.allSatisfy { try cache.compare($0, with: origin).wrong == 0 })
        #expect(cache.entries.contains { $0.ranges == [0..<Int64(origin.count)] },
                "the track played to its end is whole: \(cache.entries.map { "\($0.ranges) of \(origin.count)" })")
        await server.stop()
    }
}
