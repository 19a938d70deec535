import FoundationEssentials
import Loader

/// `type = "webdav"`: a WebDAV server, scanned folder by folder and played from with byte ranges.
package struct WebDAVSource: ServerSource {
    package static let typeName = "webdav"

    package let name: String
    package let server: HTTPServer

    package init(name: String, server: HTTPServer) {
        self.name = name
        self.server = server
    }

    package var isScannable: Bool { true }
    package var pathsAreNames: Bool { true }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let root = try SourceRoot.of(self)
        let transport = try server.transport(name: name, readTimeout: environment.readTimeout, proxy: environment.proxy)
        return Source(storage: WebDAVStorage(root: root, transport: transport), input: .remote(WebDAVInput(http: HTTPInput(transport: transport))))
    }
}
