import Base
import DBus
import Library
import Manager1

/// Library scans: one at a time, in the background, announced by `ScanFinished` when done; pinned
/// playlists are kept and fetched again after (a scan may find new tracks in them).
extension Manager1Service {
    /// Scans every scannable source, as `cloudplayerctl scan` does: after the library was made
    /// anew for a damaged one.
    package func rescanAll() async {
        guard await loader.sources.all.contains(where: \.isScannable) else { return }  // nothing to scan
        do {
            _ = try await startScan([])
        } catch {
            let reason = (error as? ManagerError)?.message ?? "\(error)"
            logger.warning("the new library was not scanned: \(reason); run cloudplayerctl scan")
        }
    }

    /// Starts a scan of `names` as `Scan` does, for the MPD server's `update`; false when one is
    /// running already (or no source can be scanned).
    package func startScanning(_ names: [String]) async -> Bool {
        (try? await startScan(names)) != nil
    }

    func startScan(_ names: [String]) async throws -> BusNothing {
        let configured = await loader.sources
        let sources: [String]
        if names.isEmpty {
            sources = configured.all.filter(\.isScannable).map(\.name)
            guard !sources.isEmpty else { throw ManagerError.invalid("no source to scan: add a webdav, local or feed source to the config file") }
        } else {
            sources = try names.map { name in
                guard configured.source(named: name) != nil else { throw LibraryError.noSuchSource(name) }
                return name
            }
        }
        guard await library.beginScanning(sources[0]) else {
            throw ManagerError(name: "Busy", message: "a scan is already running; see cloudplayerctl status")
        }
        Task { [self, library, loader, logger] in
            let reports = await library.scan(sources, loader: loader)
            // Pinned folders and feeds may hold new tracks: keep and fetch them too.
            for playlist in (try? await library.playlists().map(\.playlist).filter(\.pinned)) ?? [] {
                try? await keepPinned(downloading: playlist)
            }
            for report in reports {
                logger.info("scan finished", metadata: ["source": "\(report.source)", "folders": "\(report.folders)",
                                                        "tracks": "\(report.tracks)", "read": "\(report.tagsRead)",
                                                        "gone": "\(report.gone)", "problems": "\(report.problems.count)"])
            }
            libraryChanged()
            listeners.withLock { $0.object }?.emit(Manager1.scanFinished, of: Manager1.interface, reports.map(Self.record))
        }
        return BusNothing()
    }

    func scanStatus() async -> Manager1.ScanStatus {
        let progress = await library.currentScan
        var status = Manager1.ScanStatus(running: progress != nil, reports: await library.lastScan.map(Self.record))
        if let progress {
            status.source = progress.source
            status.foldersDone = UInt32(clamping: progress.foldersDone)
            status.foldersFound = UInt32(clamping: progress.foldersFound)
            status.foldersBefore = progress.foldersBefore.map { UInt32(clamping: $0) }
            status.tracks = UInt32(clamping: progress.tracks)
            status.tagsRead = UInt32(clamping: progress.tagsRead)
            status.bytes = progress.bytesFetched
        }
        return status
    }
}
