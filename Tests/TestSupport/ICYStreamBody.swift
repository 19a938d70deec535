import Foundation

/// A received ICY stream body taken apart the plain way — `metaint` audio bytes, a length byte L,
/// L × 16 bytes of metadata, again — so a test can say what a client should have made of the
/// bytes a server sent: the audio alone, and each block with where it came. The reference the
/// player's own ICY reader is checked against, and how the rig's tests read what curl got.
public struct ICYStreamBody: Sendable {
    /// The audio bytes, the metadata taken out.
    public let audio: Data
    public let blocks: [Block]
    /// The data ended inside a block (its length byte claimed more than came).
    public let endsInsideBlock: Bool

    public struct Block: Sendable, Equatable {
        /// How many audio bytes came before it.
        public let audioOffset: Int
        /// The length byte (the block is 16 × that).
        public let lengthByte: UInt8
        /// The block's bytes after the length byte, NUL padding and all (fewer than 16 × the
        /// length byte when the data ended first).
        public let content: Data

        /// The bytes between `StreamTitle='` and the `';` that ends it, or nil if the block has
        /// no StreamTitle.
        public var rawTitle: Data? {
            let opening = Data("StreamTitle='".utf8)
            guard let start = content.range(of: opening) else { return nil }
            let rest = content[start.upperBound...]
            let end = rest.range(of: Data("';".utf8))?.lowerBound ?? rest.firstIndex(of: 0) ?? rest.endIndex
            return Data(rest[..<end])
        }

        /// The title as text: UTF-8 if it is that, else Latin-1 (what the issue asks of a player).
        public var title: String? {
            rawTitle.map { raw in String(data: raw, encoding: .utf8) ?? String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) })) }
        }
    }

    public init(_ body: Data, metaint: Int) {
        precondition(metaint > 0, "ICY blocks need an interval above 0")
        var audio = Data(), blocks: [Block] = [], endsInsideBlock = false
        var index = body.startIndex
        while index < body.endIndex {
            let audioEnd = min(index + metaint, body.endIndex)
            audio.append(body[index..<audioEnd])
            index = audioEnd
            guard index < body.endIndex else { break }
            let length = body[index]
            let contentEnd = min(index + 1 + Int(length) * 16, body.endIndex)
            if index + 1 + Int(length) * 16 > body.endIndex { endsInsideBlock = true }
            blocks.append(Block(audioOffset: audio.count, lengthByte: length, content: Data(body[(index + 1)..<contentEnd])))
            index = contentEnd
        }
        (self.audio, self.blocks, self.endsInsideBlock) = (audio, blocks, endsInsideBlock)
    }

    /// The blocks that carry a title, with it: the title changes as a client sees them.
    public var titles: [(audioOffset: Int, title: String)] {
        blocks.compactMap { block in block.title.map { (block.audioOffset, $0) } }
    }
}
