import Foundation
import Library

/// Saving and restoring the playback state, on the library's thread (the writes block).
extension LibraryActor {
    package func saveState(_ state: PlaybackState, instance: String?) throws {
        try StateFile.default(instance: instance).save(state)
    }

    package func loadState(instance: String?) -> PlaybackState? {
        StateFile.default(instance: instance).load()
    }
}
