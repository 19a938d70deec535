import ServiceLifecycle

/// Tells systemd the daemon is ready once every part runs, feeds its watchdog while it serves,
/// and says it is stopping as soon as it begins to.
package struct SystemdNotifier: Service {
    let status: String

    package init(status: String) {
        self.status = status
    }

    package func run() async {
        ServiceNotifier.ready(status: status)
        await cancelWhenGracefulShutdown { await ServiceNotifier.keepWatchdogFed() }
        try? await gracefulShutdown()
        ServiceNotifier.stopping()
    }
}
