import Foundation
import TestSupport

/// The targets as SwiftPM reads Package.swift (`swift package dump-package`, which compiles the
/// manifest but resolves nothing), with their direct dependencies and where their files are.
struct PackageGraph: Sendable {
    enum Kind: String, Sendable { case regular, executable, test, system, plugin, macro, binary }

    enum Dependency: Hashable, Sendable {
        /// A target of this package, or a product of the same name from a dependency.
        case byName(String)
        case product(String, package: String)
    }

    struct Target: Sendable {
        var name: String
        var kind: Kind
        /// Relative to the package root.
        var path: String
        var dependencies: [Dependency]
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    let targets: [Target]

    subscript(name: String) -> Target? { targets.first { $0.name == name } }

    /// The graph, read once for every test that asks.
    static let shared = Task { try await load() }

    /// Reads the manifest in a folder of its own: `swift test` holds the package's `.build` lock,
    /// and a manifest alone is all dump-package needs.
    static func load() async throws -> PackageGraph {
        let folder = try ScratchSpace.directory()
        try FileManager.default.copyItem(at: root.appendingPathComponent("Package.swift"),
                                         to: folder.appendingPathComponent("Package.swift"))
        let dump = try await ChildProcess.check("swift", ["package", "--package-path", folder.path, "dump-package"])
        return try PackageGraph(json: Data(dump.stdout.utf8))
    }

    init(json: Data) throws {
        guard let manifest = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let targets = manifest["targets"] as? [[String: Any]] else {
            throw TestSupportError("dump-package printed no targets")
        }
        self.targets = try targets.map { target in
            guard let name = target["name"] as? String, let kind = (target["type"] as? String).flatMap(Kind.init) else {
                throw TestSupportError("a target of dump-package's output has no name or kind: \(target)")
            }
            let path = (target["path"] as? String) ?? "\(kind == .test ? "Tests" : kind == .plugin ? "Plugins" : "Sources")/\(name)"
            let dependencies = try ((target["dependencies"] as? [[String: Any]]) ?? []).map { dependency in
                if let byName = (dependency["byName"] ?? dependency["target"]) as? [Any], let name = byName.first as? String {
                    return Dependency.byName(name)
                }
                if let product = dependency["product"] as? [Any], let name = product.first as? String,
                   let package = product.dropFirst().first as? String {
                    return Dependency.product(name, package: package)
                }
                throw TestSupportError("\(name): a dependency of a kind this test does not know: \(dependency)")
            }
            return Target(name: name, kind: kind, path: path, dependencies: dependencies)
        }
    }

    /// The module a target builds: its name as C can spell it, or what its module map declares.
    func module(of target: Target) -> String {
        let map = Self.root.appendingPathComponent(target.path).appendingPathComponent("module.modulemap")
        if let text = try? String(contentsOf: map, encoding: .utf8),
           let declared = text.split(whereSeparator: \.isWhitespace).drop(while: { $0 != "module" }).dropFirst().first {
            return String(declared)
        }
        return String(target.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// Every Swift file of a target, relative to the package root.
    func swiftFiles(of target: Target) -> [String] {
        let folder = Self.root.appendingPathComponent(target.path)
        let walker = FileManager.default.enumerator(atPath: folder.path)
        var files: [String] = []
        while let file = walker?.nextObject() as? String {
            if file.hasSuffix(".swift") { files.append("\(target.path)/\(file)") }
        }
        return files.sorted()
    }

    /// The folders directly inside a target's folder (`include/`, a C target's headers, is not one
    /// of the target's own parts).
    func subfolders(of target: Target) -> Set<String> {
        let folder = Self.root.appendingPathComponent(target.path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Set(names.filter { name in
            var isFolder: ObjCBool = false
            return name != "include"
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        })
    }
}
