import FoundationEssentials
import Glibc

/// Why `AtomicFile.write` failed, in one line for a person: which file, at which step, and the
/// system's reason ("cannot save …/state.json: writing failed: No space left on device").
package struct AtomicFileError: Error, Equatable, CustomStringConvertible {
    package enum Step: String, Sendable {
        case create = "creating a temporary file beside it"
        /// Opening the file itself, to add to it (an append-only journal).
        case open = "opening it"
        case write = "writing"
        case sync = "syncing"
        case rename = "renaming the new file over it"
        case syncFolder = "syncing its folder"
    }

    package let path: String
    package let step: Step
    /// The `errno` value.
    package let code: Int32

    package init(path: String, step: Step, code: Int32) {
        self.path = path
        self.step = step
        self.code = code
    }

    package var description: String {
        "cannot save \(path): \(step.rawValue) failed: \(String(cString: strerror(code)))"
    }
}
