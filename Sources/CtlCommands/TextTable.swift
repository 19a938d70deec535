/// Columns of text aligned for a terminal; long cells are cut with an ellipsis.
struct TextTable {
    let headers: [String]
    var rows: [[String]] = []
    /// The widest a column may grow.
    var widest = 48

    init(_ headers: [String]) {
        self.headers = headers
    }

    mutating func add(_ cells: [String]) {
        rows.append(cells)
    }

    func render() -> String {
        let cut = ([headers] + rows).map { $0.map { Self.cut($0, to: widest) } }
        var widths = Array(repeating: 0, count: headers.count)
        for row in cut {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        return cut.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    private static func cut(_ text: String, to width: Int) -> String {
        let line = Self.printable(text)
        return line.count <= width ? line : String(line.prefix(width - 1)) + "…"
    }

    /// Text from a server (tags, names) with control characters — terminal escapes among them —
    /// shown as U+FFFD, so it cannot drive the terminal.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) ? "\u{FFFD}" : scalar
        }))
    }
}
