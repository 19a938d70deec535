import Cache
import Config
import Foundation
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// The loader against servers that refuse, redirect, ask to wait or are not who they say:
/// what is sent where, and how often (`CloudLoaderTests`' rig and helpers).
extension CloudLoaderTests {
    @Test("a wrong password: one error naming the source, no retry storm, no password anywhere in it")
    func wrongPassword() async throws {
        let rig = try await StreamingRig([.longMP3])
        let wrong = "not-the-password-\(UUID().uuidString)"
        let loader = try loader(rig, password: wrong)
        let error = await #expect(throws: LoaderError.self) { try await loader.open(rig.url(.longMP3)) }
        await loader.shutdown()
        #expect(error == .refused(source: "dav", status: 401))
        let message = "\(String(describing: error))"
        #expect(message.contains("dav") && !message.contains(wrong))
        #expect(await rig.proxy.settledLog().count == 1)
    }

    @Test("403 is one clear error naming the source, without retries")
    func forbidden() async throws {
        let rig = try await StreamingRig([.longMP3])
        rig.proxy.inject(.status(403))
        let loader = try loader(rig)
        await #expect(throws: LoaderError.refused(source: "dav", status: 403)) { try await loader.open(rig.url(.longMP3)) }
        await loader.shutdown()
        #expect(await rig.proxy.settledLog().count == 1)
    }

    @Test("a redirect on the same server keeps the credentials; to another host it goes without them")
    func redirects() async throws {
        let rig = try await StreamingRig([.longMP3, .longOpus])
        // The same server under another name: a different origin as far as credentials go.
        let elsewhere = try FaultProxy(originPort: rig.server.port)
        rig.proxy.inject(.redirect(to: "http://127.0.0.1:\(rig.proxy.port)/moved"))
        let loader = try loader(rig)
        await #expect(throws: LoaderError.notFound) { try await loader.open(rig.url(.longMP3)) }
        // Logged as the proxy finishes relaying, which may be just after the loader read the 404.
        let sameOrigin = await rig.proxy.settledLog()
        #expect(sameOrigin.count == 2)
        #expect(sameOrigin.allSatisfy { $0.authorization != nil }, "same origin: credentials go along")

        rig.proxy.inject(.redirect(to: "http://localhost:\(elsewhere.port)"))
        await #expect(throws: LoaderError.refused(source: "dav", status: 401)) { try await loader.open(rig.url(.longOpus)) }
        await loader.shutdown()
        let other = await elsewhere.settledLog()
        #expect(other.count == 1)
        #expect(other.first?.authorization == nil, "no credentials to another host")
        elsewhere.stop()
    }

    @Test("every GET answered 302 to a signed URL on another host: followed without credentials, read right, cached under the original location")
    func signedRedirect() async throws {
        let rig = try await StreamingRig([.longMP3])
        let origin = try rig.origin(.longMP3)
        // "localhost" stands for the other host; it serves signed links with credentials of its own.
        let signed = try FaultProxy(originPort: rig.server.port)
        signed.setServesSignedURLs(authorization: "Basic " + Data("\(rig.server.username):\(rig.server.password)".utf8).base64EncodedString())
        rig.proxy.setRedirectGETs(to: "http://localhost:\(signed.port)")
        let first = try loader(rig)
        #expect(try await readAll(try await first.open(rig.url(.longMP3))) == origin)
        await first.shutdown()
        let followed = signed.log.filter { $0.method == "GET" }
        #expect(!followed.isEmpty && followed.allSatisfy { $0.authorization == nil && $0.path.contains("?signature=") && $0.status == 206 },
                "\(followed.map { "\($0.status) \($0.authorization == nil ? "no auth" : "AUTH")" })")
        #expect(rig.proxy.log.filter { $0.method == "GET" }.allSatisfy { $0.status == 302 && $0.authorization != nil })
        #expect(signed.bodyBytesSent == origin.count)
        let (name, _) = SparseCache.identity(of: TrackLocation(url: rig.url(.longMP3)).uri)
        #expect(rig.cache.entries.map(\.name) == [name], "keyed on the original location")
        #expect(try rig.cache.holdsWhole(origin))

