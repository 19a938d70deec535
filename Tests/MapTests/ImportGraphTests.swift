import Foundation
import Testing

/// Every `import` against Package.swift: a target imports only its own direct dependencies.
/// `--explicit-target-dependency-import-check` lets a dependency of a dependency through (a target
/// could import `Loader` because `SourceTypes`, which it lists, does), so the graph the manifest
/// shows would not be the one the code uses.
@Suite struct ImportGraphTests {
    /// What the toolchain provides to every target.
    static let toolchain: Set = [
        "Swift", "_Concurrency", "_StringProcessing", "Foundation", "FoundationEssentials", "FoundationInternationalization",
        "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Musl", "Synchronization", "RegexBuilder",
    ]
    /// What the toolchain provides to test targets.
    static let testing: Set = ["Testing", "XCTest"]

    /// The modules each product of our dependencies provides (their Package.swift's `.library`).
    /// A product not here fails the test: add it with the modules its manifest lists.
    static let productModules: [String: Set<String>] = [
        "ArgumentParser": ["ArgumentParser"],
        "Logging": ["Logging"],
        "NIOCore": ["NIOCore"],
        "NIOHTTP1": ["NIOHTTP1"],
        "NIOPosix": ["NIOPosix"],
        "Crypto": ["Crypto"],
        "ServiceLifecycle": ["ServiceLifecycle"],
        "UnixSignals": ["UnixSignals"],
    ]

    /// The modules a target may import, or the problems that keep this from being known.
    static func allowed(for target: PackageGraph.Target, in graph: PackageGraph) -> (modules: Set<String>, problems: [String]) {
        var modules = toolchain.union([graph.module(of: target)])
        if target.kind == .test { modules.formUnion(testing) }
        var problems: [String] = []
        for dependency in target.dependencies {
            switch dependency {
            case .byName(let name):
                if let local = graph[name] {
                    modules.insert(graph.module(of: local))
                } else if let provided = productModules[name] {
                    modules.formUnion(provided)
                } else {
                    problems.append("Package.swift: \(target.name) depends on '\(name)', which is neither a target nor a product in "
                                    + "ImportGraphTests.productModules (add it there with the modules it provides)")
                }
            case .product(let name, let package):
                if let provided = productModules[name] {
                    modules.formUnion(provided)
                } else {
                    problems.append("Package.swift: \(target.name) depends on product '\(name)' of \(package), which "
                                    + "ImportGraphTests.productModules does not list (add it with the modules \(package)'s "
                                    + "Package.swift gives that product)")
                }
            }
        }
        return (modules, problems)
    }

    @Test("every import in Sources, Tests and bench names a direct dependency of its target (or the toolchain's)")
    func importsAreDirectDependencies() async throws {
        let graph = try await PackageGraph.shared.value
        var problems: [String] = []
        var checked = 0
        for target in graph.targets {
            let (allowed, unknown) = Self.allowed(for: target, in: graph)
            problems += unknown
            for file in graph.swiftFiles(of: target) {
                let source = try String(contentsOf: PackageGraph.root.appendingPathComponent(file), encoding: .utf8)
                for found in SwiftImports(source: source).imports where !allowed.contains(found.module) {
                    let local = graph.targets.first { graph.module(of: $0) == found.module }
                    problems.append("\(file):\(found.line): \(target.name) imports \(found.module), not a direct dependency: "
                                    + (local.map { "add \"\($0.name)\" to \(target.name)'s dependencies in Package.swift, or " }
                                        ?? "add the product that provides it to \(target.name)'s dependencies, or ")
                                    + "remove the import")
                }
                checked += 1
            }
        }
        #expect(problems.isEmpty, "\(problems.count) import(s) outside the declared graph:\n\(problems.joined(separator: "\n"))")
        #expect(checked > 300, "only \(checked) Swift files found in the targets' folders")
    }

    @Test("every Swift file under Sources, Tests and bench belongs to a target, so none escapes the check above")
    func everyFileHasATarget() async throws {
        let graph = try await PackageGraph.shared.value
        let owned = Set(graph.targets.flatMap(graph.swiftFiles(of:)))
        var strays: [String] = []
        for top in ["Sources", "Tests", "bench"] {
            let walker = FileManager.default.enumerator(atPath: PackageGraph.root.appendingPathComponent(top).path)
            while let file = walker?.nextObject() as? String {
                if file.hasSuffix(".swift"), !owned.contains("\(top)/\(file)") { strays.append("\(top)/\(file)") }
            }
        }
        #expect(strays.isEmpty, "Swift files no target in Package.swift builds: \(strays)")
    }

    @Test("the import reader skips comments and strings, and reads every form of import")
    func readsImportsAsTheCompilerDoes() {
        let source = #"""
            import Foundation
            @preconcurrency import Dispatch
            package import struct Model.TrackInfo
            @_spi(Testing) public import Loader.Remote
            // import Commented
            /* import Block /* nested */ import StillComment */
            let script = """
                import sys
                \(value("import NotCode")) import InString
                """
            let raw = #"import Raw "# ; let x = "\("nested \"quote\"") import AlsoString"
            #if canImport(FoundationXML)
              import FoundationXML
            #endif
            """#
        #expect(SwiftImports(source: source).imports == [
            .init(module: "Foundation", line: 1), .init(module: "Dispatch", line: 2), .init(module: "Model", line: 3),
            .init(module: "Loader", line: 4), .init(module: "FoundationXML", line: 13),
        ])
    }
}
