import Model
import NIOCore

/// The connection of `ICYReader`: sends the request once connected, gathers the answer's head up
/// to its blank line (at most `ICYHead.limit` bytes), hands over the head with the body, and then
/// passes the body on as its consumer takes it.
///
/// Back-pressure: a read the channel asks for is held while the consumer has enough waiting, so
/// TCP holds the station back rather than memory. A read let through that brings nothing within
/// `readTimeout` is an error ("the server stopped sending", as the HTTP client says it); a read
/// held for a paused consumer has no timeout — a paused station keeps its connection. The
/// consumer going away (done, cancelled, dropped) closes the connection at once.
final class ICYAnswerHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let request: ByteBuffer
    private let readTimeout: TimeAmount
    /// Fulfilled once: the head with the body, or why there is none. Nil once fulfilled.
    private var answer: EventLoopPromise<(ICYHead, PacedBody)>?
    /// The head's bytes so far.
    private var head = ByteBuffer()
    /// The body, kept until it is handed over: held after that, it would outlive its consumer,
    /// and a consumer that drops it would not close the connection.
    private var body: PacedBody?
    private var source: PacedBody.Source?
    private var context: ChannelHandlerContext?
    /// The consumer wants more; else a read asked for waits (`heldRead`).
    private var producing = true
    private var heldRead = false
    private var timeout: Scheduled<Void>?

    init(request: ByteBuffer, readTimeout: TimeAmount, answer: EventLoopPromise<(ICYHead, PacedBody)>) {
        self.request = request
        self.readTimeout = readTimeout
        self.answer = answer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        (body, source) = PacedBody.make(for: LoopDemand(handler: NIOLoopBound(self, eventLoop: context.eventLoop)))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        end(LoaderError.network("the connection closed"))
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(request), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        timeout?.cancel()
        timeout = nil
        var bytes = unwrapInboundIn(data)
        guard answer != nil else { return deliver(bytes) }
        head.writeBuffer(&bytes)
        guard let end = ICYHead.end(in: head.readableBytesView), end.head <= ICYHead.limit else {
            if head.readableBytes > ICYHead.limit {
                self.end(LoaderError.badResponse("the server's answer has more than \(ICYHead.limit >> 10) KiB of headers"))
            }
            return
        }
        let parsed: ICYHead
        do {
            parsed = try ICYHead(parsing: head.readableBytesView.prefix(end.head))
        } catch {
            return self.end(error)
        }
        let rest = head.getSlice(at: head.readerIndex + end.body, length: head.readableBytes - end.body)
        head = ByteBuffer()
        guard let answer = answer.take(), let body = body.take() else { return }
        answer.succeed((parsed, body))
        if let rest, rest.readableBytes > 0 { deliver(rest) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        end(answer == nil ? nil : LoaderError.network("the server closed the connection before it answered"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        end(error)
    }

    func read(context: ChannelHandlerContext) {
        guard producing else {
            heldRead = true
            return
        }
        startTimeout()
        context.read()
    }

    /// The consumer wants more: a read held goes on.
    func produceMore() {
        producing = true
        guard heldRead, let context else { return }
        heldRead = false
        startTimeout()
        context.read()
    }

    /// The consumer is gone: nobody reads the station any more.
    func consumerLeft() {
        source = nil
        context?.close(promise: nil)
    }

    private func deliver(_ bytes: ByteBuffer) {
        switch source?.yield(bytes) {
        case .produceMore, nil: break
        case .stopProducing: producing = false
        case .dropped: consumerLeft()
        }
    }

    /// Waits `readTimeout` for the read asked for (the head, or the body's next bytes).
    private func startTimeout() {
        guard timeout == nil, let context else { return }
        timeout = context.eventLoop.assumeIsolated().scheduleTask(in: readTimeout) { [self] in
            timeout = nil
            end(LoaderError.network(answer == nil ? "the server stopped sending" : "the server did not answer"))
        }
    }

    /// Ends the answer: fails it if it has not come (with `error`, or that the connection
    /// closed), else ends the body (with `error`, or as the stream's end), and closes the
    /// connection.
    private func end(_ error: (any Error)?) {
        timeout?.cancel()
        timeout = nil
        body = nil
        if let answer = answer.take() { answer.fail(error ?? LoaderError.network("the connection closed")) }
        if let source = source.take() {
            if let error { source.finish(error) } else { source.finish() }
        }
        context?.close(promise: nil)
    }
}

extension ICYAnswerHandler {
    /// Takes the body's demand to the handler on its event loop, where it lives.
    struct LoopDemand: PacedBodyReader {
        let handler: NIOLoopBound<ICYAnswerHandler>

        func consumerWantsMore() {
            handler.eventLoop.execute { handler.value.produceMore() }
        }

        func consumerLeft() {
            handler.eventLoop.execute { handler.value.consumerLeft() }
        }
    }
}
