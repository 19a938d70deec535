import Base
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// What every cloud source type's login must do, checked the same way for each (Yandex.Disk, OneDrive,
/// Dropbox) through the shared OAuth code: each suite calls these with its rig and its login.
extension CloudTestRig {
    /// A revoked refresh token marks the first source "needs login" (its status, a clear error,
    /// the refused token not kept) while "plain" goes on; `login` again works without a restart.
    func checkRevoked(login: () async throws -> Void) async throws {
        try await login()
        let name = try #require(try sources().first?.name)
        try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Other/b.mp3")
        try await server.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        let loader = try loader()
        let library = try await library()
        let reports = await library.scan([name, "plain"], loader: loader)
        let first = try #require(reports.first { $0.source == name }), plain = try #require(reports.first { $0.source == "plain" })
        #expect(first.failed && first.problems.joined().contains("needs login"), "\(first)")
        #expect(!plain.failed && plain.tracks == 1, "\(plain)")
        let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(source: name, key: "Music/a.mp3")) }
        #expect("\(String(describing: error))".contains("\(name): needs login") && "\(String(describing: error))".contains("cloudplayerctl login \(name)"))
        #expect(try sources().first?.status?.hasPrefix("needs login") == true)
        #expect(try store.loadNow(name)?.refreshToken == nil, "the refused token is not kept")

        try await login()
        #expect(try sources().first?.status == nil)
        let again = try #require(await library.scan([name], loader: loader).first)
        #expect(!again.failed && again.tracks == 1, "\(again)")
        await loader.shutdown()
    }

    /// The loopback flow with PKCE: the authorize address carries an S256 challenge and a
    /// 127.0.0.1 redirect; the browser, sent there with a code, is told the login was received;
    /// the code is redeemed once (the emulator checks the verifier against the challenge) for an
    /// access and a refresh token. Returns the address the login showed.
    @discardableResult
    func checkLoopbackLogin() async throws -> String {
        let tokenPath = try #require((try sources().first as? any CloudAccountSource)?.account.oauth?.tokenURL.path)
        let client = try client()
        let shown = Locked<String?>(nil)
        async let record = LoopbackLogin(client: client).run { text in shown.withLock { $0 = text } }
        let url = try await Self.lastWord(of: shown, separator: "\n")
        #expect(url.contains("code_challenge_method=S256") && url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"), "\(url)")
        // The browser: follows the provider's redirect to the loopback listener.
        let page = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", url])
        #expect(page.stdout.contains("login received"))
        let result = try await record
        #expect(result.accessToken != nil && result.refreshToken != nil)
        let grants = try await server.log().filter { $0.path.split(separator: "?").first.map(String.init) == tokenPath }
        #expect(grants.count == 1 && grants.first?.status == 200, "the emulator checked the verifier against the challenge: \(grants.map(\.status))")
        await client.shutdown()
        return url
    }

    /// The last word of what a login showed the user (the user code, or the address), once shown.
    static func lastWord(of shown: Locked<String?>, separator: Character = " ") async throws -> String {
        while true {
            if let word = shown.withLock({ $0 })?.split(separator: separator).last { return String(word) }
            try await Task.sleep(for: .milliseconds(25))
        }
    }
}
