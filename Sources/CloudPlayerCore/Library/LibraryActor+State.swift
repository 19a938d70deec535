import Foundation

/// Saving and restoring the playback state, on the library's thread (the writes block).
extension LibraryActor {
    public func saveState(_ state: PlaybackState, instance: String?) throws {
        try StateFile.default(instance: instance).save(state)
    }

    public func loadState(instance: String?) -> PlaybackState? {
        StateFile.default(instance: instance).load()
    }
}
