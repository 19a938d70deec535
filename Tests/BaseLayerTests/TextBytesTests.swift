import Base
import Testing

/// Strings compared as bytes (`hasSameBytes`, `hasBytePrefix`): what the MPD server's song
/// catalog and `SongPaths` take a folder's text for, as SQLite does.
@Suite struct TextBytesTests {
    @Test("same bytes, not same characters: an é and an e with a combining accent differ; prefixes by bytes")
    func bytesNotCharacters() {
        let composed = "cloudplayer://box/Caf\u{E9}/", decomposed = "cloudplayer://box/Cafe\u{301}/"
        #expect(composed == decomposed, "Swift's == takes them as equal")
        #expect(!composed.hasSameBytes(as: decomposed) && composed.hasSameBytes(as: "cloudplayer://box/Caf\u{E9}/"))
        #expect(!(composed + "a.mp3").hasBytePrefix(decomposed) && (composed + "a.mp3").hasBytePrefix(composed))
        #expect("abc".hasBytePrefix("") && !"ab".hasBytePrefix("abc") && !"abc".hasSameBytes(as: "ab") && "".hasSameBytes(as: ""))
        // A string not stored as UTF-8 of its own (a substring's copy is; a bridged one would not be).
        let sliced = String("xxfile:///a/b/".dropFirst(2))
        #expect(sliced.hasSameBytes(as: "file:///a/b/") && "file:///a/b/c.mp3".hasBytePrefix(sliced))
    }
}
