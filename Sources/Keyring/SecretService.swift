import Base
import Config
import DBus

/// The desktop's keyring over the freedesktop Secret Service D-Bus API, spoken directly on our
/// own sd-bus layer (no libsecret, no GLib): `lookup` finds what `secret-tool lookup ATTR VALUE…`
/// finds, `store` does what `secret-tool store` does. It connects on first use, on a connection
/// of its own — a prompt's wait never holds the daemon's MPRIS and Manager1 bus — and keeps one
/// session for its life.
///
/// The session uses the spec's `plain` algorithm, not `dh-ietf1024-sha256_aes128-cbc-pkcs7`: the
/// secret travels over the session bus's Unix socket, between processes of the same user, where
/// only that user's processes (which could read our memory as well) or root can see it. DH would
/// only hide it from a bus monitor of the same user; the spec allows plain for that reason, and
/// `secret-tool` itself uses plain when it links no crypto.
package final class SecretService: SecretKeyring {
    /// The session bus's keyring, for the whole process: one connection, one unlock at a time.
    package static let session = SecretService()

    private let address: String?
    private let opened = Resolved<Opened>()
    private let availability = Resolved<Bool>()
    let unlocking = KeyringUnlock()

    /// A connection to the service and the session open on it.
    struct Opened: Sendable {
        let client: BusClient
        let session: String
    }

    /// `address`: another bus than the session bus of `DBUS_SESSION_BUS_ADDRESS`.
    package init(address: String? = nil) {
        self.address = address
    }

    package func isAvailable() async -> Bool {
        (try? await availability.value { [self] in
            guard let opened = try? await open() else { return false }
            let alias = try? await call(opened, SecretServiceAPI.path, SecretServiceAPI.service, "ReadAlias", [.string("default")])
            return alias?.first?.text.map { $0 != SecretServiceAPI.none } ?? false
        }) ?? false
    }

    package func lookup(_ attributes: [String: String], for setting: String) async throws -> Secret? {
        let opened = try await open()
        for attempt in 0..<2 {
            let found = try await call(opened, SecretServiceAPI.path, SecretServiceAPI.service, "SearchItems",
                                       [SecretServiceAPI.attributes(attributes)], setting: setting)
            if let item = SecretServiceAPI.paths(found.first).first {
                unlocking.sawUnlocked()
                return try await secret(of: item, opened, setting: setting)
            }
            let locked = SecretServiceAPI.paths(found.count > 1 ? found[1] : nil)
            guard !locked.isEmpty else { return nil }
            guard attempt == 0 else { break }
            try await unlocking.unlock(locked, for: setting, on: opened.client)
        }
        throw KeyringError.locked(setting: setting)
    }

    package func store(_ secret: Secret, attributes: [String: String], label: String, for setting: String) async throws {
        let opened = try await open()
        let alias = try await call(opened, SecretServiceAPI.path, SecretServiceAPI.service, "ReadAlias", [.string("default")], setting: setting)
        guard let collection = alias.first?.text, collection != SecretServiceAPI.none else {
            throw KeyringError.noDefaultCollection(setting: setting)
        }
        let properties = BusValue.record([(SecretServiceAPI.itemLabel, .string(label)),
                                          (SecretServiceAPI.itemAttributes, SecretServiceAPI.attributes(attributes))])
        let arguments = [properties, SecretServiceAPI.secret(Array(secret.reveal().utf8), session: opened.session), .bool(true)]
        for attempt in 0..<2 {
            do {
                let created = try await opened.client.call(destination: SecretServiceAPI.busName, path: collection,
                                                           interface: SecretServiceAPI.collection, member: "CreateItem", arguments: arguments)
                if let prompt = created.count > 1 ? created[1].text : nil, prompt != SecretServiceAPI.none {
                    try await unlocking.complete(prompt, for: setting, on: opened.client)
                }
                return
            } catch let error as BusCallError where error.name == SecretServiceAPI.isLocked && attempt == 0 {
                try await unlocking.unlock([collection], for: setting, on: opened.client)
            } catch let error as BusCallError {
                throw refusal(error, setting: setting)
            }
        }
        throw KeyringError.locked(setting: setting)
    }

    /// Closes the connection (the daemon's stop).
    package func close() async {
        unlocking.stop()
        if let opened = try? await opened.value({ throw CancellationError() }) { await opened.client.close() }
    }

    // MARK: Calls

    private func secret(of item: String, _ opened: Opened, setting: String) async throws -> Secret {
        let answer = try await call(opened, SecretServiceAPI.path, SecretServiceAPI.service, "GetSecrets",
                                    [.array(element: "o", [.objectPath(item)]), .objectPath(opened.session)], setting: setting)
        guard case .dictionary(_, _, let entries)? = answer.first, let value = entries.first?.1,
              let bytes = SecretServiceAPI.bytes(of: value) else {
            throw KeyringError.locked(setting: setting)  // locked between the search and the read
        }
        return Secret(String(decoding: bytes, as: UTF8.self))
    }

    /// Connects and opens a `plain` session, once; a connection that failed is tried again next time.
    private func open() async throws -> Opened {
        try await opened.value { [address] in
            let client: BusClient
            do {
                client = try await BlockingPool.shared.run { try BusClient(address: address) }
            } catch {
                throw KeyringError.unavailable("\(error)")
            }
            do {
                let answer = try await client.call(destination: SecretServiceAPI.busName, path: SecretServiceAPI.path,
                                                   interface: SecretServiceAPI.service, member: "OpenSession",
                                                   arguments: [.string("plain"), .variant(.string(""))], timeoutSeconds: 10)
                guard answer.count == 2, let session = answer[1].text else { throw KeyringError.unavailable("OpenSession answered no session") }
                return Opened(client: client, session: session)
            } catch let error as BusCallError {
                await client.close()
                throw KeyringError.unavailable(error.message)
            }
        }
    }

    private func call(_ opened: Opened, _ path: String, _ interface: String, _ member: String, _ arguments: [BusValue],
                      setting: String = "the keyring") async throws -> [BusValue] {
        do {
            return try await opened.client.call(destination: SecretServiceAPI.busName, path: path, interface: interface, member: member,
                                                arguments: arguments, timeoutSeconds: 25)
        } catch let error as BusCallError {
            throw refusal(error, setting: setting)
        } catch {
            self.opened.forget { _ in true }  // the connection ended: the next use connects again
            throw KeyringError.unavailable("\(error)")
        }
    }

    /// A refused call; the service gone (restarted, say) also drops the session, to open anew.
    private func refusal(_ error: BusCallError, setting: String) -> KeyringError {
        let gone = ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                    "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.Secret.Error.NoSession"]
        if gone.contains(error.name) { opened.forget { _ in true } }
        if error.name == SecretServiceAPI.isLocked { return .locked(setting: setting) }
        return .refused(setting: setting, error.message)
    }
}
