/// A chapter's own picture: one a podcast's chapter list carries, shown by media widgets while the
/// chapter plays in place of the track's cover.
package enum ChapterArt: Sendable, Hashable {
    /// In the file (an ID3v2 `CHAP` frame's `APIC`).
    case embedded(Artwork)
    /// Where to fetch it (a Podcasting 2.0 chapter's `img`), as an absolute URL.
    case link(String)
}
