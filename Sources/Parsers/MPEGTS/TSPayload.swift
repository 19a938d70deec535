/// The payload of one PES packet: for audio, whole ADTS or MPEG audio frames as the muxer cut
/// them (a frame may straddle two payloads); for ID3 metadata, one ID3v2 tag.
package struct TSPayload: Sendable, Equatable {
    package var kind: TSStreamKind
    package var pid: Int
    /// The presentation time of the payload's first access unit, in 90 kHz ticks (33 bits, so it
    /// wraps after 26.5 hours); nil when the PES header gives none.
    package var pts: Int64?
    package var bytes: [UInt8]

    package init(kind: TSStreamKind, pid: Int, pts: Int64?, bytes: [UInt8]) {
        self.kind = kind
        self.pid = pid
        self.pts = pts
        self.bytes = bytes
    }
}
