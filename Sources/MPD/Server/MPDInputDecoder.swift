import NIOCore

/// What the connection reads: whole lines, as many as came together (each with its newline), or
/// the sign that a client sent a line longer than its limit — after which nothing more is read
/// from it. Lines come in batches, not one by one: a client that pipelines (a command list of a
/// million lines) costs one hand-over per read, not one per line.
package enum MPDInput: Sendable, Equatable {
    case lines(ByteBuffer)
    case tooLong
}

/// Frames the byte stream into whole lines of at most the client's line limit (`MPDClientTerms`:
/// 64 KiB once let in, 4 KiB before). A longer one is not buffered beyond the limit: the client
/// is told off and closed (MPD closes a client whose line does not fit its input buffer), so no
/// client can make the server hold more than its limit of input.
struct MPDInputDecoder: ByteToMessageDecoder {
    typealias InboundOut = MPDInput

    let terms: MPDClientTerms
    private var overflowed = false
    /// The first bytes of what is buffered, known to hold no newline: each byte is looked at
    /// once, however slowly a line trickles in.
    private var searched = 0

    init(terms: MPDClientTerms) {
        self.terms = terms
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if overflowed {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        let limit = terms.current.lineLimit
        // The end of the last whole line, each line checked against the limit on the way.
        let (whole, longest) = buffer.withUnsafeReadableBytes { [searched] bytes -> (Int, Int) in
            var start = 0, end = 0, longest = 0, from = min(searched, bytes.count)
            while let newline = bytes[from...].firstIndex(of: 0x0A) {
                longest = max(longest, newline - start)
                start = newline + 1
                end = start
                from = start
            }
            return (end, max(longest, bytes.count - end))
        }
        guard longest <= limit else { return overflow(context: context, buffer: &buffer) }
        searched = buffer.readableBytes - whole
        guard whole > 0, let lines = buffer.readSlice(length: whole) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(.lines(lines)))
        return .continue
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
