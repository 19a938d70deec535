import ServiceLifecycle

extension LoaderActor: Service {
    /// Serves until the daemon stops, then ends every download and sends what is left to report.
    /// First in the group, so it stops last: every other part may still read or report until then.
    package nonisolated func run() async {
        try? await gracefulShutdown()
        await shutdown(recordingWithin: Self.lastCommits)
    }
}
