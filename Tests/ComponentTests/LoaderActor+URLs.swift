import Foundation
import Loader
import Model
import SourceTypes

/// The tests name tracks by URL, as a user does; the loader places them among its sources.
extension LoaderActor {
    init(configuration: LoaderConfiguration) {
        self.init(settings: configuration.loader, sources: configuration.sources)
    }

    func open(_ url: URL) async throws -> any ByteSource {
        try await open(sources.location(of: url))
    }

    func prefetch(_ url: URL) async {
        await prefetch(sources.location(of: url))
    }

    func isCached(_ url: URL) -> Bool {
        isCached(sources.location(of: url))
    }

    func cachedRanges(of url: URL) -> (length: Int64, ranges: [Range<Int64>])? {
        cachedRanges(of: sources.location(of: url))
    }
}
