import ServiceLifecycle

extension LibraryActor: Service {
    /// Serves until the daemon stops, then closes the database (a scan under way ends with it:
    /// what it wrote stays, and the next scan goes on from there).
    package nonisolated func run() async {
        try? await gracefulShutdown()
        await close()
    }

    private func close() {
        store = .failure(.cannotOpen(path: file?.path ?? "", reason: "the daemon is stopping"))
    }
}
