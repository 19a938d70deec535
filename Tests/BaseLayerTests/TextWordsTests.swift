import Base
import Testing

/// The words every message is built of: counts with their nouns, and the word a typo meant.
@Suite struct TextWordsTests {
    @Test("a count's noun is singular for one only: 0 tracks, 1 track, 2 tracks, 1 entry, 3 entries")
    func counts() {
        #expect(0.counted("track") == "0 tracks")
        #expect(1.counted("track") == "1 track")
        #expect(2.counted("folder") == "2 folders")
        #expect(UInt32(1).counted("playlist") == "1 playlist")
        #expect(1.counted("entry", plural: "entries") == "1 entry")
        #expect(3.counted("entry", plural: "entries") == "3 entries")
        #expect((-1).counted("second") == "-1 seconds")
    }

    @Test("did you mean: the nearest known word within a typo's reach (a letter missing, added, changed or two swapped), none beyond it")
    func nearestWord() {
        let keys = ["name", "type", "url", "username", "password_file", "password_command", "password_keyring", "tls_ca_file"]
        #expect(NearestWord.suggestion(for: "pasword_file", among: keys) == "password_file")
        #expect(NearestWord.suggestion(for: "password_flie", among: keys) == "password_file")
        #expect(NearestWord.suggestion(for: "usrname", among: keys) == "username")
        #expect(NearestWord.suggestion(for: "URL", among: keys) == "url")
        #expect(NearestWord.suggestion(for: "tyep", among: keys) == "type")
        #expect(NearestWord.suggestion(for: "size", among: ["max_size", "dir", "read_ahead", "fill"]) == nil)
        #expect(NearestWord.suggestion(for: "colour", among: keys) == nil)
        #expect(NearestWord.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
        #expect(NearestWord.editDistance(Array("".unicodeScalars), Array("abc".unicodeScalars)) == 3)
    }
}
