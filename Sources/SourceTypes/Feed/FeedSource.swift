import FoundationEssentials
import Loader

/// `type = "feed"`: a podcast feed; its enclosures are the tracks, newest first. The feed is
/// fetched with the source's credentials; its episodes with those of whatever serves them.
package struct FeedSource: ServerSource {
    package static let typeName = "feed"

    package let name: String
    package let server: HTTPServer

    package init(name: String, server: HTTPServer) {
        self.name = name
        self.server = server
    }

    package var isScannable: Bool { true }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let input = HTTPInput(transport: try server.transport(name: name, readTimeout: environment.readTimeout, proxy: environment.proxy))
        return Source(storage: FeedStorage(root: try SourceRoot.of(self), input: input, sources: environment.sources), input: .remote(input))
    }
}
