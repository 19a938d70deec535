/// Takes the ICY metadata blocks out of a stream's body: after every `interval` bytes of audio
/// comes one length byte (×16) and that many bytes of metadata. The body arrives in reads of any
/// size, so a block — or its length byte — may straddle two reads; this keeps its place between
/// them. Each block is reported at the audio offset it came at (the bytes of audio before it),
/// which is where its title begins to be heard.
package struct ICYDemuxer: Sendable {
    /// A metadata block and the audio offset it belongs at.
    package struct Block: Sendable, Equatable {
        package var audioOffset: Int64
        package var metadata: ICYMetadata
    }

    /// Intervals servers use are 8 KiB to 32 KiB (SHOUTcast 8192, Icecast 16000); one beyond this
    /// is a server that lies, whose "metadata" would be audio cut out.
    package static let largestInterval = 1 << 20

    /// Audio bytes between blocks.
    package let interval: Int
    /// Audio bytes until the next length byte.
    private var untilBlock: Int
    /// The block being gathered: its length, and what of it has come.
    private var block: (length: Int, bytes: [UInt8])?
    /// Audio bytes passed on so far.
    package private(set) var audioOffset: Int64 = 0

    /// Nil for an interval no server uses (0, negative, or past `largestInterval`): the stream is
    /// then taken as audio only.
    package init?(interval: Int) {
        guard interval > 0, interval <= Self.largestInterval else { return nil }
        self.interval = interval
        untilBlock = interval
    }

    /// Splits `bytes` into the audio, appended to `audio`, and the blocks that were completed,
    /// returned in order. An empty block (length 0: the title did not change) is not reported.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer, audio: inout [UInt8]) -> [Block] {
        var blocks: [Block] = []
        var index = 0
        while index < bytes.count {
            if var pending = block {
                let take = min(pending.length - pending.bytes.count, bytes.count - index)
                pending.bytes.append(contentsOf: bytes[index..<index + take])
                index += take
                if pending.bytes.count == pending.length {
                    block = nil
                    blocks.append(Block(audioOffset: audioOffset, metadata: ICYMetadata(pending.bytes)))
                } else {
                    block = pending
                }
            } else if untilBlock == 0 {
                let length = Int(bytes[index]) * 16
                index += 1
                untilBlock = interval
                if length > 0 { block = (length, []) }
            } else {
                let take = min(untilBlock, bytes.count - index)
                audio.append(contentsOf: bytes[index..<index + take])
                index += take
                untilBlock -= take
                audioOffset += Int64(take)
            }
        }
        return blocks
    }
}
