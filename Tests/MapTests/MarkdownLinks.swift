import Foundation

/// Links and headings of a Markdown page, as GitHub renders them — enough to tell a link that
/// leads nowhere after a section moved.
enum MarkdownLinks {
    /// The targets of `[text](target)` links outside code, but for web and mail addresses.
    static func targets(in markdown: String) -> [String] {
        var targets: [String] = []
        for line in prose(markdown) {
            var rest = line[...]
            while let close = rest.range(of: "](") {
                let after = rest[close.upperBound...]
                guard let end = after.firstIndex(of: ")") else { break }
                let target = String(after[..<end])
                if !target.contains("://"), !target.hasPrefix("mailto:") { targets.append(target) }
                rest = after[end...]
            }
        }
        return targets
    }

    /// "path#anchor" → (path, anchor).
    static func split(_ link: String) -> (path: String, anchor: String?) {
        guard let hash = link.firstIndex(of: "#") else { return (link, nil) }
        return (String(link[..<hash]), String(link[link.index(after: hash)...]))
    }

    /// A relative link of the page `file` as a path from the repository's root.
    static func resolve(_ path: String, from file: String) -> String {
        var parts = file.split(separator: "/").dropLast().map(String.init)
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    /// GitHub's anchors of the page's headings: lower case, punctuation dropped, spaces as `-`.
    static func anchors(in markdown: String) -> Set<String> {
        Set(prose(markdown).filter { $0.hasPrefix("#") }.map { heading in
            String(heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased().compactMap { character in
                character == " " ? "-" : character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            })
        })
    }

    /// The page's lines outside fenced code blocks.
    static func prose(_ markdown: String) -> [Substring] {
        var inCode = false
        return markdown.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") {
                inCode.toggle()
                return false
            }
            return !inCode
        }
    }
}
