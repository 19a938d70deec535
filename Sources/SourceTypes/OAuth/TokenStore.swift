import Base
import Config
import FoundationEssentials
import Glibc
import Logging
import Model

/// Where logins keep their tokens: the desktop's keyring — one item per source (attributes
/// `application=cloudplayerd source=NAME`, the record's JSON its secret) — when `[auth]
/// token_store` says so or, by default, when a Secret Service answers; else
/// `$XDG_DATA_HOME/cloudplayerd/tokens/` (0700), one JSON file (0600) per source, named after the
/// source — never after a token. Either way a record is replaced whole in one step (an atomic
/// rename; one `CreateItem` that replaces the item), so a rotated refresh token is never half
/// written. Tokens found in a file while the keyring is used are moved into it once, and the
/// file removed. Both the daemon and `cloudplayerctl login` read and write it. File reads and
/// writes run on the `BlockingPool` (they sync the disk), never on the cooperative pool.
package struct TokenStore: Sendable, Equatable {
    package let directory: URL
    package let storage: TokenStorage
    package let keyring: (any SecretKeyring)?

    package init(directory: URL, storage: TokenStorage = .file, keyring: (any SecretKeyring)? = nil) {
        self.directory = directory
        self.storage = storage
        self.keyring = keyring
    }

    /// The files' standard place, and the keyring as `[auth] token_store` says.
    package init(storage: TokenStorage, keyring: (any SecretKeyring)?) {
        self.init(directory: XDGDirectories.data.appendingPathComponent("tokens"), storage: storage, keyring: keyring)
    }

    /// Files in their standard place.
    package static var standard: TokenStore { TokenStore(storage: .file, keyring: nil) }

    /// The file of `source`: its name with anything but letters, digits, `-` and `_` escaped.
    package func file(of source: String) -> URL {
        let name = PercentEncoding.encoded(source, keeping: PercentEncoding.alphanumerics.union(PercentEncoding.Bytes("-_")))
        return directory.appendingPathComponent(name + ".json")
    }

    /// The record of `source`; nil when it never logged in. A damaged record is an error.
    package func load(_ source: String) async throws -> TokenRecord? {
        guard let keyring = try await chosenKeyring() else { return try await BlockingPool.shared.run { try readFile(source) } }
        if let secret = try await keyring.lookup(Self.attributes(source), for: Self.setting(source)) {
            return try Self.decode(Data(secret.reveal().utf8), source)
        }
        return try await moveIntoKeyring(source, keyring)
    }

    package func save(_ record: TokenRecord, for source: String) async throws {
        guard let keyring = try await chosenKeyring() else { return try await BlockingPool.shared.run { try writeFile(record, for: source) } }
        try await keyring.store(Secret(String(decoding: try Self.encode(record), as: UTF8.self)), attributes: Self.attributes(source),
                                label: "cloudplayerd: the login of source '\(source)'", for: Self.setting(source))
    }

    /// Where the tokens of `source` are kept, for a person: the keyring item or the file.
    package func place(of source: String) async throws -> String {
        if try await chosenKeyring() != nil {
            return "the keyring (\(Self.attributes(source).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))"
        }
        return file(of: source).path
    }

    package static func == (lhs: TokenStore, rhs: TokenStore) -> Bool {
        lhs.directory == rhs.directory && lhs.storage == rhs.storage && lhs.keyring === rhs.keyring
    }

    // MARK: Files

    func readFile(_ source: String) throws -> TokenRecord? {
        guard let data = FileManager.default.contents(atPath: file(of: source).path) else { return nil }
        return try Self.decode(data, source)
    }

    private func writeFile(_ record: TokenRecord, for source: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
        try AtomicFile.write(try Self.encode(record), to: file(of: source), mode: 0o600)
    }

    static func decode(_ data: Data, _ source: String) throws -> TokenRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(TokenRecord.self, from: data)
        } catch {
            throw LoaderError.configuration("the stored login of '\(source)' is damaged; run `cloudplayerctl login \(source)`")
        }
    }

    static func encode(_ record: TokenRecord) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(record)
    }
}
