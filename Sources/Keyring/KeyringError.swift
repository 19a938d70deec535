/// Why the keyring gave no secret, in one line naming the setting that wanted it — never a secret.
package enum KeyringError: Error, CustomStringConvertible, Equatable {
    /// The item (or the collection to store in) is locked; an unlock was asked for once.
    case locked(setting: String)
    /// No Secret Service answers on the session bus.
    case unavailable(String)
    /// The service refused a call (its D-Bus error's words).
    case refused(setting: String, String)
    /// No default collection to store in.
    case noDefaultCollection(setting: String)

    package var description: String {
        switch self {
        case .locked(let setting):
            "\(setting): the keyring is locked; unlock it (an unlock was asked for) and try again"
        case .unavailable(let reason):
            "no Secret Service (GNOME Keyring, KWallet, KeePassXC) answers on the session bus: \(reason)"
        case .refused(let setting, let words):
            "\(setting): the keyring refused: \(words)"
        case .noDefaultCollection(let setting):
            "\(setting): the keyring has no default collection to store in (create one, e.g. in Passwords and Keys)"
        }
    }
}
