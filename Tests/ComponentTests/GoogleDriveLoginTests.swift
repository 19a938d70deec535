import Base
import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// A `google-drive` source that logs in, against the emulator's Google accounts: the
/// authorization code grant with PKCE on a loopback redirect (any port, as Google lets desktop
/// apps), `access_type=offline` and `prompt=consent` for a refresh token, the client secret a
/// desktop app has, access tokens refreshed ahead of expiry and on a 401 (Google keeps the
/// refresh token), and a revoked refresh token (`invalid_grant`) that marks the source
/// "needs login" while another source goes on.
@Suite(.timeLimit(.minutes(3)))
struct GoogleDriveLoginTests {
    struct Rig: CloudTestRig {
        let server: GoogleDriveTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await GoogleDriveTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        func login() async throws -> (record: TokenRecord, address: String) {
            try await loopbackLogin()
        }
    }

    @Test("the loopback flow: the address asks for drive.readonly, offline access and consent with an S256 challenge and a 127.0.0.1 redirect; the code and the client secret bring an access and a refresh token, which play")
    func loopbackFlow() async throws {
        let rig = try await Rig.start()
        let (record, address) = try await rig.login()
        #expect(address.hasPrefix(rig.server.accountsURL.absoluteString + "/o/oauth2/v2/auth?response_type=code&client_id="))
        #expect(address.contains("access_type=offline") && address.contains("prompt=consent") && address.contains("code_challenge_method=S256"))
        #expect(address.contains("scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fdrive.readonly"))
        #expect(address.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
        #expect(record.accessToken != nil && record.refreshToken != nil && record.expiresAt != nil)
        let grants = try await rig.server.log().filter { $0.path == "/token" }
        #expect(grants.map(\.status) == [200] && grants[0].body == "grant_type=authorization_code", "the emulator checked the secret, the verifier and the redirect")

        // Again: with prompt=consent a refresh token comes back every time, not only the first.
        let (again, _) = try await rig.login()
        #expect(again.refreshToken != nil && again.refreshToken != record.refreshToken)

        let file = try await Fixtures.shared.url(.vbrMP3)
        try rig.server.publish(file, as: "Music/a.mp3")
        let loader = try rig.loader()
        #expect(try await loader.open(TrackLocation(source: "drive", key: "Music/a.mp3")).readWhole() == (try Data(contentsOf: file)))
        await loader.shutdown()
        #expect(try await rig.server.log().filter { $0.host != "accounts" }.allSatisfy { !$0.path.contains(again.accessToken ?? "-") })
    }

    @Test("the paste flow: the address still names a 127.0.0.1 redirect (Google has no out-of-band flow); the address the browser ends at, pasted, is redeemed with the verifier; one of another login is refused")
    func pasteFlow() async throws {
        let rig = try await Rig.start()
        var landed = ""
        let (result, address) = try await rig.pastedLogin { address in
            // The browser follows Google's 302 to 127.0.0.1:PORT, where nothing answers: the user copies that address.
            landed = try await rig.server.landing(of: address)
            return landed
        }
        #expect(address.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A") && address.contains("access_type=offline"))
        #expect(landed.hasPrefix("http://127.0.0.1:") && landed.contains("code="))
        #expect(result.accessToken != nil && result.refreshToken != nil)

        // An address from another login (another state) is not redeemed.
        let other = landed.replacingOccurrences(of: "state=", with: "state=x")
        #expect(throws: LoaderError.self) { _ = try PastedCodeLogin.code(in: other, state: "y", source: "drive") }
    }

    @Test("access tokens that expire after a few seconds are refreshed (ahead of expiry, and on a 401) and the track plays on; Google keeps the refresh token")
    func refresh() async throws {
        let rig = try await Rig.start()
        let tokens = try await rig.checkRefresh { try await rig.login().record }
        #expect(tokens.refreshed.refreshToken == tokens.first.refreshToken, "the refresh token is kept when the answer brings none")
        #expect(try await rig.server.log().filter { $0.path == "/token" }.allSatisfy { $0.body == "grant_type=refresh_token" })
    }

    @Test("a revoked refresh token (invalid_grant) marks the source \"needs login\" while the other source goes on; a new login works without a restart")
    func revoked() async throws {
        let rig = try await Rig.start()
        try await rig.checkRevoked { _ = try await rig.login() }
    }
}
