import ArgumentParser
import Base
import Config
import FoundationEssentials
import Keyring
import SourceTypes

/// `cloudplayerctl login NAME`: runs the OAuth flow the source's provider offers — the device
/// flow where there is one (print an address and a code, wait), else the browser flow on a
/// loopback redirect — and stores the tokens where the daemon reads them.
///
/// It runs here, not in the daemon: it reads the same config file and writes the token file the
/// daemon reads again while a source needs a login, so no D-Bus method has to wait minutes for a
/// person, what to do is printed straight to the person's terminal, and a login works whether
/// the daemon runs or not.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log a source in with its provider (OAuth) and store its tokens.",
        discussion: """
            Prints where to go and what to enter, waits for the approval, and stores the tokens where \
            [auth] token_store says: the desktop's keyring when one answers on the session bus, else \
            $XDG_DATA_HOME/cloudplayerd/tokens. How to create the app each provider needs, and the \
            source's keys: /usr/share/doc/cloudplayerd/docs/sources/TYPE.md.
            """
    )

    @Argument(help: "The source's name in the config file.")
    var source: String

    @Option(help: ArgumentHelp("The config file (default: $CLOUDPLAYERD_CONFIG, else $XDG_CONFIG_HOME/cloudplayerd/config.toml).",
                               valueName: "path"))
    var config: String?

    @Flag(help: "Log in in a browser (a redirect to 127.0.0.1) even where the provider has a device flow.")
    var browser = false

    @Flag(help: "Log in in a browser without a listener here: paste the code the provider's page shows (Dropbox apps without a redirect URI), or the 127.0.0.1 address the browser ends at (Google).")
    var paste = false

    @Option(help: ArgumentHelp("The loopback port of the browser flow (default: the source's redirect_port, else any free one).", valueName: "port"))
    var port: Int?

    func run() async throws {
        ProcessGuard.holdingSecrets()
        let file: ConfigFile
        let account: CloudAccount
        let settings: OAuthSettings
        do {
            file = try ConfigFile.load(explicit: config, keyring: SecretService.session)
            let store = TokenStore(storage: file.tokenStorage, keyring: file.keyring)
            guard let named = try SourceTypes.configure(file.sources.filter { $0.section.name == source }, tokenStore: store).first else {
                fail("there is no source '\(source)' in the config file", code: 1)
            }
            guard let found = (named as? any CloudAccountSource)?.account, let oauth = found.oauth else {
                fail("source '\(source)' does not log in (it takes no OAuth login, or the config file gives it a token)", code: 1)
            }
            (account, settings) = (found, oauth)
        } catch {
            fail("\(error)", code: 1)
        }
        let client = try OAuthClient(source: source, settings: settings, readTimeout: file.readTimeout,
                                     proxy: file.proxyRules(source: source))
        let show: @Sendable (String) -> Void = { say($0) }
        let record: TokenRecord
        do {
            if paste {
                record = try await PastedCodeLogin(client: client, port: port ?? settings.redirectPort ?? 0).run(show: show) { try await BlockingPool.shared.run { readLine() } }
            } else if settings.deviceURL != nil && !browser {
                record = try await DeviceLogin(client: client).run(show: show)
            } else {
                record = try await LoopbackLogin(client: client, port: port ?? settings.redirectPort ?? 0).run(show: show)
            }
            try await account.tokenStore.save(record, for: source)
        } catch {
            await client.shutdown()
            fail("\(error)", code: 1)
        }
        await client.shutdown()
        let place = (try? await account.tokenStore.place(of: source)) ?? account.tokenStore.directory.path
        say("Logged in: the tokens of '\(source)' are stored in \(place)")
    }
}
