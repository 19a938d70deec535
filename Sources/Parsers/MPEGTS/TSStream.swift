/// One elementary stream a PMT declares: where its packets come (PID) and what they carry.
package struct TSStream: Sendable, Equatable {
    package var pid: Int
    package var streamType: UInt8
    package var kind: TSStreamKind

    package init(pid: Int, streamType: UInt8, kind: TSStreamKind) {
        self.pid = pid
        self.streamType = streamType
        self.kind = kind
    }
}
