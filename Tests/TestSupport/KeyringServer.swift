import Foundation

/// A real GNOME Keyring (`gnome-keyring-daemon --components=secrets`), the freedesktop Secret
/// Service, on a private session bus of its own with its own HOME and XDG folders: its login
/// keyring made and unlocked with `password` at start. No prompter can be started on that bus
/// (it has no service folder), so a prompt completes at once as dismissed, as on a headless
/// box. Checked with the real `secret-tool`; locked with the API's `Lock`, unlocked with GNOME
/// Keyring's own headless way (`UnlockWithMasterPassword`). The daemon and the bus stop with
/// `stop()` or the test process.
public final class KeyringServer: Sendable {
    public let bus: DBusTestBus
    public let password = "keyring-pw-\(UInt32.random(in: 1...UInt32.max))"
    /// The daemon's HOME (its keyrings are under `data/keyrings`).
    public let home: URL
    private let daemon: ServerProcess
    public static let login = "/org/freedesktop/secrets/collection/login"

    public init() async throws {
        bus = try await DBusTestBus()
        home = try Fixtures.shared.scratchDirectory()
        let runtime = home.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let secret = home.appendingPathComponent("login-password")
        try Data(password.utf8).write(to: secret)
        daemon = try ServerProcess("gnome-keyring", command: #"gnome-keyring-daemon --foreground --unlock --components=secrets <"$1""#,
                                   arguments: [secret.path],
                                   environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path,
                                                 "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                                                 "XDG_RUNTIME_DIR": runtime.path])
        for _ in 0..<1200 {
            if let alias = try? await call("ReadAlias", "s", "default"), alias.stdout.contains(Self.login) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError("gnome-keyring-daemon did not come up on the test bus")
    }

    /// The environment a client of this keyring needs (the bus's: a daemon's data folder too).
    public var environment: [String: String] { bus.environment }

    /// `secret-tool store --label=LABEL ATTR VALUE…`, the secret on its standard input.
    public func store(_ secret: String, label: String = "test", _ attributes: [String: String]) async throws {
        let input = try Fixtures.shared.scratchDirectory().appendingPathComponent("secret")
        try Data(secret.utf8).write(to: input)
        try await ChildProcess.check("secret-tool", ["store", "--label=\(label)"] + Self.flat(attributes), environment: environment,
                                     input: .file(input))
    }

    /// `secret-tool lookup ATTR VALUE…`: the secret, or nil when no item has them.
    public func lookup(_ attributes: [String: String]) async throws -> String? {
        let result = try await ChildProcess.run("secret-tool", ["lookup"] + Self.flat(attributes), environment: environment)
        guard result.status == 0 else { return nil }
        return result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
    }

    /// How many items have `attributes`, locked ones too (`secret-tool search --all`).
    public func count(_ attributes: [String: String]) async throws -> Int {
        let result = try await ChildProcess.run("secret-tool", ["search", "--all"] + Self.flat(attributes), environment: environment)
        return result.stdout.split(separator: "\n").filter { $0.hasPrefix("[/") }.count
    }

    /// Locks the login keyring (the Secret Service's `Lock`).
    public func lock() async throws {
        let result = try await call("Lock", "ao", "1", Self.login)
        guard result.status == 0 else { throw TestSupportError("Lock failed: \(result.stderr)") }
    }

    /// Unlocks the login keyring with its password, without a prompt: GNOME Keyring's
    /// `UnlockWithMasterPassword`, which takes the password in a session of the calling
    /// connection — so one client (python3-dbus) opens the session and unlocks.
    public func unlock() async throws {
        let script = """
            import dbus, sys
            bus = dbus.SessionBus()
            service = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets')
            _, session = service.OpenSession('plain', dbus.String('', variant_level=1), dbus_interface='org.freedesktop.Secret.Service')
            secret = dbus.Struct((session, dbus.ByteArray(b''), dbus.ByteArray(sys.argv[2].encode()), 'text/plain'))
            service.UnlockWithMasterPassword(dbus.ObjectPath(sys.argv[1]), secret,
                                             dbus_interface='org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface')
            """
        try await ChildProcess.check("/usr/bin/python3", ["-c", script, Self.login, password], environment: environment)
    }

    /// Whether the login keyring is locked (its `Locked` property).
    public func isLocked() async throws -> Bool {
        let result = try await ChildProcess.check("busctl", ["--address=\(bus.address)", "get-property", "org.freedesktop.secrets", Self.login,
                                                             "org.freedesktop.Secret.Collection", "Locked"], environment: environment)
        return result.stdout.contains("true")
    }

    /// A method of the Secret Service, through `busctl`.
    private func call(_ method: String, _ arguments: String...) async throws -> ProcessResult {
        try await ChildProcess.run("busctl", ["--address=\(bus.address)", "call", "org.freedesktop.secrets", "/org/freedesktop/secrets",
                                              "org.freedesktop.Secret.Service", method] + arguments, environment: environment)
    }

    private static func flat(_ attributes: [String: String]) -> [String] {
        attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
    }

    public func stop() async {
        await daemon.stop()
        await bus.stop()
    }
}
