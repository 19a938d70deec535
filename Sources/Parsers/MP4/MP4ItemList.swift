import Model

/// The iTunes tags of an `ilst` box: items named by four letters (`©nam`, `trkn`, `covr`, …)
/// or freeform (`----`, a `mean` and a `name`, as `com.apple.iTunes:replaygain_track_gain`), each
/// holding its value in a `data` box: a type (1 UTF-8, 13 JPEG, 14 PNG, 21 integer, 0 binary),
/// a locale, the value.
package enum MP4ItemList {
    /// `items`: each item's type and body (its child boxes), as read.
    static func tags(_ items: [(type: String, body: ArraySlice<UInt8>)]) -> TrackTags {
        var tags = TrackTags()
        var loudness = ReplayGainReader()
        for (type, body) in items {
            let children = (try? MP4Box.children(of: body, at: 0)) ?? []
            func content(_ type: String) -> ArraySlice<UInt8>? { children.first { $0.type == type }?.body(in: body, at: 0) }
            guard let data = content("data"), data.count >= 8 else { continue }
            let kind = Int(data[data.startIndex + 3])
            let value = data.dropFirst(8)
            let text = kind == 1 ? TextDecoding.nonEmpty(TextDecoding.utf8(value)) : nil
            switch type {
            case "\u{A9}nam": tags.title = tags.title ?? text
            case "\u{A9}ART": tags.artist = tags.artist ?? text
            case "\u{A9}alb": tags.album = tags.album ?? text
            case "aART": tags.albumArtist = tags.albumArtist ?? text
            case "\u{A9}day": tags.year = tags.year ?? text.flatMap(TagValue.year)
            case "\u{A9}gen": tags.genre = tags.genre ?? text
            case "gnre" where value.count >= 2:
                tags.genre = tags.genre ?? ID3Genre.name(Int(value[value.startIndex + 1]) - 1 + Int(value[value.startIndex]) * 256)
            case "trkn" where value.count >= 4:
                tags.trackNumber = tags.trackNumber ?? nonZero(value[value.startIndex + 2], value[value.startIndex + 3])
            case "disk" where value.count >= 4:
                tags.discNumber = tags.discNumber ?? nonZero(value[value.startIndex + 2], value[value.startIndex + 3])
            case "covr" where tags.artwork == nil && !value.isEmpty:
                tags.artwork = Artwork(data: Array(value), mimeType: kind == 14 ? "image/png" : "image/jpeg")
            case "----":
                guard let name = content("name"), name.count > 4, let text else { continue }
                let label = TextDecoding.utf8(name.dropFirst(4))
                if !loudness.take(label, text) { tags.offer(text, for: TextTagNames.mp4Freeform[label.uppercased()]) }
            default:
                break
            }
            tags.offer(text, for: TextTagNames.mp4Items[type])
        }
        tags.replayGain = loudness.gain
        return tags
    }

    /// The text of the freeform item `com.apple.iTunes:NAME` (`iTunSMPB`), if there is one.
    static func freeform(_ name: String, in items: [(type: String, body: ArraySlice<UInt8>)]) -> String? {
        for (type, body) in items where type == "----" {
            let children = (try? MP4Box.children(of: body, at: 0)) ?? []
            func content(_ type: String) -> ArraySlice<UInt8>? { children.first { $0.type == type }?.body(in: body, at: 0) }
            guard let label = content("name"), label.count > 4, TextDecoding.utf8(label.dropFirst(4)) == name,
                  let data = content("data"), data.count >= 8 else { continue }
            return TextDecoding.utf8(data.dropFirst(8))
        }
        return nil
    }

    private static func nonZero(_ high: UInt8, _ low: UInt8) -> Int? {
        let number = Int(high) << 8 | Int(low)
        return number > 0 ? number : nil
    }
}
