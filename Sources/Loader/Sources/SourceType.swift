import Config
import FoundationEssentials
import Model

/// A kind of source — what `type = "…"` names in the config file — and one source of that kind as
/// the file describes it: a value, compared on reload. Like MPD's plugins, each kind is one folder
/// (Sources/SourceTypes/KIND) and one line in `SourceTypes.all`; it reads its own keys, and opens
/// as a `Source`: a storage that lists folders (if it can be scanned) and an input that reads bytes.
package protocol SourceType: Sendable {
    /// The `type` value in the config file.
    static var typeName: String { get }

    /// Reads a `[[source]]` table of this kind (its `name` and `type` are read already).
    static func configure(_ section: ConfigSection) throws(ConfigError) -> Self

    /// The name the user gave it; errors and the library name it.
    var name: String { get }

    /// For a source rooted at a URL (a folder, a server): its root. URLs below it are its
    /// tracks. Its credentials go with every request to the root's origin (scheme, host and
    /// port), below the root or not: a redirect elsewhere on the same server keeps them.
    var root: URL? { get }

    /// Whether the segments of its URLs' paths are file names its server decodes (a folder on
    /// this machine, WebDAV), so `(` and `%28` name one track and its keys are decoded paths
    /// (`SourceRoot`); false for a server whose paths may mean anything (HTTP, a feed).
    var pathsAreNames: Bool { get }

    /// What `cloudplayerctl sources` shows of where it is (never with credentials).
    var shownLocation: String { get }

    /// Whether a scan of "all sources" walks it (a plain HTTP server cannot be listed).
    var isScannable: Bool { get }

    /// What `cloudplayerctl sources` says of its state beyond scans ("needs login"); nil: nothing.
    /// Async: it may read a file (a login's stored tokens), on the `BlockingPool`.
    var status: String? { get async }

    /// The source at work.
    func open(_ environment: SourceEnvironment) throws -> Source

    /// Whether `other` is the same source with the same settings.
    func isEqual(to other: any SourceType) -> Bool
}

extension SourceType {
    package var pathsAreNames: Bool { false }
    package var status: String? { nil }
}

extension SourceType where Self: Equatable {
    package func isEqual(to other: any SourceType) -> Bool {
        (other as? Self) == self
    }
}

/// What a source is opened with.
package struct SourceEnvironment: Sendable {
    /// Seconds without a byte before a request is dropped.
    package var readTimeout: Double
    /// Which proxy the source's requests go through (its own `proxy`, else `[network]`'s, else the environment's).
    package var proxy: ProxyRules
    /// Every configured source: a feed's episodes or a playlist's lines may be another's files.
    package var sources: SourceSet
    /// `[network] allow_private_links`: whether links a remote document names (a `radio`
    /// source's remote station list) may lead to this machine or its network.
    package var allowPrivateLinks: Bool

    package init(readTimeout: Double, proxy: ProxyRules, sources: SourceSet, allowPrivateLinks: Bool = false) {
        self.readTimeout = readTimeout
        self.proxy = proxy
        self.sources = sources
        self.allowPrivateLinks = allowPrivateLinks
    }
}
