import Base
import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// OAuth 2.0 against the Yandex OAuth emulator (Tests/CloudEmulators/yandex_disk.py): the device
/// flow and the loopback flow with PKCE, the token store, refresh ahead of expiry and on a 401,
/// rotated refresh tokens written back, and a revoked refresh token that marks one source
/// "needs login" while the others go on.
@Suite(.timeLimit(.minutes(3)))
struct YandexDiskLoginTests {
    struct Rig: CloudTestRig {
        let server: YandexDiskTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await YandexDiskTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        func source() throws -> YandexDiskSource {
            try #require(try sources()[0] as? YandexDiskSource)
        }

        /// Logs in with the device flow, the user entering the code as soon as it is shown.
        func deviceLogin() async throws -> TokenRecord {
            let client = try client()
            let shown = Locked<String?>(nil)
            async let record = DeviceLogin(client: client).run { text in shown.withLock { $0 = text } }
            let code = try await Self.lastWord(of: shown)
            // The user is slower than the first poll: it is answered authorization_pending.
            while try await server.log().contains(where: { $0.path == "/token" && $0.status == 400 }) == false {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await server.enter(userCode: code)
            let result = try await record
            try await store.save(result, for: "yd")
            await client.shutdown()
            return result
        }

        var tokenRequests: [YandexDiskTestServer.Exchange] {
            get async throws { try await server.log().filter { $0.path == "/token" } }
        }
    }

    @Test("the device flow shows the address and the user code, polls until the user enters it, and stores tokens 0600 in a 0700 folder, named after the source")
    func deviceFlow() async throws {
        let rig = try await Rig.start()
        let record = try await rig.deviceLogin()
        #expect(record.accessToken != nil && record.refreshToken != nil && record.expiresAt != nil)
        #expect(try await rig.tokenRequests.count >= 2, "polled while the code was pending")
        let file = rig.store.file(of: "yd")
        #expect(file.lastPathComponent == "yd.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: rig.store.directory.path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(try await rig.store.load("yd") == record)
        #expect(try await rig.source().status == nil, "logged in: nothing to say")

        // The stored login plays.
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        let origin = try Data(contentsOf: try await Fixtures.shared.url(.vbrMP3))
        let loader = try rig.loader()
        #expect(try await loader.open(TrackLocation(source: "yd", key: "Music/a.mp3")).readWhole() == origin)
        await loader.shutdown()
    }

    @Test("a user who denies the device login gets a clear error")
    func deviceDenied() async throws {
        let rig = try await Rig.start()
        let client = try rig.client()
        let shown = Locked<String?>(nil)
        async let record = DeviceLogin(client: client).run { text in shown.withLock { $0 = text } }
        try await rig.server.enter(userCode: try await Rig.lastWord(of: shown), deny: true)
        var refusal: (any Error)?
        do { _ = try await record } catch { refusal = error }
        #expect(refusal as? LoaderError == .service(source: "yd", reason: "access was denied at the provider"), "\(String(describing: refusal))")
        await client.shutdown()
    }

    @Test("the loopback flow with PKCE: the authorize page redirects to 127.0.0.1 with a code, which is redeemed with the S256 verifier")
    func loopbackFlow() async throws {
        try await Rig.start().checkLoopbackLogin()
    }

    @Test("an access token that expires mid-play is refreshed (ahead of expiry, or on a 401) and the track plays to its end; a rotated refresh token is written back")
    func refresh() async throws {
        let rig = try await Rig.start()
        try await rig.server.control(#"{"rotate_refresh": true}"#)
        let tokens = try await rig.checkRefresh { try await rig.deviceLogin() }
        #expect(tokens.refreshed.refreshToken != tokens.first.refreshToken, "the rotated tokens are stored")
        #expect(tokens.last?.refreshToken != tokens.refreshed.refreshToken)
    }

    @Test("a revoked refresh token marks the source \"needs login\" (its status, a clear error) while other sources go on; a new login works without a restart")
    func revoked() async throws {
        let rig = try await Rig.start()
        try await rig.checkRevoked { _ = try await rig.deviceLogin() }
    }

    @Test("the S256 challenge of RFC 7636's own example")
    func pkceExample() {
        #expect(PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }
}
