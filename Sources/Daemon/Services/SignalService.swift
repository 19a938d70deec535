import Base
import ServiceLifecycle
import UnixSignals

/// The signals a process obeys, trapped from its first moment (a SIGTERM that comes while it
/// starts is kept for when it runs, not lost or fatal): SIGTERM and SIGINT stop the group
/// gracefully, SIGHUP runs `reload`. Last in the group, so it is the first part to hear that the
/// group stops — from a signal, a client's Quit or a lost bus — and it then arms the
/// `StopDeadline` (unless `play`'s own end already did; a signal always tightens it).
package final class SignalService: Service {
    private let signals: UnixSignalsSequence
    private let wiring = Locked<(group: ServiceGroup?, reload: (@Sendable () async -> Void)?)>((nil, nil))

    /// Traps `signals` (SIGHUP only if the process reloads).
    package init(trapping signals: [UnixSignal]) async {
        self.signals = await UnixSignalsSequence(trapping: signals)
    }

    /// The group a SIGTERM stops, and what SIGHUP does.
    package func connect(to group: ServiceGroup, reload: (@Sendable () async -> Void)? = nil) {
        wiring.withLock { $0 = (group, reload) }
    }

    package func run() async {
        for await signal in signals.cancelOnGracefulShutdown() {
            let (group, reload) = wiring.withLock { $0 }
            if signal == .sighup {
                await reload?()
            } else {
                StopDeadline.arm()
                await group?.triggerGracefulShutdown()
            }
        }
        StopDeadline.armUnlessArmed()
    }
}
