import Base
import Config
import FoundationEssentials
import Glibc
import Logging
import Model

/// The keyring side of the token store: which store `[auth] token_store` picks, the item of a
/// source, and the one move of a token file into the keyring.
extension TokenStore {
    /// The keyring to use, or nil for files: `file` never, `keyring` always (none answering is an
    /// error), `auto` when one answers.
    func chosenKeyring() async throws -> (any SecretKeyring)? {
        switch storage {
        case .file:
            return nil
        case .auto:
            guard let keyring, await keyring.isAvailable() else { return nil }
            return keyring
        case .keyring:
            guard let keyring, await keyring.isAvailable() else {
                throw LoaderError.configuration(
                    "[auth] token_store = \"keyring\", but no Secret Service (GNOME Keyring, KWallet, KeePassXC) answers on the session bus")
            }
            return keyring
        }
    }

    /// The attributes of the item that holds a source's tokens.
    static func attributes(_ source: String) -> [String: String] {
        ["application": "cloudplayerd", "source": source]
    }

    /// How messages name that item.
    static func setting(_ source: String) -> String {
        "the login of source '\(source)'"
    }

    /// A token file left from before the keyring was used: stored in the keyring, then removed —
    /// once (the file is gone after), and said in the journal.
    func moveIntoKeyring(_ source: String, _ keyring: any SecretKeyring) async throws -> TokenRecord? {
        guard let record = try await BlockingPool.shared.run({ try readFile(source) }) else { return nil }
        try await keyring.store(Secret(String(decoding: try Self.encode(record), as: UTF8.self)), attributes: Self.attributes(source),
                                label: "cloudplayerd: the login of source '\(source)'", for: Self.setting(source))
        let path = file(of: source).path
        let removed = try await BlockingPool.shared.run { unlink(path) == 0 || errno == ENOENT }
        Logger(label: "cloudplayerd.oauth").notice("the tokens of source '\(source)' moved from \(path) into the keyring",
                                                   metadata: ["source": "\(source)"])
        if !removed { throw LoaderError.configuration("the tokens of source '\(source)' are in the keyring now, but \(path) could not be removed") }
        return record
    }
}
