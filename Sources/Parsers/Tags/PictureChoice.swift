import Model

/// Keeps the one picture a track shows: the first front cover (picture type 3) if the tag has
/// one, else the first picture of any type, so tags with many images still yield one.
package struct PictureChoice {
    private var first: Artwork?
    private var frontCover: Artwork?

    mutating func offer(_ artwork: Artwork, type: UInt32) {
        if first == nil { first = artwork }
        if type == 3 && frontCover == nil { frontCover = artwork }
    }

    mutating func offer(_ artwork: Artwork, type: UInt8) {
        offer(artwork, type: UInt32(type))
    }

    var chosen: Artwork? { frontCover ?? first }
}
