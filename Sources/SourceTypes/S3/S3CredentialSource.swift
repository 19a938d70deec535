import Base
import Config
import FoundationEssentials
import Loader
import Model

/// Where an S3 source's keys come from, as the config file says — and, when it says nothing,
/// as the AWS tools look for them: `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` /
/// `AWS_SESSION_TOKEN`, else the profile `AWS_PROFILE` (or `default`) of the shared credentials
/// file (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`). Read when first used;
/// errors name the file and the profile, never a key.
package enum S3CredentialSource: Sendable, Equatable {
    /// `access_key_id` with `secret_access_key(_file|_command)` and maybe `session_token…`.
    case configured(accessKeyID: String, secret: Secret.Origin, sessionToken: Secret.Origin?)
    /// `profile = "name"`: that profile of the shared credentials file.
    case profile(String)
    /// Nothing configured: the environment, then the default profile.
    case environment

    /// The keys, read now; files and commands on the `BlockingPool`.
    package func resolve(source: String, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> S3Signer.Credentials {
        switch self {
        case .configured(let id, let secret, let token):
            do {
                return S3Signer.Credentials(accessKeyID: id, secretAccessKey: try await secret.resolve(), sessionToken: try await token?.resolve())
            } catch let error as ConfigError {
                throw LoaderError.configuration("source '\(source)': \(error.problem)")
            }
        case .profile(let name):
            return try await BlockingPool.shared.run { try Self.profile(name, source: source, environment: environment) }
        case .environment:
            if let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty {
                guard let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
                    throw LoaderError.configuration("source '\(source)': AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
                }
                return S3Signer.Credentials(accessKeyID: id, secretAccessKey: Secret(secret),
                                            sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : Secret($0) })
            }
            return try await BlockingPool.shared.run {
                try Self.profile(environment["AWS_PROFILE"] ?? "default", source: source, environment: environment)
            }
        }
    }

    /// A profile of the shared credentials file (an INI file: `[name]`, then `key = value` lines).
    private static func profile(_ name: String, source: String, environment: [String: String]) throws -> S3Signer.Credentials {
        let home = environment["HOME"] ?? XDGDirectories.home
        let path = environment["AWS_SHARED_CREDENTIALS_FILE"].map { $0 == "~" || $0.hasPrefix("~/") ? home + $0.dropFirst() : $0 }
            ?? home + "/.aws/credentials"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoaderError.configuration("source '\(source)': no S3 keys configured, and cannot read the AWS credentials file \(path)")
        }
        var values: [String: String] = [:]
        var inProfile = false
        for raw in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let line = raw.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                inProfile = line.dropFirst().dropLast().trimmingBlanks() == name
                continue
            }
            guard inProfile, let equals = line.firstIndex(of: "=") else { continue }
            values[line[..<equals].trimmingBlanks().lowercased()] =
                line[line.index(after: equals)...].trimmingBlanks()
        }
        guard let id = values["aws_access_key_id"], !id.isEmpty, let secret = values["aws_secret_access_key"], !secret.isEmpty else {
            throw LoaderError.configuration("source '\(source)': the profile '\(name)' in \(path) has no aws_access_key_id and aws_secret_access_key")
        }
        let token = values["aws_session_token"] ?? values["aws_security_token"]
        return S3Signer.Credentials(accessKeyID: id, secretAccessKey: Secret(secret), sessionToken: token.flatMap { $0.isEmpty ? nil : Secret($0) })
    }
}
