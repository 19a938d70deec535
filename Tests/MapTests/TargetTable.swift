import Foundation

/// The table of targets in docs/architecture.md: the code block under "## The targets". A line
/// that starts in the first column begins an entry — target names (joined by ", "), then
/// optionally `←` and some of their direct dependencies, ended by two spaces — and the indented
/// lines after it continue its description, in which `Name/` names a folder of the target.
struct TargetTable: Sequence {
    struct Entry {
        var line: Int
        var names: [String]
        var dependencies: [String]
        var folders: Set<String>
        var description = ""
    }

    private let entries: [Entry]

    init(markdown: String) throws {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(where: { $0 == "## The targets" }),
              let open = lines[heading...].firstIndex(where: { $0.hasPrefix("```") }),
              let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else {
            throw MapError("no code block under \"## The targets\"")
        }
        var entries: [Entry] = []
        for index in (open + 1)..<close {
            let line = lines[index]
            if line.first?.isWhitespace == false {
                let head = line.components(separatedBy: "  ").first ?? ""
                let parts = head.components(separatedBy: "←")
                let names = Self.list(parts[0])
                var dependencies: [String] = []
                var description = String(line.dropFirst(head.count))
                if parts.count > 1 {
                    dependencies = Self.list(parts[1])
                } else if let arrow = line.range(of: "←") {
                    // "Name  ← A, B  description": the names end at the two spaces before the arrow.
                    let after = line[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
                    let edges = after.components(separatedBy: "  ").first ?? ""
                    dependencies = Self.list(edges)
                    description = String(after.dropFirst(edges.count))
                }
                entries.append(Entry(line: index + 1, names: names, dependencies: dependencies, folders: [], description: description))
            } else if !line.isEmpty, !entries.isEmpty {
                entries[entries.count - 1].description += " " + line
            }
        }
        self.entries = entries.map { entry in
            var entry = entry
            entry.folders = Self.folders(in: entry.description)
            return entry
        }
    }

    func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    private static func list(_ text: String) -> [String] {
        text.components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `Name/` where a word ends in a slash and nothing of a path goes on (`MPEG/ID3` is no folder).
    static func folders(in text: String) -> Set<String> {
        let characters = Array(text)
        var folders: Set<String> = []
        for (index, character) in characters.enumerated() where character == "/" {
            var start = index
            while start > 0, characters[start - 1].isLetter || characters[start - 1].isNumber { start -= 1 }
            guard start < index, characters[start].isLetter else { continue }
            if start > 0, "/.-_".contains(characters[start - 1]) { continue }
            if index + 1 < characters.count, !" ,;:)`".contains(characters[index + 1]) { continue }
            folders.insert(String(characters[start..<index]))
        }
        return folders
    }
}

struct MapError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
