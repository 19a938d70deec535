import Config
import FoundationEssentials
import Loader
import Model

/// `type = "radio"`: internet radio stations — written in the config (`[[source.station]]`), in
/// a station list file, or at a station list's URL (`stations`). A scan makes each a library
/// track, and the source a playlist of them in their order; playing one connects to it live.
package struct RadioSource: SourceType, Equatable {
    package static let typeName = "radio"

    /// A station written in the config file.
    package struct Station: Sendable, Equatable {
        package var name: String
        package var url: URL
        package var genre: String?
    }

    package let name: String
    /// The station list (`.m3u`, `.pls`, `.xspf`, `.asx`): a file on this machine or a URL.
    package let stations: URL?
    package let listed: [Station]

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> RadioSource {
        try section.allow(["stations", "station"])
        var stations: URL?
        if let text = try section.string("stations") {
            if let url = URL(string: text.value), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
                guard url.host != nil, url.user == nil, url.password == nil else {
                    throw section.error("stations", line: text.line, "expected a file or an http(s):// URL without credentials")
                }
                stations = url
            } else {
                stations = try section.path("stations")
            }
        }
        let listed = try Self.stations(in: section)
        guard stations != nil || !listed.isEmpty else {
            throw section.error("stations", "missing: a station list (stations = \"…\") or [[source.station]] tables")
        }
        return RadioSource(name: section.name, stations: stations, listed: listed)
    }

    /// The `[[source.station]]` tables: each a name and an http(s) URL, maybe a genre.
    private static func stations(in section: ConfigSection) throws(ConfigError) -> [Station] {
        guard let value = section.table["station"] else { return [] }
        guard case .array(let tables, let line) = value else {
            throw section.error("station", line: value.line, "expected [[source.station]] tables, found \(value.kind)")
        }
        var stations: [Station] = []
        for table in tables {
            guard case .table(let fields, let at) = table else { throw section.error("station", line: line, "expected a table") }
            let station = section.nested(fields, line: at, key: "station")
            try station.allow(["url", "genre"])
            let name = try station.required("name", "what the station is called")
            guard let url = try station.httpURL("url") else { throw station.error("url", "missing (the station's stream or station list)") }
            stations.append(Station(name: name.value, url: url, genre: try station.string("genre")?.value))
        }
        return stations
    }

    package var root: URL? { nil }
    package var isScannable: Bool { true }

    package var shownLocation: String {
        let count = "\(listed.count) station\(listed.count == 1 ? "" : "s")"
        guard let stations else { return count }
        return (stations.isFileURL ? stations.path : stations.absoluteString) + (listed.isEmpty ? "" : " + \(count)")
    }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let input = RadioInput(name: name, transport: try HTTPTransport(name: name, readTimeout: environment.readTimeout, proxy: environment.proxy,
                                                                        offersCAFile: false,
                                                                        checkingTargets: environment.allowPrivateLinks ? nil : linkCheck(proxy: environment.proxy)))
        return Source(storage: RadioStorage(source: self, input: input), input: .remote(input))
    }

    /// The check of a station list on a server (`stations = "https://…"`): it is a remote
    /// document, so its stations may not lead to this machine or its network (`PrivateAddresses`);
    /// the list itself and the stations of the config file may, with what their servers hold.
    /// Nil when the list is a file of this machine, or there is none.
    private func linkCheck(proxy: ProxyRules) -> (@Sendable (URL) async throws -> Bool)? {
        guard let stations, !stations.isFileURL else { return nil }
        let trusted = Set(([stations] + listed.map(\.url)).compactMap(URLOrigin.init))
        return { url in
            guard let origin = URLOrigin(url), trusted.contains(origin) else { return try await PrivateAddresses.refuse(url, proxy: proxy) }
            return false
        }
    }

    /// Where a station is: its URL is its key.
    func location(of url: URL) -> TrackLocation {
        TrackLocation(source: name, key: url.absoluteString)
    }
}
