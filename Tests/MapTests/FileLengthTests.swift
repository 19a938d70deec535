import Foundation
import Testing

/// "No file over 400 lines": every program file of the package — Swift, C, Python, shell, and
/// any script with a `#!` line — under Sources, Tests, bench, packaging and dbus, but the
/// benchmarks' output (bench/out).
@Suite struct FileLengthTests {
    static let limit = 400
    static let extensions: Set = ["swift", "c", "h", "py", "sh"]
    static let dataFolders = ["bench/out/"]

    @Test("no program file has more than 400 lines")
    func noLongFiles() throws {
        var long: [String] = []
        var checked = 0
        for top in ["Sources", "Tests", "bench", "packaging", "dbus"] {
            let walker = FileManager.default.enumerator(atPath: PackageGraph.root.appendingPathComponent(top).path)
            while let name = walker?.nextObject() as? String {
                let path = "\(top)/\(name)"
                guard !Self.dataFolders.contains(where: path.hasPrefix),
                      let data = FileManager.default.contents(atPath: PackageGraph.root.appendingPathComponent(path).path),
                      Self.extensions.contains((name as NSString).pathExtension) || data.starts(with: Array("#!".utf8)) else { continue }
                checked += 1
                let lines = data.count { $0 == UInt8(ascii: "\n") }
                if lines > Self.limit { long.append("\(path): \(lines) lines") }
            }
        }
        #expect(long.isEmpty, "over \(Self.limit) lines: \(long)")
        #expect(checked > 500, "only \(checked) program files found")
    }
}
