import FoundationEssentials
import Loader

/// `type = "http"`: files on an HTTP(S) server behind credentials — played from, not scanned:
/// a plain server cannot list its folders.
package struct HTTPSource: ServerSource {
    package static let typeName = "http"

    package let name: String
    package let server: HTTPServer

    package init(name: String, server: HTTPServer) {
        self.name = name
        self.server = server
    }

    package var isScannable: Bool { false }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        Source(storage: nil,
               input: .remote(HTTPInput(transport: try server.transport(name: name, readTimeout: environment.readTimeout, proxy: environment.proxy))))
    }
}
