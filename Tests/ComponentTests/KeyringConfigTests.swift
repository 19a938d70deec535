import Config
import Foundation
import Keyring
import SourceTypes
import Testing

/// `*_keyring` secrets and `[auth] token_store` as the config file writes them (issue 27): read
/// into the keyring the program offers; every mistake one error naming the key.
@Suite struct KeyringConfigTests {
    private let directory = URL(fileURLWithPath: "/home/anna/.config/cloudplayerd")
    private let keyring = SecretService(address: "unix:path=/nonexistent")

    private func webDAV(_ line: String) -> String {
        "[[source]]\nname = \"dav\"\ntype = \"webdav\"\nurl = \"https://cloud.example.org/dav/\"\nusername = \"anna\"\n\(line)\n"
    }

    @Test("password_keyring = { service, account, any other attribute } is a keyring query naming its setting, in the keyring handed in; token_store picks the store of every cloud account")
    func keyringSecretsRead() throws {
        let configuration = try LoaderConfiguration.parse(webDAV(#"password_keyring = { service = "nextcloud", account = "anna", xdg:schema = "x" }"#)
                                                        .replacingOccurrences(of: "xdg:schema", with: "\"xdg:schema\""),
                                                    relativeTo: directory, keyring: keyring)
        let source = try #require(configuration.sources.all.first as? WebDAVSource)
        guard case .keyring(let query)? = source.server.password else {
            Issue.record("not a keyring secret: \(String(describing: source.server.password))")
            return
        }
        #expect(query.attributes == ["service": "nextcloud", "account": "anna", "xdg:schema": "x"])
        #expect(query.setting == "password_keyring of source 'dav'")
        #expect(query.keyring === keyring)

        let cloud = "[[source]]\nname = \"yd\"\ntype = \"yandex-disk\"\nclient_id = \"c\"\n"
        let account = try #require(try LoaderConfiguration.parse("[auth]\ntoken_store = \"keyring\"\n" + cloud, relativeTo: directory, keyring: keyring)
            .sources.all.first as? YandexDiskSource).account
        #expect(account.tokenStore.storage == .keyring && account.tokenStore.keyring === keyring)
        let byDefault = try #require(try LoaderConfiguration.parse(cloud, relativeTo: directory, keyring: keyring).sources.all.first as? YandexDiskSource).account
        #expect(byDefault.tokenStore.storage == .auto)
    }

    @Test("a keyring setting that is not a table of strings, an empty one, two ways of one secret, or another token_store: one error naming the key, no secret quoted", arguments: [
        (#"password_keyring = "nextcloud""#, "source 'dav'.password_keyring: expected a table"),
        (#"password_keyring = {}"#, "source 'dav'.password_keyring: name the keyring item"),
        (#"password_keyring = { service = 1 }"#, "source 'dav'.password_keyring.service: expected a string"),
        ("password = \"s3cret\"\npassword_keyring = { service = \"x\" }", "give only one of password, password_file, password_command, password_keyring"),
    ])
    func badKeyringSettings(line: String, message: String) {
        do {
            _ = try LoaderConfiguration.parse(webDAV(line), relativeTo: directory, keyring: keyring)
            Issue.record("accepted: \(line)")
        } catch {
            #expect("\(error)".contains(message) && !"\(error)".contains("s3cret"), "\(error)")
        }
    }

    @Test("[auth] token_store other than auto, keyring or file is refused")
    func badTokenStore() {
        do {
            _ = try LoaderConfiguration.parse("[auth]\ntoken_store = \"cloud\"\n", relativeTo: directory)
            Issue.record("accepted token_store = \"cloud\"")
        } catch {
            #expect("\(error)".contains(#"auth.token_store: expected "auto", "keyring" or "file", found "cloud""#), "\(error)")
        }
    }
}
