import Base
import Config
import FoundationEssentials

/// How the loader works: where the cache is and how large it may grow, how patient it is with
/// the network (`[cache]` and `[network]` in the config file).
package struct LoaderSettings: Sendable, Equatable {
    package static let defaultCacheLimit: Int64 = 2 << 30

    /// Where downloaded bytes are kept (`$XDG_CACHE_HOME/cloudplayerd` by default).
    package var cacheDirectory: URL
    /// The cache is trimmed, least recently used first, to stay under this.
    package var cacheLimit: Int64
    /// How long a download may receive nothing before it is dropped and resumed.
    package var readTimeout: Double
    /// How many times a failing download is tried again before playback gives up on the bytes.
    package var retries: Int
    /// Downloads at a time per host: servers answer eager clients with 429.
    package var perHost: Int
    /// A file up to this long is read ahead to its end while it plays; a longer one (a long
    /// podcast) a window ahead. Nothing behind the playing position is fetched.
    package var readAhead: Int64
    /// Every file played is fetched whole, behind the playing position too (`fill = "whole"`).
    package var fillWhole: Bool
    /// How long a live stream that broke is connected again before it fails (`stream_retry`).
    package var streamRetry: Double = 120
    /// The highest bit rate of an HLS variant chosen, bits per second (`hls_bandwidth`); nil:
    /// the highest there is (a listener wants the best sound; a metered link sets a cap).
    package var hlsBandwidth: Int?
    /// Which proxy each request goes through: the environment's (`https_proxy`, `no_proxy`, …)
    /// unless `[network] proxy` says otherwise.
    package var proxy = ProxyRules(environment: ProcessInfo.processInfo.environment)
    /// A source's own `proxy`, by source name: in place of `[network]`'s for it.
    package var sourceProxies: [String: ProxySetting] = [:]

    /// The proxy rules a source named `name` is opened with.
    package func proxy(forSource name: String) -> ProxyRules {
        proxy.overridden(by: sourceProxies[name])
    }
    /// Whether links remote documents name (`TrackLocation.namedBy`) may lead to loopback,
    /// private and link-local addresses (`allow_private_links`): off, so a feed or a playlist
    /// cannot aim the daemon at this machine's or the LAN's services; a test rig, whose servers
    /// are all on 127.0.0.1, or a LAN of trusted feeds turns it on.
    package var allowPrivateLinks = false

    package init(cacheDirectory: URL = XDGDirectories.cache, cacheLimit: Int64 = Self.defaultCacheLimit,
                 readTimeout: Double = 15, retries: Int = 6, perHost: Int = 4, readAhead: Int64 = 64 << 20, fillWhole: Bool = false) {
        self.cacheDirectory = cacheDirectory
        self.cacheLimit = cacheLimit
        self.readTimeout = readTimeout
        self.retries = retries
        self.perHost = perHost
        self.readAhead = readAhead
        self.fillWhole = fillWhole
    }
}
