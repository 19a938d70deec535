import ServiceLifecycle

extension Manager1Service: Service {
    /// Keeps pinned playlists' files downloaded, then serves calls until the daemon stops.
    package func run() async {
        try? await keepPinned()
        try? await gracefulShutdown()
    }
}
