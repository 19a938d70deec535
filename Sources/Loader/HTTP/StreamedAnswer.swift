import AsyncHTTPClient
import Base
import NIOCore
import NIOHTTP1

/// One answer read through the HTTP client's delegate API and handed over as its async API does
/// (an `HTTPClientResponse` whose body is a sequence), for the sake of one thing: the read
/// timeout. The client's own counts from the socket's last read, and the client stops reading
/// while a body part waits for its consumer — so a consumer held up for the timeout (the
/// loader's thread writing the cache on a busy disk) broke a download from a server that was
/// sending, and what sat in the socket buffers was fetched twice.
///
/// Here the clock runs only while the server is asked for bytes: from the request's end to the
/// head, and from each part the consumer had room for to the next. A part the consumer has no
/// room for holds the client's next read (back-pressure: TCP holds the server back, not memory)
/// and stops the clock until the consumer wants more. The consumer going away (done, cancelled,
/// the body dropped) cancels the request, which closes its connection.
final class StreamedAnswer: HTTPClientResponseDelegate, PacedBodyReader {
    typealias Response = Void

    private struct State {
        /// Fulfilled once, with the head or why there is none.
        var head: EventLoopPromise<HTTPClientResponse>?
        /// Kept until the head hands it over.
        var body: PacedBody?
        /// Nil once the body has ended or its consumer left.
        var source: PacedBody.Source?
        /// The client's next read, held while the consumer has enough.
        var held: EventLoopPromise<Void>?
        /// The consumer asked for more before a part that found it full could hold the read.
        var demanded = false
        var task: HTTPClient.Task<Void>?
        var clock: Scheduled<Void>?
        /// Which start of the clock is current: one that fires late after being stopped is ignored.
        var clockStart = 0
    }

    private let state = Locked(State())
    private let loop: any EventLoop
    private let readTimeout: TimeAmount
    /// What the answer is to: its `url` (a playlist's segments are relative to it).
    private let url: String

    private init(loop: any EventLoop, readTimeout: TimeAmount, url: String) {
        self.loop = loop
        self.readTimeout = readTimeout
        self.url = url
    }

    /// Sends `request` with `client` and returns once the answer's head has come; `readTimeout`:
    /// the longest the server may be silent while asked for bytes. Cancelling the calling task
    /// before the head cancels the request.
    static func execute(_ request: HTTPClient.Request, on client: HTTPClient, readTimeout: TimeAmount) async throws -> HTTPClientResponse {
        let loop = client.eventLoopGroup.next()
        let answer = StreamedAnswer(loop: loop, readTimeout: readTimeout, url: request.url.absoluteString)
        let head = loop.makePromise(of: HTTPClientResponse.self)
        let made = PacedBody.make(for: answer)
        answer.state.withLock { state in
            state.head = head
            state.body = made.body
            state.source = made.source
        }
        let task = client.execute(request: request, delegate: answer, eventLoop: .delegate(on: loop), deadline: nil)
        // The task's own end too: a client already shutting down fails it without a word to the
        // delegate, and the head would be waited for for ever.
        task.futureResult.whenComplete { result in
            if case .failure(let error) = result { answer.end(error) } else { answer.end(nil) }
        }
        return try await withTaskCancellationHandler {
            try await head.futureResult.get()
        } onCancel: {
            task.cancel()
        }
    }

    func didSendRequest(task: HTTPClient.Task<Void>) {
        let waiting = state.withLock { state in
            state.task = task
            return state.head != nil
        }
        if waiting { startClock() }
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let (promise, body) = state.withLock { state in
            state.task = task
            return (state.head.take(), state.body.take())
        }
        if let promise, let body {
            promise.succeed(HTTPClientResponse(version: head.version, status: head.status, headers: head.headers, body: .stream(body),
                                               history: [HTTPClientRequestResponse(request: HTTPClientRequest(url: url), responseHead: head)]))
        }
        startClock()
        return loop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        stopClock()
        let source = state.withLock { state in
            state.demanded = false
            return state.source
        }
        switch source?.yield(buffer) {
        case .produceMore?:
            startClock()
            return loop.makeSucceededVoidFuture()
        case .stopProducing?:
            let promise = loop.makePromise(of: Void.self)
            let goOn = state.withLock { state in
                guard !state.demanded else { return true }
                state.held = promise
                return false
            }
            guard goOn else { return promise.futureResult }
            promise.succeed()
            startClock()
            return promise.futureResult
        case .dropped?, nil:
            // The consumer is gone; its leaving cancels the request.
            return loop.makeSucceededVoidFuture()
        }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        end(error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        end(nil)
    }

    /// The consumer wants more: a read held goes on, and the clock with it.
    func consumerWantsMore() {
        let held = state.withLock { state in
            guard let held = state.held.take() else {
                state.demanded = true
                return nil as EventLoopPromise<Void>?
            }
            return held
        }
        guard let held else { return }
        startClock()
        held.succeed()
    }

    /// The consumer is gone (done, cancelled, dropped): the request is cancelled, which closes
    /// its connection (a no-op for one that has ended).
    func consumerLeft() {
        let task = state.withLock { state in
            state.source = nil
            return state.task
        }
        task?.cancel()
    }

    private func startClock() {
        let (task, start) = state.withLock { state in
            state.clockStart += 1
            return (state.task, state.clockStart)
        }
        guard let task else { return }
        let clock = loop.scheduleTask(in: readTimeout) { [self] in
            guard state.withLock({ $0.clockStart == start }) else { return }
            task.fail(reason: HTTPClientError.readTimeout)
        }
        let earlier = state.withLock { state in
            defer { state.clock = clock }
            return state.clock
        }
        earlier?.cancel()
    }

    private func stopClock() {
        state.withLock { state in
            state.clockStart += 1
            return state.clock.take()
        }?.cancel()
    }

    /// The request has ended: the head, if it has not come, fails; the body ends (with `error`,
    /// or as the answer's end); a held read is let go.
    private func end(_ error: (any Error)?) {
        stopClock()
        let (head, source, held) = state.withLock { state in
            state.task = nil
            state.body = nil
            return (state.head.take(), state.source.take(), state.held.take())
        }
        head?.fail(error ?? HTTPClientError.remoteConnectionClosed)
        if let error {
            source?.finish(error)
            held?.fail(error)
        } else {
            source?.finish()
            held?.succeed()
        }
    }
}
