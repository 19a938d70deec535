import Base
import FoundationEssentials

/// Which cover file each folder has (`cover.jpg` …, what MPD's `albumart` sends), or that it has
/// none: the source is asked once a folder, not again for each of its songs and each chunk a
/// client reads. Forgotten when a scan starts — a scan is how the user says the folders
/// changed — and bounded, since a client showing a library of thousands of albums asks for each.
package final class FolderCovers: Sendable {
    /// More folders than this and the memory starts over; each is one short string and a URL.
    static let limit = 20_000

    private let known = Locked<[String: URL?]>([:])

    package init() {}

    /// What is known of `folder`: `.some(nil)` when it has no cover, nil when it was not asked
    /// yet (the caller checks that a file found is still in the art cache).
    func cover(of folder: String) -> URL?? {
        known.withLock { $0[folder] }
    }

    func remember(_ cover: URL?, of folder: String) {
        known.withLock { known in
            if known.count >= Self.limit { known.removeAll(keepingCapacity: true) }
            known[folder] = .some(cover)
        }
    }

    func forget() {
        known.withLock { $0.removeAll() }
    }
}
