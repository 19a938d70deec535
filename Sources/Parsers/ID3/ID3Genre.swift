/// Names the numbered genres of ID3v1 and of ID3v2's "(17)" references, so that a library shows
/// "Rock" rather than a number.
package enum ID3Genre {
    /// The genre a TCON/TCO value or ID3v1 byte means: "(17)" and "17" become their names,
    /// "(17)Rock" keeps its text, "(RX)"/"(CR)" are Remix/Cover, anything else is itself.
    package static func resolve(_ text: String) -> String? {
        guard var rest = TextDecoding.nonEmpty(text) else { return nil }
        var references: [String] = []
        // "(17)(18)Text": references in parentheses first, then an optional refinement.
        while rest.hasPrefix("("), !rest.hasPrefix("(("), let close = rest.firstIndex(of: ")"), references.count < 16 {
            let inner = String(rest[rest.index(after: rest.startIndex)..<close])
            references.append(inner)
            rest = String(rest[rest.index(after: close)...])
        }
        if rest.hasPrefix("((") { rest.removeFirst() }
        if let refinement = TextDecoding.nonEmpty(rest) {
            return name(forNumber: refinement) ?? refinement
        }
        for reference in references {
            if let named = name(forNumber: reference) { return named }
            if reference == "RX" { return "Remix" }
            if reference == "CR" { return "Cover" }
        }
        return nil
    }

    /// The name of genre number `text` ("17" → "Rock"), nil if it is not such a number.
    static func name(forNumber text: String) -> String? {
        guard text.count <= 3, !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = Int(text) else { return nil }
        return name(number)
    }

    static func name(_ number: Int) -> String? {
        names.indices.contains(number) ? names[number] : nil
    }

    /// ID3v1's genres 0–79 and Winamp's extensions up to 147.
    private static let names: [String] = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial",
        "Alternative", "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop",
        "Vocal", "Jazz+Funk", "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game",
        "Sound Clip", "Gospel", "Noise", "Alternative Rock", "Bass", "Soul", "Punk", "Space", "Meditative",
        "Instrumental Pop", "Instrumental Rock", "Ethnic", "Gothic", "Darkwave", "Techno-Industrial",
        "Electronic", "Pop-Folk", "Eurodance", "Dream", "Southern Rock", "Comedy", "Cult", "Gangsta", "Top 40",
        "Christian Rap", "Pop/Funk", "Jungle", "Native American", "Cabaret", "New Wave", "Psychedelic", "Rave",
        "Showtunes", "Trailer", "Lo-Fi", "Tribal", "Acid Punk", "Acid Jazz", "Polka", "Retro", "Musical",
        "Rock & Roll", "Hard Rock",
        "Folk", "Folk-Rock", "National Folk", "Swing", "Fast Fusion", "Bebop", "Latin", "Revival", "Celtic",
        "Bluegrass", "Avantgarde", "Gothic Rock", "Progressive Rock", "Psychedelic Rock", "Symphonic Rock",
        "Slow Rock", "Big Band", "Chorus", "Easy Listening", "Acoustic", "Humour", "Speech", "Chanson", "Opera",
        "Chamber Music", "Sonata", "Symphony", "Booty Bass", "Primus", "Porn Groove", "Satire", "Slow Jam",
        "Club", "Tango", "Samba", "Folklore", "Ballad", "Power Ballad", "Rhythmic Soul", "Freestyle", "Duet",
        "Punk Rock", "Drum Solo", "A Cappella", "Euro-House", "Dance Hall", "Goa", "Drum & Bass", "Club-House",
        "Hardcore", "Terror", "Indie", "BritPop", "Afro-Punk", "Polsk Punk", "Beat", "Christian Gangsta Rap",
        "Heavy Metal", "Black Metal", "Crossover", "Contemporary Christian", "Christian Rock", "Merengue",
        "Salsa", "Thrash Metal", "Anime", "JPop", "Synthpop",
    ]
}
