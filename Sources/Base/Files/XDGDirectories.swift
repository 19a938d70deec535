import FoundationEssentials
import Glibc

/// The XDG base directories, each with `cloudplayerd` appended.
package enum XDGDirectories {
    package static var cache: URL { base("XDG_CACHE_HOME", fallback: ".cache") }
    package static var config: URL { base("XDG_CONFIG_HOME", fallback: ".config") }
    package static var data: URL { base("XDG_DATA_HOME", fallback: ".local/share") }
    /// `$XDG_RUNTIME_DIR/cloudplayerd`: what lasts only while the user is logged in (sockets, the
    /// last start error); the cache folder where no runtime folder is set.
    package static var runtime: URL {
        guard let value = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], value.hasPrefix("/") else { return cache }
        return URL(fileURLWithPath: value).appendingPathComponent("cloudplayerd")
    }

    private static func base(_ variable: String, fallback: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let root: URL
        if let value = environment[variable], value.hasPrefix("/") {
            root = URL(fileURLWithPath: value)
        } else {
            root = URL(fileURLWithPath: home).appendingPathComponent(fallback)
        }
        return root.appendingPathComponent("cloudplayerd")
    }

    /// The user's home folder: `$HOME`, else what the password database says (a process started
    /// without HOME).
    package static var home: String {
        if let home = ProcessInfo.processInfo.environment["HOME"] { return home }
        guard let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir else { return "/" }
        return String(cString: home)
    }
}
