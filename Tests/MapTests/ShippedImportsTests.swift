import Foundation
import Testing

/// What the shipped program may import of the toolchain. One `import Foundation` (or FoundationXML,
/// FoundationNetworking) anywhere in what `cloudplayerd` links brings Foundation proper, its
/// internationalisation and ICU's 34 MB data table into the .deb: FoundationEssentials it is.
@Suite struct ShippedImportsTests {
    /// The toolchain's modules that link Foundation proper.
    static let fullFoundation: Set = ["Foundation", "FoundationXML", "FoundationNetworking", "FoundationInternationalization"]

    /// `cloudplayerd` and every target of Sources it depends on, directly or not.
    static func shipped(in graph: PackageGraph) -> [PackageGraph.Target] {
        var names: [String] = ["cloudplayerd"]
        var seen: Set<String> = []
        while let name = names.popLast() {
            guard seen.insert(name).inserted, let target = graph[name] else { continue }
            for case .byName(let dependency) in target.dependencies { names.append(dependency) }
        }
        return graph.targets.filter { seen.contains($0.name) }
    }

    @Test("no target the shipped program links imports Foundation proper, only FoundationEssentials (no ICU in the .deb)")
    func shippedTargetsImportFoundationEssentialsOnly() async throws {
        let graph = try await PackageGraph.shared.value
        let targets = Self.shipped(in: graph)
        var problems: [String] = []
        for target in targets {
            for file in graph.swiftFiles(of: target) {
                let source = try String(contentsOf: PackageGraph.root.appendingPathComponent(file), encoding: .utf8)
                for found in SwiftImports(source: source).imports where Self.fullFoundation.contains(found.module) {
                    problems.append("\(file):\(found.line): \(target.name) imports \(found.module): cloudplayerd links it, so "
                                    + "import FoundationEssentials (Base/Text has what Foundation's string and date helpers did)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) import(s) of Foundation proper:\n\(problems.joined(separator: "\n"))")
        #expect(targets.count > 15 && targets.contains { $0.name == "SourceTypes" }, "only \(targets.map(\.name)) found")
    }
}
