import Base
import Daemon
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// Dropbox's OAuth against the emulator (Tests/CloudEmulators/dropbox.py): the code flow with
/// PKCE and `token_access_type=offline` on the app's registered loopback redirect, the
/// paste-the-code flow without a redirect, short-lived access tokens refreshed as they expire
/// (and on a 401 `expired_access_token`), and a revoked refresh token that marks the source
/// "needs login" while the others go on — all through the shared OAuth code.
@Suite(.timeLimit(.minutes(3)))
struct DropboxLoginTests {
    struct Rig: CloudTestRig {
        let server: DropboxTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await DropboxTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        func settings() throws -> OAuthSettings {
            let dbx = try #require(try sources()[0] as? DropboxSource)
            return try #require(dbx.account.oauth)
        }

        /// Logs in on the registered loopback redirect, the browser following the provider's
        /// redirect as soon as the address is shown; the tokens stored.
        func login() async throws -> (record: TokenRecord, address: String) {
            let client = try client()
            let shown = Locked<String?>(nil)
            async let record = LoopbackLogin(client: client, port: try settings().redirectPort ?? 0).run { text in shown.withLock { $0 = text } }
            let address = try await Self.lastLine(of: shown)
            let page = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", address])
            #expect(page.stdout.contains("login received"))
            let result = try await record
            try await store.save(result, for: "dbx")
            await client.shutdown()
            return (result, address)
        }

        static func lastLine(of shown: Locked<String?>) async throws -> String {
            while true {
                if let line = shown.withLock({ $0 })?.split(separator: "\n").last { return String(line) }
                try await Task.sleep(for: .milliseconds(25))
            }
        }
    }

    @Test("the loopback flow: the authorize address asks for offline access with an S256 challenge and the registered redirect; the code is redeemed for an access and a refresh token, which play")
    func loopbackFlow() async throws {
        let rig = try await Rig.start()
        let (record, address) = try await rig.login()
        #expect(address.contains("token_access_type=offline") && address.contains("code_challenge_method=S256"))
        #expect(address.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(rig.server.redirectPort)%2F"))
        #expect(record.accessToken != nil && record.refreshToken != nil && record.expiresAt != nil)
        let grants = try await rig.server.log().filter { $0.path == "/oauth2/token" }
        #expect(grants.count == 1 && grants[0].status == 200, "the emulator checked the verifier and the redirect URI")

        let file = try await Fixtures.shared.url(.vbrMP3)
        try rig.server.publish(file, as: "Music/a.mp3")
        let loader = try rig.loader()
        #expect(try await loader.open(TrackLocation(source: "dbx", key: "Music/a.mp3")).readWhole() == (try Data(contentsOf: file)))
        await loader.shutdown()
    }

    @Test("the paste flow: an address without redirect_uri; the code the provider's page shows, pasted, is redeemed with the verifier")
    func pasteFlow() async throws {
        let rig = try await Rig.start()
        let client = try rig.client()
        let shown = Locked<String?>(nil)
        let pasted = Locked<String?>(nil)
        async let record = PastedCodeLogin(client: client).run(show: { text in shown.withLock { $0 = text } }) {
            while true {
                if let code = pasted.withLock({ $0 }) { return code + "\n" }
                try await Task.sleep(for: .milliseconds(25))
            }
        }
        let address = try await Rig.lastLine(of: shown)
        #expect(!address.contains("redirect_uri") && address.contains("token_access_type=offline"))
        let page = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", address])
        let code = try #require(page.stdout.components(separatedBy: "<code id=\"auth-code\">").last?.components(separatedBy: "</code>").first)
        pasted.withLock { $0 = code }
        let result = try await record
        #expect(result.accessToken != nil && result.refreshToken != nil)
        await client.shutdown()
    }

    @Test("access tokens that expire after a few seconds are refreshed (ahead of expiry, and on a 401 expired_access_token) and the track plays on")
    func refresh() async throws {
        let rig = try await Rig.start()
        // A login's token lasts 3 s: inside the minute before expiry, so it is refreshed on first use.
        try await rig.server.control(#"{"access_ttl": 3}"#)
        let (first, _) = try await rig.login()
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try rig.server.publish(originFile, as: "Music/long.mp3")
        let location = TrackLocation(source: "dbx", key: "Music/long.mp3")
        try await rig.server.control(#"{"access_ttl": 3600, "clear_log": true}"#)
        let loader = try rig.loader()
        let half = origin.count / 2
        #expect(try await loader.bytes(in: 0..<Int64(half), of: location) == Array(origin[0..<half]))
        #expect(try await rig.server.log().filter { $0.path == "/oauth2/token" }.count == 1, "refreshed ahead of expiry")
        let refreshed = try #require(try rig.store.loadNow("dbx"))
        #expect(refreshed.accessToken != first.accessToken && refreshed.refreshToken == first.refreshToken, "Dropbox keeps the refresh token")

        // Every access token ends at once: the next request meets 401 expired_access_token.
        try await rig.server.control(#"{"expire_access": true, "clear_log": true}"#)
        #expect(try await loader.open(location).readWhole() == origin)
        await loader.shutdown()
        let log = try await rig.server.log()
        #expect(log.contains { $0.status == 401 } && log.filter { $0.path == "/oauth2/token" }.count == 1, "one refresh after the 401")
    }

    @Test("a revoked refresh token marks the source \"needs login\" while the other source goes on; a new login works without a restart")
    func revoked() async throws {
        let rig = try await Rig.start()
        try await rig.checkRevoked { _ = try await rig.login() }
    }

    @Test("Dropbox-API-Arg JSON escapes 0x7F and every non-ASCII character as \\uXXXX (surrogate pairs above U+FFFF), as the docs' own example")
    func headerSafeJSON() {
        #expect(DropboxArgument.json([("path", .string("some_üñîcødé_and_\u{7F}"))]) == #"{"path": "some_\u00fc\u00f1\u00eec\u00f8d\u00e9_and_\u007f"}"#)
        #expect(DropboxArgument.json([("path", .string("/a \"b\" \\ 🎵"))]) == #"{"path": "/a \"b\" \\ \ud83c\udfb5"}"#)
    }
}
