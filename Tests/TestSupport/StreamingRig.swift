import Foundation

/// What a streaming test stands on: a real WebDAV server with Basic auth, the fault proxy in
/// front of it, an empty cache folder, and a config file that names the proxy as a source.
public struct StreamingRig: Sendable {
    public let server: WebDAVTestServer
    public let proxy: FaultProxy
    public let directory: URL

    /// Starts the server and the proxy, serving `files` under their fixture names
    /// (`tagsFollowDate`: as `WebDAVTestServer` takes it).
    public init(_ files: [Fixtures.File], server kind: WebDAVTestServer.Kind = .rclone, tagsFollowDate: Bool = true) async throws {
        server = try await WebDAVTestServer(kind, tagsFollowDate: tagsFollowDate)
        proxy = try FaultProxy(originPort: server.port)
        directory = try Fixtures.shared.scratchDirectory()
        for file in files { try server.publish(try await Fixtures.shared.url(file), as: file.rawValue) }
    }

    public var cacheDirectory: URL { directory.appendingPathComponent("cache") }

    /// The URL of a served file, through the proxy.
    public func url(_ file: Fixtures.File) -> URL { proxy.baseURL.appendingPathComponent(file.rawValue) }

    /// The bytes the server holds for `file` now.
    public func origin(_ file: Fixtures.File) throws -> Data {
        try Data(contentsOf: server.root.appendingPathComponent(file.rawValue))
    }

    /// A config document naming the proxy as source "dav"; `password` overrides the right one.
    /// `fill`: `[cache] fill` ("ahead" by default, "whole").
    public func configText(password: String? = nil, readTimeout: Double = 10, retries: Int = 4, cacheLimit: String = "2 GiB",
                           fill: String = "ahead") -> String {
        """
        [cache]
        dir = "\(cacheDirectory.path)"
        max_size = "\(cacheLimit)"
        fill = "\(fill)"

        [network]
        read_timeout = \(readTimeout)
        retries = \(retries)

        [[source]]
        name = "dav"
        type = "webdav"
        url = "\(proxy.baseURL.absoluteString)"
        username = "\(server.username)"
        password = "\(password ?? server.password)"
        """
    }

    /// Writes `configText(…)` to a file for the CLI and returns its path.
    public func configFile(password: String? = nil, readTimeout: Double = 10, retries: Int = 4) throws -> String {
        let file = directory.appendingPathComponent("config.toml")
        try configText(password: password, readTimeout: readTimeout, retries: retries)
            .write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    public var cache: CacheInspector { CacheInspector(cacheDirectory: cacheDirectory) }
}