        // After a restart the copy is found under the original location: no GET to either host.
        rig.proxy.clearLog()
        signed.clearLog()
        let second = try loader(rig)
        #expect(try await readAll(try await second.open(rig.url(.longMP3))) == origin)
        await second.shutdown()
        #expect(rig.proxy.log.allSatisfy { $0.method == "PROPFIND" } && signed.log.isEmpty)
        signed.stop()
    }

    @Test("429 and 503 with Retry-After (seconds or an HTTP-date): the next request waits as long as asked, then the file reads on",
          arguments: [(429, false), (503, true), (429, true)])
    func retryAfter(_ item: (Int, Bool)) async throws {
        let (status, asDate) = item
        let rig = try await StreamingRig([.vbrMP3])
        let origin = try rig.origin(.vbrMP3)
        rig.proxy.inject(.busy(status: status, retryAfter: 1, asDate: asDate), .busy(status: status, retryAfter: 2, asDate: asDate))
        let loader = try loader(rig)
        #expect(try await readAll(try await loader.open(rig.url(.vbrMP3))) == origin)
        await loader.shutdown()
        let gets = rig.proxy.log.filter { $0.method == "GET" }.sorted { $0.at < $1.at }
        #expect(gets.prefix(3).map(\.status) == [status, status, 206], "two busy answers, each tried again once")
        // The next request came no sooner than the server asked: 1 s, then 2 s after the answer.
        // Lower bounds on the proxy's own log, nothing waited for: a loaded machine only makes
        // the gaps longer (the waits themselves are what Retry-After asks for).
        if gets.count >= 3 {
            #expect(gets[0].at.duration(to: gets[1].at) >= .seconds(1), "\(gets[0].at.duration(to: gets[1].at))")
            #expect(gets[1].at.duration(to: gets[2].at) >= .seconds(2), "\(gets[1].at.duration(to: gets[2].at))")
        }
        #expect(rig.proxy.pendingFaults.isEmpty)
    }

    @Test("at most per_host requests at once go to a host, however many files are read together")
    func perHostLimit() async throws {
        let files: [Fixtures.File] = [.longMP3, .longOpus, .vbrMP3, .secondMP3, .opus]
        let rig = try await StreamingRig(files)
        rig.proxy.setLatency(seconds: 0.3)  // every answer takes a while, so requests overlap
        var configuration = try LoaderConfiguration.parse(rig.configText(), relativeTo: rig.directory)
        configuration.loader.perHost = 2
        let loader = LoaderActor(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for file in files {
                let origin = try rig.origin(file)
                group.addTask {
                    let read = try await readAll(try await loader.open(rig.url(file)))
                    #expect(read == origin)
                }
            }
            try await group.waitForAll()
        }
        await loader.shutdown()
        #expect(rig.proxy.mostConcurrentRequests <= 2, "\(rig.proxy.mostConcurrentRequests) at once")
    }

    @Test("HTTPS is verified: a self-signed server is refused with one error naming it and the settings that trust it, at once; tls_ca_file trusts it")
    func selfSignedServer() async throws {
        let server = try await WebDAVTestServer(tls: true)
        let file = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(file, as: "a.mp3")
        let cache = try Fixtures.shared.scratchDirectory()
        func configuration(trusting ca: URL?) -> LoaderConfiguration {
            LoaderConfiguration(loader: LoaderSettings(cacheDirectory: cache), sources: [
                WebDAVSource(name: "tls", server: HTTPServer(url: server.baseURL, username: server.username,
                                                             password: .inline(Secret(server.password)), tlsCAFile: ca?.path)),
            ])
        }
        let url = server.baseURL.appendingPathComponent("a.mp3")
        let strict = LoaderActor(configuration: configuration(trusting: nil))
        let error = await #expect(throws: LoaderError.self) { try await strict.open(url) }
        await strict.shutdown()
        // One message naming the server and the two ways to trust it.
        #expect(error.map { "\($0)" } == "TLS: the certificate of https://127.0.0.1:\(server.port) is not trusted (its issuer is not a known CA); "
                + "add its CA to the system store (update-ca-certificates) or set tls_ca_file for source 'tls'", "\(String(describing: error))")

        let trusting = LoaderActor(configuration: configuration(trusting: server.certificate))
        #expect(try await readAll(try await trusting.open(url)) == (try Data(contentsOf: file)))
        await trusting.shutdown()
    }
}
