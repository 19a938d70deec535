import Foundation

/// One spelling per location: servers percent-encode paths as they like (`(` or `%28`, `é` or
/// `%C3%A9`), and the library finds a track by its URL, so every URL it stores or looks up is
/// first rebuilt from its decoded parts.
package enum LibraryLocation {
    /// The path is decoded, its dot segments resolved (also `%2e%2e`, which a plain URL keeps)
    /// and encoded again; the query stays (a download link may need it), user and fragment go.
    package static func canonical(_ url: URL) -> URL {
        var parts = URLComponents()
        parts.scheme = url.scheme?.lowercased()
        parts.host = url.isFileURL ? "" : url.host?.lowercased()  // file:///path, never file:/path
        parts.port = url.port
        parts.path = url.path.isEmpty ? "/" : url.path
        if url.hasDirectoryPath, !parts.path.hasSuffix("/") { parts.path += "/" }
        parts.percentEncodedQuery = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery
        return (parts.url ?? url).standardized
    }

    static func canonical(_ text: String) -> String {
        URL(string: text).map { canonical($0).absoluteString } ?? text
    }
}
