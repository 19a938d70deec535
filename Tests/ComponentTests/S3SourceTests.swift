import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// `type = "s3"` against a real S3 server (moto), behind the fault proxy (which counts the bytes
/// sent and plays the answers moto does not give: another region, a clock that is off). moto
/// checks signatures when told to, but gets some wrong — of a query value with `/` (every
/// `delimiter=/` listing, boto3's too) and of keys with `+` or non-ASCII letters: requests of
/// those go to a moto that does not check, and their signatures are checked against botocore's
/// in S3SignerTests.
@Suite(.timeLimit(.minutes(3)))
struct S3SourceTests {
    /// moto, the proxy in front of it, and a folder for the cache, the library and the secret.
    private struct Rig {
        let server: S3TestServer
        let proxy: FaultProxy
        let folder: URL

        static func start(checksSignatures: Bool = true) async throws -> Rig {
            let server = try await S3TestServer(checksSignatures: checksSignatures)
            return Rig(server: server, proxy: try FaultProxy(originPort: server.port), folder: try Fixtures.shared.scratchDirectory())
        }

        /// The source "s3", its secret in a file; `secret`, `keyID`, `bucket` override the right ones.
        func source(secret: String? = nil, keyID: String? = nil, bucket: String? = nil, prefix: String = "",
                    pageSize: Int = 1000) throws -> S3Source {
            let secretFile = folder.appendingPathComponent("s3.secret")
            try (secret ?? server.secretAccessKey).write(to: secretFile, atomically: true, encoding: .utf8)
            let text = """
                [[source]]
                name = "s3"
                type = "s3"
                endpoint = "http://127.0.0.1:\(proxy.port)"
                bucket = "\(bucket ?? server.bucket)"
                prefix = "\(prefix)"
                region = "us-east-1"
                access_key_id = "\(keyID ?? server.accessKeyID)"
                secret_access_key_file = "\(secretFile.path)"
                path_style = true
                """
            var source = try #require(try LoaderConfiguration.parse(text, relativeTo: folder).sources.source(named: "s3") as? S3Source)
            source.pageSize = pageSize
            return source
        }

        /// A loader with a cache of its own, or the one named `cache` (to be replayed from).
        func loader(_ source: S3Source, cache: String = UUID().uuidString, readAhead: Int64? = nil) -> LoaderActor {
            var settings = LoaderSettings(cacheDirectory: folder.appendingPathComponent(cache))
            if let readAhead { settings.readAhead = readAhead }
            return LoaderActor(settings: settings, sources: SourceSet([source]))
        }

        /// Every file name under the rig's folder (cache entries among them).
        var fileNames: [String] {
            (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
        }
    }

    private func read(_ source: any ByteSource, at offset: Int, count: Int) async throws -> [UInt8] {
        try await onOwnThread { try source.readBytes(at: Int64(offset), count: count) }
    }

