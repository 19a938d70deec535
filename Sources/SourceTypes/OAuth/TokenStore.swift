import Base
import FoundationEssentials
import Glibc
import Model

/// Where logins keep their tokens: `$XDG_DATA_HOME/cloudplayerd/tokens/` (0700), one JSON file
/// (0600) per source, named after the source — never after a token — and replaced atomically, so
/// a rotated refresh token is never half written. Both the daemon and `cloudplayerctl login`
/// read and write it; the shipped systemd unit may write there. Reads and writes run on the
/// `BlockingPool` (they sync the disk), never on the cooperative pool.
package struct TokenStore: Sendable, Equatable {
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    package static var standard: TokenStore {
        TokenStore(directory: XDGDirectories.data.appendingPathComponent("tokens"))
    }

    /// The file of `source`: its name with anything but letters, digits, `-` and `_` escaped.
    package func file(of source: String) -> URL {
        let name = PercentEncoding.encoded(source, keeping: PercentEncoding.alphanumerics.union(PercentEncoding.Bytes("-_")))
        return directory.appendingPathComponent(name + ".json")
    }

    /// The record of `source`; nil when it never logged in. A damaged file is an error.
    package func load(_ source: String) async throws -> TokenRecord? {
        try await BlockingPool.shared.run { try read(source) }
    }

    package func save(_ record: TokenRecord, for source: String) async throws {
        try await BlockingPool.shared.run { try write(record, for: source) }
    }

    private func read(_ source: String) throws -> TokenRecord? {
        guard let data = FileManager.default.contents(atPath: file(of: source).path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(TokenRecord.self, from: data)
        } catch {
            throw LoaderError.configuration("the stored login of '\(source)' is damaged; run `cloudplayerctl login \(source)`")
        }
    }

    private func write(_ record: TokenRecord, for source: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        try AtomicFile.write(try encoder.encode(record), to: file(of: source), mode: 0o600)
    }
}
