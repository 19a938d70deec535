import Foundation

/// The XDG base directories, each with `cloudplayerd` appended.
package enum XDGDirectories {
    package static var cache: URL { base("XDG_CACHE_HOME", fallback: ".cache") }
    package static var config: URL { base("XDG_CONFIG_HOME", fallback: ".config") }
    package static var data: URL { base("XDG_DATA_HOME", fallback: ".local/share") }

    private static func base(_ variable: String, fallback: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let root: URL
        if let value = environment[variable], value.hasPrefix("/") {
            root = URL(fileURLWithPath: value)
        } else {
            root = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(fallback)
        }
        return root.appendingPathComponent("cloudplayerd")
    }
}
