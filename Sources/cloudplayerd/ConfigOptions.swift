import ArgumentParser
import Config
import Foundation

/// The `--config` option, and reading the file it names.
struct ConfigOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The config file (default: $CLOUDPLAYERD_CONFIG, else $XDG_CONFIG_HOME/cloudplayerd/config.toml).",
                               valueName: "file"), completion: .file())
    var config: String?

    /// The configuration; a broken file is one line naming file, line and key, then exit 2.
    func load() throws -> Configuration {
        // The cache writes files and the loader talks to servers: a file-size limit must fail a
        // write (EFBIG, and playback goes on from memory), a closed socket must fail a send.
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        do {
            return try Configuration.load(explicit: config)
        } catch {
            complain("\(error)")
            throw ExitCode(2)
        }
    }
}

extension Configuration {
    /// A track argument as a location: an http(s) or file URL as given, anything else a path.
    /// Credentials written into a URL (`https://user:pass@host/…`) move into a source of their
    /// own, so the URL that is queued, shown and logged carries none.
    mutating func location(of argument: String, relativeTo directory: URL) -> URL {
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            return URL(fileURLWithPath: argument, relativeTo: directory).standardizedFileURL
        }
        guard let user = url.user, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        parts.user = nil
        parts.password = nil
        let clean = parts.url ?? url
        parts.path = "/"
        parts.query = nil
        parts.fragment = nil
        if source(for: clean) == nil, let root = parts.url {
            let password = url.password.map { Secret.Origin.inline(Secret($0.removingPercentEncoding ?? $0)) }
            sources.append(SourceConfiguration(name: url.host ?? "server", kind: .http, url: root,
                                               username: user.removingPercentEncoding ?? user, password: password))
        }
        return clean
    }
}
