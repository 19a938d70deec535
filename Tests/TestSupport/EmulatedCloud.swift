import Foundation

/// A test server in front of one of the cloud emulators (`CloudEmulator`): what the tests ask of
/// every one of them — files published, behaviour steered, the exchanges it answered.
public protocol EmulatedCloud: Sendable {
    var emulator: CloudEmulator { get }
    /// What the emulator's log calls its second host (`download`, `content`).
    static var secondHost: String { get }
    /// The token the emulator accepts for ever, as one from a config file ("plain"'s).
    var token: String { get }
    /// Two `[[source]]` tables: the first logs in at the emulator's OAuth endpoints, the second
    /// ("plain") has a token in the config.
    var sourcesText: String { get }
}

/// One request an emulator answered.
public struct CloudExchange: Decodable, Sendable {
    /// `api`, or the emulator's second host.
    public let host: String
    public let method: String
    public let path: String
    public let status: Int
    public let bytes: Int
    public let range: String?
    public let authorized: Bool
    /// Dropbox: the `Dropbox-API-Arg` header as it came (non-ASCII bytes as ISO-8859-1 characters).
    public let arg: String?
    /// Dropbox: an RPC call's JSON body, or a token request's form.
    public let body: String?
}

extension EmulatedCloud {
    public var apiURL: URL { emulator.apiURL }

    /// Copies a file into the emulated cloud at `path` (folders made as needed).
    @discardableResult
    public func publish(_ file: URL, as path: String) throws -> URL {
        try emulator.publish(file, as: path)
    }

    /// Changes how the emulator behaves: a JSON object (the keys its server's type lists).
    public func control(_ json: String) async throws {
        try await emulator.control(json)
    }

    /// Every request answered so far.
    public func log() async throws -> [CloudExchange] {
        try await emulator.log(CloudExchange.self)
    }

    /// Body bytes the second host (downloads) sent.
    public func downloadedBytes() async throws -> Int {
        try await log().filter { $0.host == Self.secondHost }.reduce(0) { $0 + $1.bytes }
    }

    public func stop() async {
        await emulator.stop()
    }

    /// Where a browser that opens the authorize `address` ends: the 127.0.0.1 address the
    /// approval redirects to, which it cannot open when nothing listens there (the paste flow).
    public func landing(of address: String) async throws -> String {
        try await ChildProcess.check("python3", ["-c", """
            import sys, urllib.request
            class Stop(urllib.request.HTTPRedirectHandler):
                def redirect_request(self, req, fp, code, msg, headers, newurl):
                    print(newurl)
                    return None
            try:
                urllib.request.build_opener(Stop).open(sys.argv[1])
            except urllib.error.HTTPError:
                pass
            """, address]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
