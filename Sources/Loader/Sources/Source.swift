/// A configured source at work: what lists its folders, if it can be scanned, and what reads
/// its tracks.
package struct Source: Sendable {
    package let storage: (any MediaStorage)?
    package let input: TrackInput

    package init(storage: (any MediaStorage)?, input: TrackInput) {
        self.storage = storage
        self.input = input
    }
}

/// How a source's tracks are read: from this machine's disk as they are, or over the network
/// through the cache.
package enum TrackInput: Sendable {
    case disk
    case remote(any RemoteInput)
}
