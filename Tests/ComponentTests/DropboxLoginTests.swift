import Base
import ComponentTestSupport
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

        /// Logs in on the registered loopback redirect; the tokens stored.
        func login() async throws -> (record: TokenRecord, address: String) {
            try await loopbackLogin(port: try settings().redirectPort ?? 0)
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
        let (result, address) = try await rig.pastedLogin { address in
            let page = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", address])
            return try #require(page.stdout.components(separatedBy: "<code id=\"auth-code\">").last?.components(separatedBy: "</code>").first)
        }
        #expect(!address.contains("redirect_uri") && address.contains("token_access_type=offline"))
        #expect(result.accessToken != nil && result.refreshToken != nil)
    }

    @Test("access tokens that expire after a few seconds are refreshed (ahead of expiry, and on a 401 expired_access_token) and the track plays on")
    func refresh() async throws {
        let rig = try await Rig.start()
        let tokens = try await rig.checkRefresh { try await rig.login().record }
        #expect(tokens.refreshed.refreshToken == tokens.first.refreshToken, "Dropbox keeps the refresh token")
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
