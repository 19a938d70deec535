import Base
import DBus
import Logging

/// Asking a locked keyring to unlock, once: the first secret that finds its item locked calls
/// `Unlock`; when the service answers with a prompt (its unlock dialog), `Prompt("")` is called
/// once and its `Completed` signal awaited in a task of its own — no thread waits, the bus goes
/// on serving, and every secret asked for meanwhile is a "locked" error at once (the journal
/// says it once), so the sources that need the keyring wait and the others go on. A prompt the
/// user dismissed is not shown again until the keyring has been seen unlocked.
final class KeyringUnlock: Sendable {
    private enum Phase: Equatable {
        /// Nothing asked: a locked item asks for an unlock.
        case idle
        /// A prompt is shown; its `Completed` is awaited.
        case prompting
        /// The prompt was dismissed: no new one until an unlocked item is seen.
        case dismissed
    }

    private let phase = Locked(Phase.idle)
    private let waiting = Locked<BusSignalWatch?>(nil)
    private let logger = Logger(label: "cloudplayerd.keyring")

    /// Asks the service to unlock `objects` for `setting`. Returns when they were unlocked without
    /// a prompt; throws `locked` when a prompt is (or was) shown instead.
    func unlock(_ objects: [String], for setting: String, on client: BusClient) async throws {
        let starts = phase.withLock { phase -> Bool in
            guard phase == .idle else { return false }
            phase = .prompting
            return true
        }
        guard starts else { throw KeyringError.locked(setting: setting) }
        let prompt: String
        do {
            let answer = try await client.call(destination: SecretServiceAPI.busName, path: SecretServiceAPI.path,
                                               interface: SecretServiceAPI.service, member: "Unlock",
                                               arguments: [.array(element: "o", objects.map(BusValue.objectPath))], timeoutSeconds: 25)
            prompt = answer.count > 1 ? answer[1].text ?? SecretServiceAPI.none : SecretServiceAPI.none
            if prompt == SecretServiceAPI.none {
                phase.withLock { $0 = .idle }
                return
            }
            // Watching before the prompt starts: its Completed cannot come first.
            let watch = try await client.watch(path: prompt, interface: SecretServiceAPI.prompt, member: "Completed")
            waiting.withLock { $0 = watch }
            _ = try await client.call(destination: SecretServiceAPI.busName, path: prompt, interface: SecretServiceAPI.prompt,
                                      member: "Prompt", arguments: [.string("")], timeoutSeconds: 25)
            logger.warning("the keyring is locked: asked to unlock it (for \(setting)); what needs it waits, the rest goes on")
            Task { await self.awaitCompletion(watch) }
        } catch {
            phase.withLock { $0 = .idle }
            waiting.withLock { watch -> BusSignalWatch? in
                defer { watch = nil }
                return watch
            }?.cancel()
            throw error
        }
        throw KeyringError.locked(setting: setting)
    }

    /// A prompt another call returned (`CreateItem`'s): shown, and awaited; dismissed is locked.
    func complete(_ prompt: String, for setting: String, on client: BusClient) async throws {
        let watch = try await client.watch(path: prompt, interface: SecretServiceAPI.prompt, member: "Completed")
        defer { watch.cancel() }
        _ = try await client.call(destination: SecretServiceAPI.busName, path: prompt, interface: SecretServiceAPI.prompt,
                                  member: "Prompt", arguments: [.string("")], timeoutSeconds: 25)
        for await values in watch.signals {
            if values.first == .bool(true) { throw KeyringError.locked(setting: setting) }
            return
        }
        throw KeyringError.locked(setting: setting)
    }

    /// An unlocked item was found: a dismissed prompt's episode is over, and a later lock may
    /// ask again.
    func sawUnlocked() {
        phase.withLock { if $0 == .dismissed { $0 = .idle } }
    }

    /// Ends the wait for a prompt (the program stops).
    func stop() {
        waiting.withLock { $0 }?.cancel()
    }

    private func awaitCompletion(_ watch: BusSignalWatch) async {
        var dismissed = true
        for await values in watch.signals {
            dismissed = values.first != .bool(false)
            break
        }
        watch.cancel()
        waiting.withLock { $0 = nil }
        phase.withLock { $0 = dismissed ? .dismissed : .idle }
        if dismissed {
            logger.info("the keyring's unlock prompt was dismissed: unlock the keyring, then play again")
        } else {
            logger.info("the keyring is unlocked")
        }
    }
}
