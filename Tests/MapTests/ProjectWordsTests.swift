import Foundation
import Testing

/// The repository speaks of the project, not of how it was written: the number of a working
/// session means nothing to a reader — a measurement names its date or commit (issue 47).
@Suite struct ProjectWordsTests {
    static let folders = ["Sources", "Tests", "bench", "packaging", "dbus", "docs", "debian"]
    static let files = ["README.md", "Package.swift"]
    static let dataFolders = ["bench/out/"]

    @Test("no file names a working session by its number; dates and commits instead")
    func noSessions() throws {
        let pattern = try Regex(#"(?i)\bsessions? [0-9]+"#)
        var found: [String] = []
        var paths = Self.files
        for top in Self.folders {
            let walker = FileManager.default.enumerator(atPath: PackageGraph.root.appendingPathComponent(top).path)
            while let name = walker?.nextObject() as? String { paths.append("\(top)/\(name)") }
        }
        var read = 0
        for path in paths where !Self.dataFolders.contains(where: path.hasPrefix) {
            guard let data = FileManager.default.contents(atPath: PackageGraph.root.appendingPathComponent(path).path),
                  let text = String(data: data, encoding: .utf8) else { continue }
            read += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(pattern) {
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces).prefix(100))")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        #expect(read > 500, "only \(read) files read")
    }
}
