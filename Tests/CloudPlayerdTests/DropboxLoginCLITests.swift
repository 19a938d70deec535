import Foundation
import Testing
import TestSupport

/// `cloudplayerctl login` and a `dropbox` source as a user meets them, against the Dropbox
/// emulator: the loopback flow on the app's registered redirect port end to end, the daemon
/// scanning with the stored tokens, `cloudplayerd play` refreshing an expired token, a revoked
/// refresh token shown as "needs login" while the other source goes on, the paste-the-code flow
/// without a restart, and no token in anything printed, at trace level too.
@Suite(.timeLimit(.minutes(4)))
struct DropboxLoginCLITests {
    @Test("login on the registered loopback redirect, scan, play with a refresh, revoke → needs login (others go on), login again by pasting the code; no token printed")
    func loginScanPlayRevoke() async throws {
        let server = try await DropboxTestServer()
        let mp3 = try await Fixtures.shared.url(.vbrMP3)
        try server.publish(mp3, as: "Music/Ålbum/ä.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        let rig = try await CloudCLIRig(sourcesText: server.sourcesText)
        let api = server.apiURL.absoluteString
        /// The authorize address a login printed, once printed.
        func address(of login: ChildProcess) async throws -> String {
            while true {
                if let line = login.outputSoFar().split(separator: "\n").first(where: { $0.hasPrefix("\(api)/oauth2/authorize?") }) { return String(line) }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        func open(_ address: String) async throws -> String {
            try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", address]).stdout
        }

        let before = try await rig.ctl("sources")
        #expect(before.stdout.contains("not logged in"), "\(before.stdout)")

        // The loopback flow on the port the app registered (redirect_port): the browser is sent back with a code.
        let login = try rig.login("dbx")
        let first = try await address(of: login)
        #expect(first.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(server.redirectPort)%2F") && first.contains("token_access_type=offline"))
        #expect(try await open(first).contains("login received"))
        await rig.loggedIn(login)
        var tokens = try rig.tokens(of: "dbx")
        #expect(tokens.count == 2)

        let scan = try await rig.ctl("scan", "dbx", "plain")
        #expect(scan.status == 0 && scan.stdout.contains("dbx: 2 folders, 1 tracks") && scan.stdout.contains("plain: 1 folders, 1 tracks"),
                "\(scan.stdout) \(scan.stderr)")

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes.
        try await server.control(#"{"expire_access": true}"#)
        try await rig.play("cloudplayer://dbx/Music/%C3%85lbum/%C3%A4.mp3", as: mp3)
        tokens.formUnion(try rig.tokens(of: "dbx"))
        #expect(try await server.log().contains { $0.path == "/oauth2/token" && $0.body?.contains("grant_type=refresh_token") == true && $0.status == 200 })

        // The refresh token is revoked: "needs login" for dbx; plain goes on.
        try await server.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        try await rig.checkNeedsLogin("dbx", on: server)

        // Again, pasting the code the provider's page shows (no redirect): through a pipe on stdin.
        let pipe = rig.folder.appendingPathComponent("stdin")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let writer = Glibc.open(pipe.path, O_RDWR)
        #expect(writer >= 0)
        let paste = try rig.login("dbx", ["--paste"], input: .file(pipe))
        let second = try await address(of: paste)
        #expect(!second.contains("redirect_uri"))
        let page = try await open(second)
        let code = try #require(page.components(separatedBy: "<code id=\"auth-code\">").last?.components(separatedBy: "</code>").first)
        let line = Array((code + "\n").utf8)
        #expect(write(writer, line, line.count) == line.count)
        close(writer)
        await rig.loggedIn(paste)
        tokens.formUnion(try rig.tokens(of: "dbx"))
        let again = try await rig.ctl("scan", "dbx")
        #expect(again.status == 0 && again.stdout.contains("dbx: 2 folders, 1 tracks"), "\(again.stdout) \(again.stderr)")

        tokens.insert(server.token)
        #expect(tokens.count >= 5)
        try await rig.finish(tokens: tokens)
    }
}