    @Test("a bucket with folders scans page by page into tracks with their tags; keys with spaces, .., // and ~ are kept as they are; a rescan reads none again")
    func scan() async throws {
        let rig = try await Rig.start(checksSignatures: false)
        let fixtures = Fixtures.shared
        let files: [(String, Fixtures.File)] = [
            ("library/Albums/First/01 vbr.mp3", .vbrMP3), ("library/Albums/First/02.opus", .opus),
            ("library/Albums/Second/song.flac", .flac), ("library/top.mp3", .cbrMP3), ("library/d/../e.mp3", .secondMP3),
            ("library/f//g.mp3", .monoMP3), ("library/tilde~.ogg", .vorbis), ("outside.mp3", .vbrMP3),
        ]
        var uploads: [(key: String, file: URL)] = []
        for (key, file) in files { uploads.append((key, try await fixtures.url(file))) }
        let marker = rig.folder.appendingPathComponent("empty")
        try Data().write(to: marker)
        uploads.append(("library/Empty folder/", marker))
        try await rig.server.upload(uploads)

        let source = try rig.source(prefix: "library", pageSize: 2)
        let loader = rig.loader(source)
        let library = LibraryActor()
        try await library.openDatabase(at: rig.folder.appendingPathComponent("library.sqlite"))
        let report = try #require(await library.scan(["s3"], loader: loader).first)
        #expect(!report.failed && report.tracks == 7 && report.tagsRead == 7 && report.folders == 9 && report.problems.isEmpty, "\(report)")

        let vbr = try #require(try await library.track(at: TrackLocation(source: "s3", key: "library/Albums/First/01 vbr.mp3")))
        #expect(vbr.title == "Vbr Title" && vbr.artist == "Some Artist" && vbr.url == "cloudplayer://s3/library/Albums/First/01%20vbr.mp3")
        let opus = try #require(try await library.track(at: TrackLocation(source: "s3", key: "library/Albums/First/02.opus")))
        #expect(opus.title == "Opus Title")
        #expect(try await library.track(at: TrackLocation(source: "s3", key: "library/d/../e.mp3")) != nil)
        #expect(try await library.track(at: TrackLocation(source: "s3", key: "library/e.mp3")) == nil, "a key is not normalised")
        #expect(try await library.track(at: TrackLocation(source: "s3", key: "library/f//g.mp3")) != nil)
        #expect(try await library.track(at: TrackLocation(source: "s3", key: "outside.mp3")) == nil, "outside the prefix")

        let lists = rig.proxy.log.filter { $0.method == "GET" && $0.path.contains("list-type=2") }
        #expect(lists.contains { $0.path.contains("continuation-token=") }, "pages of max-keys=2 are followed")
        #expect(rig.proxy.log.allSatisfy { $0.authorization?.hasPrefix("AWS4-HMAC-SHA256 Credential=\(rig.server.accessKeyID)/") == true })
        #expect(rig.proxy.log.allSatisfy { $0.status < 300 })

        let again = try #require(await library.scan(["s3"], loader: loader).first)
        #expect(!again.failed && again.tracks == 7 && again.tagsRead == 0, "\(again)")
        await loader.shutdown()
    }

    @Test("a track plays through the loader with a seek, byte for byte; a replay from the cache fetches 0 bytes")
    func playSeekReplay() async throws {
        let rig = try await Rig.start()
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try await rig.server.upload([("Long Mix/long track.mp3", originFile)])
        let location = TrackLocation(source: "s3", key: "Long Mix/long track.mp3")

        let loader = rig.loader(try rig.source(), cache: "cache")
        let track = try await loader.open(location)
        #expect(track.length == Int64(origin.count))
        let seek = origin.count * 3 / 4
        #expect(try await read(track, at: seek, count: 5000) == Array(origin[seek..<(seek + 5000)]))
        #expect(try await track.readWhole() == origin)
        await loader.shutdown()
        let gets = rig.proxy.log.filter { $0.method == "GET" }
        #expect(gets.allSatisfy { $0.range != nil && $0.status == 206 }, "ranged GETs, each one signed and accepted")
        #expect(gets.dropFirst().allSatisfy { $0.ifRange != nil }, "every request after the first carries If-Range (S3's ETag is strong)")
        #expect(Double(rig.proxy.bodyBytesSent) <= 1.02 * Double(origin.count))

        // Requests of the first loader may still be finishing: the replay's are those that arrive after it starts.
        let replayStarted = ContinuousClock.now
        let replay = rig.loader(try rig.source(), cache: "cache")
        let again = try await replay.open(location)
        #expect(try await again.readWhole() == origin)
        await replay.shutdown()
        let replayed = rig.proxy.log.filter { $0.at >= replayStarted }
        #expect(replayed.filter { $0.method == "GET" }.isEmpty && replayed.reduce(0) { $0 + $1.bodyBytes } == 0,
                "a replay from the cache fetches nothing: \(replayed.map { "\($0.method) \($0.status) \($0.range ?? "")" })")
        #expect(!rig.fileNames.contains { $0.contains(rig.server.secretAccessKey) || $0.contains(rig.server.accessKeyID) })
    }

