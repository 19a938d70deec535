import NIOCore

/// Closes a client that has been silent for its `MPDClientTerms.timeout`: it sent no line, and
/// took none of its answer (a write that reached the socket), for that long — unless it waits in
/// `idle`, where silence is what MPD expects. A client that sends half a line and stops, or asks
/// for an answer and never reads it, is closed after the timeout like one that says nothing; MPD
/// counts only whole lines too.
///
/// One timer per client, set to the deadline and moved on when it finds activity since: no
/// wake-up while clients are busy, one per timeout while they are silent.
final class MPDSilenceHandler: ChannelDuplexHandler {
    typealias InboundIn = MPDInput
    typealias InboundOut = MPDInput
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let terms: MPDClientTerms
    private var lastActivity = NIODeadline.now()
    private var timer: Scheduled<Void>?

    init(terms: MPDClientTerms) {
        self.terms = terms
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        lastActivity = .now()
        arm(context, at: lastActivity + TimeAmount(terms.current.timeout))
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActivity = .now()
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenSuccess { [self] in lastActivity = .now() }
        context.write(data, promise: written)
    }

    private func arm(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            fire(context)
        }
    }

    private func fire(_ context: ChannelHandlerContext) {
        let terms = terms.current
        let timeout = TimeAmount(terms.timeout)
        let now = NIODeadline.now()
        if terms.idling { lastActivity = now }
        if lastActivity + timeout > now {
            arm(context, at: lastActivity + timeout)
        } else {
            timer = nil
            context.close(promise: nil)
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
