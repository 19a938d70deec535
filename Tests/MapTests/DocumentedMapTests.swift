import Foundation
import Testing

/// The maps a newcomer reads — docs/architecture.md's table of targets, Package.swift's header,
/// the pages of docs/ — against the package and the tree, so they cannot drift from it. Each
/// failure says which line to change.
@Suite struct DocumentedMapTests {
    static let architecture = "docs/architecture.md"

    static func text(_ path: String) throws -> String {
        try String(contentsOf: PackageGraph.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The targets in `Sources/`: what the table and the header describe (test and bench targets
    /// are "around the code").
    static func productTargets(_ graph: PackageGraph) -> [PackageGraph.Target] {
        graph.targets.filter { $0.path.hasPrefix("Sources/") }
    }

    @Test("docs/architecture.md lists every target of Sources, each edge it names exists, and each target's folders are all listed")
    func targetTable() async throws {
        let graph = try await PackageGraph.shared.value
        let entries = try TargetTable(markdown: Self.text(Self.architecture))
        var problems: [String] = []
        let listed = entries.flatMap(\.names)
        for target in Self.productTargets(graph) where !listed.contains(target.name) {
            problems.append("\(target.name) (\(target.path)) has no line in the table: add one")
        }
        for entry in entries {
            for name in entry.names {
                guard let target = graph[name], target.path.hasPrefix("Sources/") else {
                    problems.append("line \(entry.line): \(name) is not a target in Sources/: remove it or correct its name")
                    continue
                }
                let direct = Set(target.dependencies.map { dependency in
                    switch dependency {
                    case .byName(let name), .product(let name, _): name
                    }
                })
                for edge in entry.dependencies where !direct.contains(edge) {
                    problems.append("line \(entry.line): \(name) ← \(edge): \(name) does not depend on \(edge) in Package.swift "
                                    + "(direct dependencies: \(direct.sorted().joined(separator: ", ")))")
                }
                let folders = graph.subfolders(of: target)
                let described = entry.folders
                for folder in folders.subtracting(described).sorted() {
                    problems.append("line \(entry.line): \(name) has the folder \(target.path)/\(folder)/, which its description "
                                    + "does not list: add \"\(folder)/\" to it")
                }
                for folder in described.subtracting(folders).sorted() {
                    problems.append("line \(entry.line): \(name)'s description lists \"\(folder)/\", but \(target.path)/\(folder)/ "
                                    + "does not exist: remove it or correct its name")
                }
            }
        }
        #expect(problems.isEmpty, "\(Self.architecture), \"The targets\":\n\(problems.joined(separator: "\n"))")
    }

    @Test("Package.swift's header puts every target of Sources in a row below all of its dependencies")
    func headerRows() async throws {
        let graph = try await PackageGraph.shared.value
        let rows = try Self.headerRows(Self.text("Package.swift"))
        var problems: [String] = []
        var rowOf: [String: Int] = [:]
        for (index, row) in rows.enumerated() {
            for name in row {
                if rowOf[name] != nil { problems.append("\(name) is in two rows") }
                rowOf[name] = index + 1
            }
        }
        for target in Self.productTargets(graph) where rowOf[target.name] == nil {
            problems.append("\(target.name) is in no row: add it to the first row below all of its dependencies")
        }
        for (name, row) in rowOf.sorted(by: { $0.key < $1.key }) {
            guard let target = graph[name], target.path.hasPrefix("Sources/") else {
                problems.append("\(name) (row \(row)) is not a target in Sources/: remove it")
                continue
            }
            for case .byName(let dependency) in target.dependencies {
                if let below = rowOf[dependency], below >= row {
                    problems.append("\(name) (row \(row)) depends on \(dependency) (row \(below)): move \(name) below \(dependency)")
                }
            }
        }
        #expect(!rows.isEmpty, "Package.swift's header has no rows of targets (lines \"//   A · B\")")
        #expect(problems.isEmpty, "Package.swift's header:\n\(problems.joined(separator: "\n"))")
    }

    /// The header's rows: its comment lines indented by three spaces, names joined by " · ".
    static func headerRows(_ manifest: String) -> [[String]] {
        manifest.split(separator: "\n").prefix { !$0.hasPrefix("let ") }.compactMap { line in
            guard line.hasPrefix("//   "), let first = line.dropFirst(5).first, first != " " else { return nil }
            return line.dropFirst(5).components(separatedBy: " · ").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test("every source type has its page in docs/sources/, linked from docs/configuration.md, and every page a type")
    func sourcePages() throws {
        // `static let typeName = "…"` in each SourceType of Sources/SourceTypes.
        var types: Set<String> = []
        let folder = PackageGraph.root.appendingPathComponent("Sources/SourceTypes")
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let file = walker?.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in source.split(separator: "\n") where line.contains("static let typeName = \"") {
                types.insert(String(line.split(separator: "\"")[1]))
            }
        }
        let pages = Set(try FileManager.default.contentsOfDirectory(atPath: PackageGraph.root.appendingPathComponent("docs/sources").path)
            .filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) })
        let configuration = try Self.text("docs/configuration.md")
        #expect(types.count >= 10, "found the source types \(types.sorted())")
        #expect(types.subtracting(pages).isEmpty, "source types without a page: add docs/sources/TYPE.md for \(types.subtracting(pages).sorted())")
        #expect(pages.subtracting(types).isEmpty, "pages of no source type: \(pages.subtracting(types).sorted()) (rename or remove them)")
        let unlinked = pages.filter { !configuration.contains("(sources/\($0).md)") }
        #expect(unlinked.isEmpty, "docs/configuration.md's table of types does not link \(unlinked.sorted())")
    }

    @Test("every relative link in README.md and docs/ points to a file that is there, and to a heading it has")
    func links() throws {
        var files = ["README.md"]
        let walker = FileManager.default.enumerator(atPath: PackageGraph.root.appendingPathComponent("docs").path)
        while let file = walker?.nextObject() as? String {
            if file.hasSuffix(".md") { files.append("docs/\(file)") }
        }
        var problems: [String] = []
        for file in files {
            for link in MarkdownLinks.targets(in: try Self.text(file)) {
                let (path, anchor) = MarkdownLinks.split(link)
                let target = path.isEmpty ? file : MarkdownLinks.resolve(path, from: file)
                guard FileManager.default.fileExists(atPath: PackageGraph.root.appendingPathComponent(target).path) else {
                    problems.append("\(file): (\(link)): \(target) does not exist")
                    continue
                }
                if let anchor, target.hasSuffix(".md"), !MarkdownLinks.anchors(in: try Self.text(target)).contains(anchor) {
                    problems.append("\(file): (\(link)): \(target) has no heading #\(anchor)")
                }
            }
        }
        #expect(files.count > 10, "\(files)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
