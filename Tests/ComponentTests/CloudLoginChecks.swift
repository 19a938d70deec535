import Base
import ComponentTestSupport
import Config
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// What every cloud source type's login must do, checked the same way for each (Yandex.Disk, OneDrive,
/// Dropbox, Google Drive) through the shared OAuth code: each suite calls these with its rig and its login.
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
        #expect(try await sources().first?.status?.hasPrefix("needs login") == true)
        #expect(try await store.load(name)?.refreshToken == nil, "the refused token is not kept")
        // A request sent with the old access token before the refusal meets its 401 after it: the
        // same reason, not "no refresh token" (issue 27: one message, the real one).
        let late = StoredTokens(source: name, store: store, client: try client())
        await #expect {
            _ = try await late.renewed(after: Secret("an access token the provider refused"))
        } throws: { error in
            "\(error)".contains("needs login: the provider refused the refresh token")
        }

        try await login()
        #expect(try await sources().first?.status == nil)
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
        let (result, url) = try await loopbackLogin()
        #expect(url.contains("code_challenge_method=S256") && url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"), "\(url)")
        #expect(result.accessToken != nil && result.refreshToken != nil)
        let grants = try await server.log().filter { $0.path.split(separator: "?").first.map(String.init) == tokenPath }
        #expect(grants.count == 1 && grants.first?.status == 200, "the emulator checked the verifier against the challenge: \(grants.map(\.status))")
        return url
    }

    /// Access tokens that expire: a login's token lasting 30 s — within the minute before expiry,
    /// however fast or slow the test runs — is refreshed ahead of expiry on first use (one request
    /// to the token endpoint); once every access token has ended, the next API call (for the next
    /// track) meets a 401 and is answered by one refresh, and both tracks play to their ends. The
    /// answer: the tokens, for the provider's own checks (a refresh token kept or rotated).
    func checkRefresh(login: () async throws -> TokenRecord) async throws -> CloudRefreshes {
        let tokenPath = try #require((try sources().first as? any CloudAccountSource)?.account.oauth?.tokenURL.path)
        func grants() async throws -> [CloudExchange] {
            try await server.log().filter { $0.path.split(separator: "?").first.map(String.init) == tokenPath }
        }
        try await server.control(#"{"access_ttl": 30}"#)
        let first = try await login()
        let name = try #require(try sources().first?.name)
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try server.publish(originFile, as: "Music/long.mp3")
        let location = TrackLocation(source: name, key: "Music/long.mp3")
        try await server.control(#"{"access_ttl": 3600, "clear_log": true}"#)
        let loader = try self.loader()
        let half = origin.count / 2
        #expect(try await loader.bytes(in: 0..<Int64(half), of: location) == Array(origin[0..<half]))
        #expect(try await grants().count == 1, "refreshed ahead of expiry")
        let refreshed = try #require(try await store.load(name))
        #expect(refreshed.accessToken != first.accessToken)

        // Every access token ends at once: the next API call (for the next track; a download URL
        // that is its own credential would not notice) meets a 401.
        let nextFile = try await Fixtures.shared.url(.secondMP3)
        try server.publish(nextFile, as: "Music/next.mp3")
        try await server.control(#"{"expire_access": true, "clear_log": true}"#)
        #expect(try await loader.open(TrackLocation(source: name, key: "Music/next.mp3")).readWhole() == (try Data(contentsOf: nextFile)))
        #expect(try await loader.open(location).readWhole() == origin)
        await loader.shutdown()
        let log = try await server.log()
        #expect(log.contains { $0.status == 401 }, "the old token was refused")
        #expect(try await grants().map(\.status) == [200], "one refresh after the 401")
        return CloudRefreshes(first: first, refreshed: refreshed, last: try await store.load(name))
    }

    /// Logs the first source in on a loopback redirect (`port`: a registered one, else any), the
    /// browser following the provider's redirect as soon as the address is shown; the tokens
    /// stored. The answer: the tokens, and the address the user was sent to.
    func loopbackLogin(port: Int = 0, proxy: ProxyRules = .direct) async throws -> (record: TokenRecord, address: String) {
        let client = try client(proxy: proxy)
        let shown = Locked<String?>(nil)
        async let record = LoopbackLogin(client: client, port: port).run { text in shown.withLock { $0 = text } }
        let address = try await Self.lastLine(of: shown)
        // Before the browser: a local process that connects and sends nothing, and requests that
        // are not the login's (issue 27) — each answered and ignored, the login still waiting.
        let redirect = URLComponents(string: address)?.queryItems?.first { $0.name == "redirect_uri" }?.value
        let silent = try await LoopbackProbe(port: try #require(redirect.flatMap { URLComponents(string: $0)?.port })).knock()
        defer { close(silent) }
        let page = try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", address])
        #expect(page.stdout.contains("login received"))
        let result = try await record
        try await store.save(result, for: client.source)
        await client.shutdown()
        return (result, address)
    }

    /// Logs the first source in by pasting: `paste` gets the address the login showed and
    /// answers what the user pastes (a code, or the address the browser ended at). The answer:
    /// the tokens (not stored), and the address.
    func pastedLogin(_ paste: (String) async throws -> String) async throws -> (record: TokenRecord, address: String) {
        let client = try client()
        let shown = Locked<String?>(nil)
        let pasted = Locked<String?>(nil)
        async let record = PastedCodeLogin(client: client).run(show: { text in shown.withLock { $0 = text } }) {
            while true {
                if let line = pasted.withLock({ $0 }) { return line + "\n" }
                try await Task.sleep(for: .milliseconds(25))
            }
        }
        let address = try await Self.lastLine(of: shown)
        do {
            let line = try await paste(address)
            pasted.withLock { $0 = line }
        } catch {
            pasted.withLock { $0 = "-" }
            _ = try? await record
            throw error
        }
        let result = try await record
        await client.shutdown()
        return (result, address)
    }

    /// The last line of what a login showed the user, once shown.
    static func lastLine(of shown: Locked<String?>) async throws -> String {
        try await lastWord(of: shown, separator: "\n")
    }

    /// The last word of what a login showed the user (the user code, or the address), once shown.
    static func lastWord(of shown: Locked<String?>, separator: Character = " ") async throws -> String {
        while true {
            if let word = shown.withLock({ $0 })?.split(separator: separator).last { return String(word) }
            try await Task.sleep(for: .milliseconds(25))
        }
    }
}

/// The tokens of `checkRefresh`: the login's, the first refresh's, and the last stored.
struct CloudRefreshes {
    var first: TokenRecord
    var refreshed: TokenRecord
    var last: TokenRecord?
}
