import Foundation
import Model

/// Where tracks come from — a local disk, an HTTP server, a WebDAV server — behind one small
/// interface, as MPD has one per kind of input.
package protocol MediaSource: Sendable {
    /// The name the user gave it in the config (errors name it).
    var name: String { get }

    /// Random-access bytes of `url`, ready when the first bytes can be had. `waiting` hears when
    /// a read starts and stops waiting for the network.
    func open(_ url: URL, with loader: isolated LoaderActor, waiting: (@Sendable (Bool) -> Void)?) async throws -> any ByteSource

    /// Length, version and type of `url`, without reading it.
    nonisolated(nonsending) func describe(_ url: URL) async throws -> ResourceInfo
}
