import Config
import Foundation
import Testing
import TestSupport

/// The man pages against what the programs take: every table and key of the config file in
/// cloudplayerd(1), every command of `cloudplayerctl --help` in cloudplayerctl(1). A setting or
/// command added without its page fails here.
@Suite struct ManPageTests {
    private static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("packaging/man")

    /// The page as `man` shows it: wide, neither hyphenated nor justified, so a word is whole on its line.
    private func rendered(_ page: String) async throws -> String {
        try await ChildProcess.check("man", ["--nh", "--nj", "-P", "cat", "-l", Self.pages.appendingPathComponent(page).path],
                                     environment: ["MANWIDTH": "250", "LANG": "C.UTF-8"]).stdout
    }

    @Test("cloudplayerd(1) has a section for each table of the config file, and names each key the reader takes in it")
    func configurationTables() async throws {
        let text = try await rendered("cloudplayerd.1")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Where each table's section starts: its header alone on a line.
        let starts = ConfigKeys.tables.keys.map { table in
            (table, lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == (table == "source" ? "[[source]]" : "[\(table)]") })
        }
        for (table, start) in starts {
            let start = try #require(start, "no section [\(table)] in cloudplayerd(1)")
            // The section runs to the next header of either level (a line starting at the margin or at three spaces and '[').
            let end = lines[(start + 1)...].firstIndex { !$0.hasPrefix("    ") && !$0.isEmpty } ?? lines.endIndex
            let words = Set(lines[start..<end].joined(separator: " ")
                .split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            let missing = ConfigKeys.tables[table]!.subtracting(words).sorted()
            #expect(missing.isEmpty, "[\(table)] in cloudplayerd(1) does not name \(missing)")
        }
    }

    @Test("cloudplayerctl(1) describes each command and subcommand its --help lists")
    func controlCommands() async throws {
        let text = try await rendered("cloudplayerctl.1")
        // A command's entry: its words at the start of a line (indented), as .TP's tag sets them.
        let tags = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        // A tag may list several commands: "play, pause, toggle", "forward [duration], back [duration]".
        func described(_ command: String) -> Bool {
            tags.contains { tag in
                tag.components(separatedBy: ", ").contains { $0 == command || $0.hasPrefix(command + " ") || $0.hasPrefix(command + "|") }
            }
        }
        let commands = try await subcommands([])
        #expect(commands.count > 20, "\(commands)")
        var undescribed: [String] = []
        for command in commands {
            let nested = try await subcommands([command])
            for name in nested.isEmpty ? [command] : nested.map({ "\(command) \($0)" }) where !described(name) {
                undescribed.append(name)
            }
        }
        #expect(undescribed.isEmpty, "not in cloudplayerctl(1): \(undescribed)")
    }

    /// The names under SUBCOMMANDS in `cloudplayerctl [path] --help`.
    private func subcommands(_ path: [String]) async throws -> [String] {
        let help = try await ChildProcess.check(BuiltProducts.cloudplayerctl, path + ["--help"]).stdout
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        var names: [String] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty || !line.hasPrefix("  ") { break }
            // "  add                     Adds tracks …" (a long name has its description on the next line, deeper).
            guard !line.hasPrefix("    "), let name = line.split(separator: " ").first, name != "help" else { continue }
            names.append(String(name))
        }
        return names
    }
}