    @Test("an object deleted while it plays: the bytes not fetched yet fail with 'no such file', no retry storm, no crash")
    func deletedWhilePlaying() async throws {
        let rig = try await Rig.start()
        let file = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: file)
        try await rig.server.upload([("gone.mp3", file)])
        let loader = rig.loader(try rig.source(), readAhead: 64 << 10)
        let track = try await loader.open(TrackLocation(source: "s3", key: "gone.mp3"))
        #expect(try await read(track, at: 0, count: 4000) == Array(origin[0..<4000]))
        try await rig.server.delete(["gone.mp3"])
        await #expect {
            // Places not read ahead yet (the loader reads 64 KiB ahead here).
            for offset in stride(from: origin.count - 5000, to: 100_000, by: -150_000) {
                _ = try await read(track, at: offset, count: 4000)
            }
        } throws: { error in
            "\(error)" == "\(LoaderError.notFound)"
        }
        await loader.shutdown()
        #expect(rig.proxy.log.filter { $0.status == 404 }.count <= 3)
    }

    @Test("keys with + and non-ASCII letters are read right (from a moto that does not check signatures: its check gets them wrong)")
    func unusualKeys() async throws {
        let rig = try await Rig.start(checksSignatures: false)
        let file = try await Fixtures.shared.url(.cbrMP3)
        let origin = try Data(contentsOf: file)
        let keys = ["AC+DC/Back in Black.mp3", "Björk/Jóga ü+é.mp3", "a b/..//+ü~.mp3"]
        try await rig.server.upload(keys.map { ($0, file) })
        let loader = rig.loader(try rig.source())
        for key in keys {
            #expect(try await loader.open(TrackLocation(source: "s3", key: key)).readWhole() == origin, "\(key)")
        }
        await loader.shutdown()
    }

    @Test("wrong secret, unknown key, no such bucket, no such key: one clear error each, naming the source, with no secret in it")
    func refusals() async throws {
        let rig = try await Rig.start()
        let file = try await Fixtures.shared.url(.cbrMP3)
        try await rig.server.upload([("a.mp3", file), ("d/../e.mp3", file), ("f//g.mp3", file), ("t~ x.mp3", file)])
        let wrongSecret = "Wrong/Secret+\(UUID().uuidString)"
        var outputs: [String] = []

        func scanProblem(_ source: S3Source) async throws -> String {
            let loader = rig.loader(source)
            let library = LibraryActor()
            try await library.openDatabase(at: rig.folder.appendingPathComponent("library-\(UUID().uuidString).sqlite"))
            let report = try #require(await library.scan(["s3"], loader: loader).first)
            await loader.shutdown()
            #expect(report.failed)
            outputs.append("\(report)")
            return report.problems.joined(separator: "\n")
        }

        let refused = try await scanProblem(try rig.source(secret: wrongSecret))
        #expect(refused.hasPrefix("s3: cannot list s3://") && !refused.contains(": s3: ") && refused.contains("SignatureDoesNotMatch"), "\(refused)")

        func openProblem(_ source: S3Source, _ key: String = "a.mp3") async -> String {
            let loader = rig.loader(source)
            var problem = "opened"
            do {
                _ = try await loader.open(TrackLocation(source: "s3", key: key))
            } catch {
                outputs.append("\(error)")
                problem = "\(error)"
            }
            await loader.shutdown()
            return problem
        }
        for key in ["a.mp3", "d/../e.mp3", "f//g.mp3", "t~ x.mp3"] {
            #expect(await openProblem(try rig.source(), key) == "opened", "the right keys are accepted for \(key)")
        }
        let signature = await openProblem(try rig.source(secret: wrongSecret))
        #expect(signature.hasPrefix("s3: ") && signature.contains("SignatureDoesNotMatch") && signature.contains("secret_access_key"), "\(signature)")
        let unknown = await openProblem(try rig.source(keyID: "AKIAUNKNOWN000000000"))
        #expect(unknown.hasPrefix("s3: ") && unknown.contains("InvalidAccessKeyId"), "\(unknown)")
        let bucket = await openProblem(try rig.source(bucket: "no-such-bucket"))
        #expect(bucket.hasPrefix("s3: ") && bucket.contains("NoSuchBucket") && bucket.contains("no-such-bucket"), "\(bucket)")
        #expect(await openProblem(try rig.source(), "missing.mp3") == "\(LoaderError.notFound)")
        outputs.append(try rig.source(secret: wrongSecret).shownLocation)

        // One refused request per refusal (the scan, three opens, the missing key): no retry storm.
        // The proxy may log the last one only after its answer was read.
        let refusedRequests = rig.proxy.log.filter { $0.status >= 300 }
        #expect((4...5).contains(refusedRequests.count), "\(refusedRequests.map { "\($0.method) \($0.status) \($0.path)" })")
        for output in outputs + rig.fileNames {
            #expect(!output.contains(wrongSecret) && !output.contains(rig.server.secretAccessKey) && !output.contains("Signature="), "\(output)")
        }
    }

    @Test("AuthorizationHeaderMalformed or a 301 naming another region: signed again for that region, which is kept; RequestTimeTooSkewed: signed again with the server's time")
    func regionAndClock() async throws {
        let rig = try await Rig.start()
        let file = try await Fixtures.shared.url(.cbrMP3)
        try await rig.server.upload([("a.mp3", file), ("b.mp3", file), ("c.mp3", file)])
        let origin = try Data(contentsOf: file)

        rig.proxy.inject(.answer(method: "GET", status: 400, body: """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>AuthorizationHeaderMalformed</Code><Message>the region 'us-east-1' is wrong; expecting 'eu-west-3'</Message>\
            <Region>eu-west-3</Region><RequestId>1</RequestId></Error>
            """))
        let loader = rig.loader(try rig.source())
        #expect(try await loader.open(TrackLocation(source: "s3", key: "a.mp3")).readWhole() == origin)
        await loader.shutdown()
        // The proxy logs an exchange when it has passed the whole answer on: the retry's may come a moment later.
        _ = try await eventually { rig.proxy.log.filter { $0.path.hasSuffix("/a.mp3") }.count >= 2 }
        var signed = rig.proxy.log.filter { $0.path.hasSuffix("/a.mp3") }.compactMap(\.authorization)
        #expect(signed.first?.contains("/us-east-1/s3/aws4_request") == true)
        #expect(signed.dropFirst().allSatisfy { $0.contains("/eu-west-3/s3/aws4_request") } && signed.count >= 2, "\(signed)")

        rig.proxy.clearLog()
        rig.proxy.inject(.answer(method: "GET", status: 301, body: "", headers: ["x-amz-bucket-region: ap-south-1"]))
        let moved = rig.loader(try rig.source())
        #expect(try await moved.open(TrackLocation(source: "s3", key: "b.mp3")).readWhole() == origin)
        await moved.shutdown()
        _ = try await eventually { rig.proxy.log.filter { $0.path.hasSuffix("/b.mp3") }.count >= 2 }
        signed = rig.proxy.log.filter { $0.path.hasSuffix("/b.mp3") }.compactMap(\.authorization)
        #expect(signed.first?.contains("/us-east-1/") == true && signed.last?.contains("/ap-south-1/") == true,
                "\(rig.proxy.log.map { "\($0.method) \($0.status) \($0.authorization ?? "")" })")

        rig.proxy.clearLog()
        let later = Date().addingTimeInterval(3 * 86_400)
        let formatter = ISO8601DateFormatter()
        rig.proxy.inject(.answer(method: "GET", status: 403, body: """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request time and the current time is too large.</Message>\
            <RequestTime>now</RequestTime><ServerTime>\(formatter.string(from: later))</ServerTime><MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds></Error>
            """))
        let skewed = rig.loader(try rig.source())
        _ = try? await skewed.open(TrackLocation(source: "s3", key: "c.mp3"))
        await skewed.shutdown()
        _ = try await eventually { rig.proxy.log.filter { $0.path.hasSuffix("/c.mp3") }.count >= 2 }
        signed = rig.proxy.log.filter { $0.path.hasSuffix("/c.mp3") }.compactMap(\.authorization)
        let day = String(S3Signer.timestamp(later).prefix(8))
        #expect(signed.count >= 2 && signed.dropFirst().allSatisfy { $0.contains("/\(day)/") }, "signed with the server's day \(day): \(signed)")
    }
}
