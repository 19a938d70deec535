import ArgumentParser
import Config
import Daemon
import FoundationEssentials
import Glibc
import Loader
import Model
import SourceTypes

/// The `--config` option, and reading the file it names.
struct ConfigOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The config file (default: $CLOUDPLAYERD_CONFIG, else $XDG_CONFIG_HOME/cloudplayerd/config.toml); "
                               + "its settings and sources: /usr/share/doc/cloudplayerd/docs/configuration.md.",
                               valueName: "file"), completion: .file())
    var config: String?

    /// The configuration; a broken file is one line naming file, line and key (also told to
    /// `failed`), then exit 2.
    func load(failed: (String) -> Void = { _ in }) throws -> Configuration {
        // The cache writes files and the loader talks to servers: a file-size limit must fail a
        // write (EFBIG, and playback goes on from memory), a closed socket must fail a send.
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        do {
            return try Configuration.load(explicit: config)
        } catch {
            complain("\(error)")
            failed("\(error)")
            throw ExitCode(2)
        }
    }
}

extension Configuration {
    /// A track argument as a location: a `cloudplayer://` location, an http(s) or file URL as
    /// given, anything else a path. Credentials written into a URL (`https://user:pass@host/…`)
    /// move into a source of their own, so the location that is queued, shown and logged carries
    /// none.
    mutating func location(of argument: String, relativeTo directory: URL) -> TrackLocation {
        guard let url = URL(string: argument), let user = url.user, ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return sources.location(of: argument, relativeTo: directory)
        }
        parts.user = nil
        parts.password = nil
        let clean = parts.url ?? url
        parts.path = "/"
        parts.query = nil
        parts.fragment = nil
        if sources.location(of: clean).source == nil, let root = parts.url {
            let password = url.password.map { Secret.Origin.inline(Secret(url.password(percentEncoded: false) ?? $0)) }
            let server = HTTPServer(url: root, username: url.user(percentEncoded: false) ?? user, password: password)
            sources = SourceSet(sources.all + [HTTPSource(name: url.host ?? "server", server: server)])
        }
        return sources.location(of: clean)
    }
}
