import Base
import DBus
import FoundationEssentials
import Manager1

enum Formatting {
    /// A table column: its header and how a row fills it.
    typealias Column<Row> = (header: String, cell: @Sendable (Row) -> String)

    /// 3:07, 1:02:03; empty when unknown.
    static func duration(_ seconds: Double?) -> String {
        ClockDuration.text(seconds)
    }

    /// 1.5 MiB, 700 KiB, 12 B.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : "\(value.fixed(value < 10 ? 1 : 0)) \(units[unit])"
    }

    /// Rows as they came (a JSON array), or a table of these columns.
    /// `none`: what to say when there is no row (a search that found nothing), rather than nothing.
    static func print<Row>(_ rows: (answer: [Row], raw: [BusValue]), json: Bool, columns: [Column<Row>], none: String? = nil) {
        if json {
            say(rows.raw.json)
            return
        }
        guard !rows.answer.isEmpty else {
            if let none { say(none) }
            return
        }
        var table = TextTable(columns.map(\.header))
        for row in rows.answer { table.rows.append(columns.map { $0.cell(row) }) }
        say(table.render())
    }

    /// The usual columns of a track listing.
    static let trackColumns: [Column<Manager1.Track>] = [
        ("ID", { $0.id.map(String.init) ?? "" }),
        ("TITLE", { $0.title }),
        ("ARTIST", { $0.artist ?? "" }),
        ("ALBUM", { $0.album ?? "" }),
        ("TIME", { duration($0.duration) }),
        // A long track: where it was left ("12:40 / 58:02"), or "played".
        ("PROGRESS", { track in track.played == true ? "played" : track.resumeAt.map { "\(duration($0)) / \(duration(track.duration))" } ?? "" }),
        ("SOURCE", { ($0.source ?? "") + ($0.gone == true ? " (gone)" : "") }),
    ]
}

extension [BusValue] {
    /// A reply for `--json`: each of its values as JSON, one a line (Manager1 answers one value, or none).
    var json: String { map(\.json).joined(separator: "\n") }
}
