/// The desktop's keyring (the freedesktop Secret Service) as the config's secrets and the token
/// store use it. Named here, built by the `Keyring` target over D-Bus and handed in by whoever
/// reads the config (the daemon, `cloudplayerctl`): Config itself depends on no bus.
package protocol SecretKeyring: AnyObject, Sendable {
    /// Whether a Secret Service answers on the session bus with a default collection to keep
    /// secrets in (`[auth] token_store = "auto"` chooses by it).
    func isAvailable() async -> Bool

    /// The secret of an item with all of `attributes` (as `secret-tool lookup` finds it); nil when
    /// no item has them. A locked keyring is asked once to unlock and is an error meanwhile;
    /// `setting` names what wants it, for that error and the journal.
    func lookup(_ attributes: [String: String], for setting: String) async throws -> Secret?

    /// Stores `secret` in the default collection under `attributes`, replacing the item that has
    /// exactly them (as `secret-tool store` does): one call, so a reader sees the old secret or
    /// the new one.
    func store(_ secret: Secret, attributes: [String: String], label: String, for setting: String) async throws
}

/// A `*_keyring = { service = "…", account = "…" }` secret: the attributes of its item and the
/// keyring to look in (none: the program reading the config has no keyring to offer).
package struct KeyringQuery: Sendable, Equatable {
    package var attributes: [String: String]
    /// How messages name it: "password_keyring of source 'dav'".
    package var setting: String
    package var keyring: (any SecretKeyring)?

    package init(attributes: [String: String], setting: String, keyring: (any SecretKeyring)?) {
        self.attributes = attributes
        self.setting = setting
        self.keyring = keyring
    }

    /// The item's secret; no item with the attributes is an error naming the setting and them.
    package func resolve() async throws -> Secret {
        guard let keyring else { throw ConfigError(line: nil, "\(setting): this program has no keyring to look in") }
        guard let secret = try await keyring.lookup(attributes, for: setting) else {
            throw ConfigError(line: nil, "\(setting): the keyring has no item with \(shownAttributes); \(howToStore)")
        }
        return secret
    }

    /// The command that makes the missing item: `cloudplayerctl secret set` for the usual
    /// service and account, else `secret-tool store`.
    private var howToStore: String {
        // A word the shell would split or read otherwise goes in single quotes.
        func word(_ text: String) -> String {
            text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._@-".unicodeScalars.contains($0) }
                && !text.isEmpty ? text : "'" + text.replacing("'", with: "'\\''") + "'"
        }
        if Set(attributes.keys) == ["service", "account"], let service = attributes["service"], let account = attributes["account"] {
            return "store it with: cloudplayerctl secret set \(word(service)) \(word(account))"
        }
        let pairs = attributes.sorted { $0.key < $1.key }.map { "\(word($0.key)) \(word($0.value))" }.joined(separator: " ")
        return "store it with: secret-tool store --label=cloudplayerd \(pairs)"
    }

    /// The attributes as `secret-tool` takes them: `service nextcloud account anna`.
    package var shownAttributes: String {
        attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    package static func == (lhs: KeyringQuery, rhs: KeyringQuery) -> Bool {
        lhs.attributes == rhs.attributes && lhs.setting == rhs.setting && lhs.keyring === rhs.keyring
    }
}
