import Config
import FoundationEssentials
import Loader

/// `type = "local"`: a folder on this machine (`path`), scanned and played from the disk as it is.
package struct LocalSource: SourceType, Equatable {
    package static let typeName = "local"

    package let name: String
    /// The folder, as a file URL.
    package let folder: URL

    package init(name: String, folder: URL) {
        self.name = name
        self.folder = folder.hasDirectoryPath ? folder : folder.appendingPathComponent("", isDirectory: true)
    }

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> LocalSource {
        try section.allow(["path"])
        guard let folder = try section.path("path") else { throw section.error("path", "missing (the folder to scan)") }
        return LocalSource(name: section.name, folder: folder)
    }

    package var root: URL? { folder }
    package var shownLocation: String { folder.absoluteString }
    package var isScannable: Bool { true }
    package var pathsAreNames: Bool { true }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        Source(storage: LocalStorage(root: try SourceRoot.of(self), folder: folder), input: .disk)
    }
}
