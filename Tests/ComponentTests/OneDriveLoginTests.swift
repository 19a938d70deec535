import Base
import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// A `onedrive` source that logs in, against the emulator's Microsoft identity platform: the
/// device authorization grant through the shared `DeviceLogin` (Microsoft's endpoints and
/// scopes), refresh tokens that rotate on every refresh and are written back, a 401 answered by
/// one refresh, and a revoked refresh token that marks the source "needs login" while another
/// source goes on.
@Suite(.timeLimit(.minutes(3)))
struct OneDriveLoginTests {
    struct Rig: CloudTestRig {
        let server: OneDriveTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await OneDriveTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        /// Logs in with the device flow, the user entering the code once the first poll was told to wait.
        func deviceLogin() async throws -> TokenRecord {
            let client = try client()
            let shown = Locked<String?>(nil)
            async let record = DeviceLogin(client: client).run { text in shown.withLock { $0 = text } }
            let code = try await Self.lastWord(of: shown)
            while try await server.log().contains(where: { $0.path.hasSuffix("/oauth2/v2.0/token") && $0.status == 400 }) == false {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await server.enter(userCode: code)
            let result = try await record
            try await store.save(result, for: "od")
            await client.shutdown()
            return result
        }

        var tokenRequests: [CloudExchange] {
            get async throws { try await server.log().filter { $0.path.hasSuffix("/oauth2/v2.0/token") } }
        }
    }

    @Test("the source asks Microsoft's endpoints of its tenant for Files.Read offline_access; the device flow polls until the code is entered, and the login plays")
    func deviceFlow() async throws {
        let rig = try await Rig.start()
        let od = try #require(try rig.sources()[0] as? OneDriveSource)
        #expect(od.account.oauth?.scope == "Files.Read offline_access")
        #expect(od.account.oauth?.deviceURL?.path == "/consumers/oauth2/v2.0/devicecode")
        let defaults = try #require(try LoaderConfiguration.parse("""
            [[source]]
            name = "x"
            type = "onedrive"
            client_id = "abc"
            tenant = "organizations"
            """, relativeTo: rig.folder).sources.source(named: "x") as? OneDriveSource)
        #expect(defaults.account.oauth?.tokenURL.absoluteString == "https://login.microsoftonline.com/organizations/oauth2/v2.0/token")
        #expect(defaults.account.apiURL.absoluteString == "https://graph.microsoft.com/v1.0" && defaults.path == "/")

        let record = try await rig.deviceLogin()
        #expect(record.accessToken != nil && record.refreshToken != nil && record.expiresAt != nil)
        #expect(try await rig.tokenRequests.count >= 2, "polled while the code was pending")
        #expect(try await rig.store.load("od") == record)
        #expect(await od.status == nil, "logged in: nothing to say")

        let originFile = try await Fixtures.shared.url(.vbrMP3)
        try rig.server.publish(originFile, as: "Music/a.mp3")
        let loader = try rig.loader()
        #expect(try await loader.open(TrackLocation(source: "od", key: "Music/a.mp3")).readWhole() == (try Data(contentsOf: originFile)))
        await loader.shutdown()
    }

    @Test("the loopback flow with PKCE (`--browser`): Microsoft's authorize endpoint of the tenant redirects to 127.0.0.1 with a code, redeemed with the S256 verifier")
    func loopbackFlow() async throws {
        let address = try await Rig.start().checkLoopbackLogin()
        #expect(address.contains("/consumers/oauth2/v2.0/authorize?") && address.contains("scope=Files.Read%20offline_access"), "\(address)")
    }

    @Test("an access token near its expiry is refreshed first, one that meets a 401 is refreshed once; each rotated refresh token is written back and the tracks play to their ends")
    func refresh() async throws {
        let rig = try await Rig.start()
        let tokens = try await rig.checkRefresh { try await rig.deviceLogin() }
        #expect(tokens.refreshed.refreshToken != tokens.first.refreshToken, "the rotated tokens are stored")
        // The old refresh token is spent: only the written-back one refreshed after the 401.
        #expect(tokens.last?.refreshToken != tokens.refreshed.refreshToken)
    }

    @Test("a revoked refresh token marks the source \"needs login\" (its status, a clear error, the refused token not kept) while another source goes on; a new login clears it")
    func revoked() async throws {
        let rig = try await Rig.start()
        try await rig.checkRevoked { _ = try await rig.deviceLogin() }
    }
}
