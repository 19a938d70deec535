import Model

/// Chapters in Vorbis comments — Vorbis, Opus, FLAC — as the de facto convention writes them
/// (taken from Matroska's simple chapters, read by mpv, FFmpeg and foobar2000): `CHAPTER001=00:01:30.500`
/// gives a chapter's start, `CHAPTER001NAME=Title` its name. Numbers need not be consecutive;
/// a name without a start is no chapter. Order comes from the starts (`[Chapter].ordered`).
enum ChapterComments {
    /// The chapters of `KEY=value` comments.
    static func chapters(in comments: [ArraySlice<UInt8>]) -> [Chapter] {
        var starts: [Int: Double] = [:]
        var names: [Int: String] = [:]
        for comment in comments.prefix(VorbisComments.maxComments) {
            guard let equals = comment.firstIndex(of: UInt8(ascii: "=")), equals - comment.startIndex <= 32 else { continue }
            let key = TextDecoding.latin1(comment[..<equals]).uppercased()
            guard key.hasPrefix("CHAPTER") else { continue }
            let rest = key.dropFirst("CHAPTER".count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...4).contains(digits.count), let number = Int(digits) else { continue }
            let value = TextDecoding.utf8(comment[(equals + 1)...])
            switch rest.dropFirst(digits.count) {
            case "": if let start = ClockTime.seconds(value, plainSeconds: false) { starts[number] = start }
            case "NAME": names[number] = value
            default: continue
            }
        }
        return starts.keys.sorted().compactMap { number in
            starts[number].map { Chapter(start: $0, title: names[number] ?? "") }
        }
    }
}
