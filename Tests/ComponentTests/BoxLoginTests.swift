import Base
import ComponentTestSupport
import Foundation
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// A `box` source that logs in, against the Box emulator's OAuth 2.0 endpoints: the
/// authorization code grant on a loopback redirect with the user's client id and secret, Box's
/// single-use refresh tokens (each refresh answers a new one, the old one dies) stored before the
/// new access token is used, a 401 answered by one refresh, and a revoked refresh token that marks
/// the source "needs login" while another source goes on.
@Suite(.timeLimit(.minutes(3)))
struct BoxLoginTests {
    struct Rig: CloudTestRig {
        let server: BoxTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await BoxTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        var grants: [CloudExchange] {
            get async throws { try await server.log().filter { $0.path == "/oauth2/token" } }
        }
    }

    @Test("Box's endpoints by default; client_id without a client secret is one clear config error; the loopback flow brings an access and a refresh token, which play")
    func loopbackFlow() async throws {
        let rig = try await Rig.start()
        let defaults = try #require(try LoaderConfiguration.parse("""
            [[source]]
            name = "x"
            type = "box"
            client_id = "abc"
            client_secret = "s"
            """, relativeTo: rig.folder).sources.source(named: "x") as? BoxSource)
        #expect(defaults.account.oauth?.authURL.absoluteString == "https://account.box.com/api/oauth2/authorize")
        #expect(defaults.account.oauth?.tokenURL.absoluteString == "https://api.box.com/oauth2/token")
        #expect(defaults.account.apiURL.absoluteString == "https://api.box.com/2.0" && defaults.path == "/" && defaults.folderID == nil)
        #expect(throws: (any Error).self) {
            _ = try LoaderConfiguration.parse("[[source]]\nname = \"x\"\ntype = \"box\"\nclient_id = \"abc\"\n", relativeTo: rig.folder)
        }

        let address = try await rig.checkLoopbackLogin()
        #expect(address.hasPrefix(rig.server.apiURL.absoluteString + "/api/oauth2/authorize?response_type=code&client_id=\(rig.server.clientID)"))
        #expect(try await rig.grants.map(\.body) == ["grant_type=authorization_code"], "the emulator checked the client secret and the code")
        let file = try await Fixtures.shared.url(.vbrMP3)
        try rig.server.publish(file, as: "Music/a.mp3")
        let loader = try rig.loader()
        #expect(try await loader.open(TrackLocation(source: "box", key: "Music/a.mp3")).readWhole() == (try Data(contentsOf: file)))
        await loader.shutdown()
    }

    @Test("refresh tokens are single-use: each refresh (ahead of expiry, and after a 401) stores the new one, the old one is refused by Box, and the tracks play to their ends")
    func refresh() async throws {
        let rig = try await Rig.start()
        let tokens = try await rig.checkRefresh { try await rig.loopbackLogin().record }
        #expect(tokens.refreshed.refreshToken != tokens.first.refreshToken && tokens.last?.refreshToken != tokens.refreshed.refreshToken)
        #expect(try await rig.server.validRefreshTokens() == [tokens.last?.refreshToken].compactMap { $0 }, "only the stored one is alive")
    }

    @Test("the new refresh token is stored before its access token is first used: when Box sees that first call, the store holds the one refresh token Box still takes")
    func storedBeforeUse() async throws {
        let rig = try await Rig.start()
        let login = try await rig.loopbackLogin().record
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        // Box ends the access token; the next call meets a 401, refreshes, and its first call
        // with the new access token is held by the emulator, never answered.
        try await rig.server.control(#"{"expire_access": true, "hold_new_access": true, "clear_log": true}"#)
        let loader = try rig.loader()
        let reading = Task { try await loader.open(TrackLocation(source: "box", key: "Music/a.mp3")).readWhole() }
        while try await !rig.server.log().contains(where: { $0.status == 0 }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let stored = try #require(try await rig.store.load("box"))
        #expect(stored.refreshToken != login.refreshToken)
        #expect(try await rig.server.validRefreshTokens() == [stored.refreshToken].compactMap { $0 }, "the stored refresh token is the one alive")
        try await rig.server.control(#"{"hold_new_access": false, "release": true}"#)
        _ = try? await reading.value
        await loader.shutdown()
    }

    @Test("a revoked refresh token marks the source \"needs login\" (its status, a clear error, the refused token not kept) while another source goes on; a new login clears it")
    func revoked() async throws {
        let rig = try await Rig.start()
        try await rig.checkRevoked { _ = try await rig.loopbackLogin() }
    }
}
