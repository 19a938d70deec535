import SearchProviders

/// The desktop's search (GNOME Shell, KRunner) over the manager's library: it queues through
/// the same intake, and plays a playlist as Manager1 and MPRIS do.
extension Manager1Service {
    package var desktopSearch: DesktopSearch {
        DesktopSearch(library: library, intake: intake) { [self] id in try await activate(String(id)) }
    }
}
