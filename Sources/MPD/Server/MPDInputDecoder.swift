import NIOCore

/// What the connection reads: a line (without its newline), or the sign that a client sent a
/// line longer than the limit — after which nothing more is read from it.
package enum MPDLine: Sendable, Equatable {
    case line([UInt8])
    case tooLong
}

/// Frames the byte stream into lines of at most `limit` bytes. A longer one is not buffered
/// beyond the limit: the client is told off and closed (MPD closes a client whose line does not
/// fit its input buffer), so no client can make the server hold more than `limit` of input.
struct MPDLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = MPDLine

    let limit: Int
    private var overflowed = false

    init(limit: Int) {
        self.limit = limit
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if overflowed {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        if let newline = buffer.readableBytesView.firstIndex(of: 0x0A) {
            let length = newline - buffer.readerIndex
            guard length <= limit else { return overflow(context: context, buffer: &buffer) }
            let line = buffer.readBytes(length: length) ?? []
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(wrapInboundOut(.line(line)))
            return .continue
        }
        if buffer.readableBytes > limit { return overflow(context: context, buffer: &buffer) }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // A last line without its newline is not a command (MPD waits for the newline too).
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }

    private mutating func overflow(context: ChannelHandlerContext, buffer: inout ByteBuffer) -> DecodingState {
        overflowed = true
        buffer.moveReaderIndex(to: buffer.writerIndex)
        context.fireChannelRead(wrapInboundOut(.tooLong))
        return .needMoreData
    }
}
