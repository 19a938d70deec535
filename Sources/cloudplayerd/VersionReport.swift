import Decoding
import Library
import Manager1
import Output

/// What `cloudplayerd --version` prints: its own version, then the libraries it plays with, as
/// they are loaded now — what a bug report needs.
enum VersionReport {
    static var text: String {
        let libraries = DecoderLibraries.versions + [PulseOutput.libraryVersion] + [LibraryStore.sqliteVersion].compactMap { $0 }
        return (["cloudplayerd \(Manager1.productVersion)"] + libraries.map { "  \($0)" }).joined(separator: "\n")
    }
}
