/// One ICY metadata block (SHOUTcast's in-band titles, also sent by Icecast): text such as
/// `StreamTitle='Artist - Title';StreamUrl='…';`, padded with NULs to a multiple of 16 bytes.
///
/// There is no escaping in the format, and titles hold quotes ("Guns N' Roses"), so a value ends
/// at the last `';` before the next `Key='` or the end, not at the first quote.
package struct ICYMetadata: Sendable, Equatable {
    /// `StreamTitle`, nil when the block has none (a block that only moves `StreamUrl`).
    package var streamTitle: String?
    package var streamURL: String?

    package init(streamTitle: String? = nil, streamURL: String? = nil) {
        self.streamTitle = streamTitle
        self.streamURL = streamURL
    }

    /// Reads a block's bytes: UTF-8 if they are valid, else ISO-8859-1 (what older servers send).
    package init(_ bytes: some Collection<UInt8>) {
        let text = bytes.prefix { $0 != 0 }
        let decoded = String(validating: Array(text), as: UTF8.self) ?? TextDecoding.latin1(text)
        let fields = Self.fields(of: decoded)
        streamTitle = fields["streamtitle"]
        streamURL = fields["streamurl"]
    }

    /// The title split as stations write it, "Artist - Title" on the first " - "; without one,
    /// the whole text is the title. Nil for an empty title (a station between songs).
    package var song: (artist: String?, title: String)? {
        guard let text = streamTitle.flatMap(TextDecoding.nonEmpty) else { return nil }
        guard let dash = text.firstRange(of: " - ") else { return (nil, text) }
        let artist = TextDecoding.nonEmpty(String(text[..<dash.lowerBound]))
        guard let title = TextDecoding.nonEmpty(String(text[dash.upperBound...])) else { return (nil, text) }
        return (artist, title)
    }

    /// `Key='value';` pairs, keys lower-cased.
    private static func fields(of text: String) -> [String: String] {
        var fields: [String: String] = [:]
        let characters = Array(text)
        var index = 0
        while let start = keyStart(in: characters, from: index) {
            let key = String(characters[start.key..<start.valueStart - 2]).lowercased()
            // The value runs to the last `';` before the next `Key='`, else to the last `'`.
            let next = keyStart(in: characters, from: start.valueStart)?.key ?? characters.count
            var end = next
            while end > start.valueStart, characters[end - 1] != "'" { end -= 1 }
            // No closing quote (a block cut short): the rest is the value.
            let valueEnd = end > start.valueStart ? end - 1 : next
            if fields[key] == nil { fields[key] = String(characters[start.valueStart..<valueEnd]) }
            index = max(next, start.valueStart)
            if next == characters.count { break }
        }
        return fields
    }

    /// Where the next `Key='` begins at or after `from`: a key is letters, at the text's start
    /// or right after a `;`.
    private static func keyStart(in characters: [Character], from: Int) -> (key: Int, valueStart: Int)? {
        var index = from
        while index < characters.count {
            if index == 0 || characters[index - 1] == ";" {
                var cursor = index
                while cursor < characters.count, characters[cursor].isLetter { cursor += 1 }
                if cursor > index, cursor + 1 < characters.count, characters[cursor] == "=", characters[cursor + 1] == "'" {
                    return (index, cursor + 2)
                }
            }
            index += 1
        }
        return nil
    }
}
