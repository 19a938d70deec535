import Foundation

/// An HTTP/1.1 reverse proxy on 127.0.0.1 that sits between the player and a real server, counts
/// every body byte it passes on, and misbehaves on request.
///
/// Each connection carries one request (`Connection: close` both ways), served on a thread of
/// its own with blocking sockets: simple enough to trust, and it runs inside the test process, so
/// it goes away with it. Faults are queued: each one is used up by the next response it applies
/// to, which lets a test say "reset the next two downloads" and then watch the player recover.
public final class FaultProxy: @unchecked Sendable {
    public let port: Int
    private let originPort: Int
    /// The listening socket, replaced when connections are taken again.
    private var listener: Int32?
    private let state = NSLock()
    private var faults: [Fault] = []
    private var ignoresRange = false
    private var weakensETags = false
    private var bytesPerSecond: Int?
    private var latency: Double = 0
    /// Percent of requests that meet a random fault (the soak's weather).
    private var chaos = 0
    private var exchanges: [Exchange] = []
    /// When the log was last cleared: a request that arrived before is not logged when it finishes.
    private var clearedAt: ContinuousClock.Instant?
    private var redirectGETs: String?
    private var originAuthorization: String?
    private var open = 0
    private var mostOpen = 0

    /// Starts a proxy in front of `origin` (a server on 127.0.0.1 at that port).
    public init(originPort: Int) throws {
        self.originPort = originPort
        let (fd, port) = try Self.listen(port: 0)
        listener = fd
        self.port = port
        startAccepting(fd)
    }

    /// A listening socket on 127.0.0.1 at `port` (0: any free one), and its port.
    private static func listen(port: Int) throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("proxy: socket failed") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 64) == 0 else {
            close(fd)
            throw TestSupportError("proxy: cannot listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    private func startAccepting(_ fd: Int32) {
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "fault-proxy"
        thread.start()
    }

    /// `http://127.0.0.1:PORT/` — the server's root, through the proxy.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    // MARK: Controls

    /// Queues faults; each is spent on the next response that carries a body (or, for `.status`,
    /// the next request).
    public func inject(_ newFaults: Fault...) {
        state.withLock { faults += newFaults }
    }

    /// Faults not yet spent.
    public var pendingFaults: [Fault] { state.withLock { faults } }

    /// When on, the proxy strips `Range` and `If-Range`, so the server answers 200 with the whole file.
    public func setIgnoresRange(_ on: Bool) {
        state.withLock { ignoresRange = on }
    }

    /// When on, every `ETag` header the server gives is passed on weak (`W/"…"`), as many web
    /// frameworks tag every answer (a PROPFIND's `getetag`, in its body, passes as it is): no
    /// If-Range may carry it, and a cached copy must still be recognised.
    public func setWeakensETags(_ on: Bool) {
        state.withLock { weakensETags = on }
    }

    /// Caps the body rate (nil: as fast as the loopback goes).
    public func setRate(bytesPerSecond rate: Int?) {
        state.withLock { bytesPerSecond = rate }
    }

    /// Delays every answer by this many seconds (a round trip to a distant server).
    public func setLatency(seconds: Double) {
        state.withLock { latency = seconds }
    }

    /// From now on, `percent` % of requests meet a random fault: a reset or a stall somewhere in
    /// the body, or a 503.
    public func setChaos(percent: Int) {
        state.withLock { chaos = percent }
    }

    /// From now on every GET is answered 302 to `base` + its path + `?signature=…` (a signed URL
    /// on another host, as a cloud's download link is); nil: no more.
    public func setRedirectGETs(to base: String?) {
        state.withLock { redirectGETs = base }
    }

    /// Requests that come with a signed URL (`?signature=` in their query) are passed on with
    /// this `Authorization` and without the query: the host that serves signed links knows the
    /// storage's credentials, the player does not send them.
    public func setServesSignedURLs(authorization: String?) {
        state.withLock { originAuthorization = authorization }
    }

    /// The most requests this proxy has been serving at once.
    public var mostConcurrentRequests: Int { state.withLock { mostOpen } }

    /// Every request so far, in the order they arrived (each is logged once it is answered).
    public var log: [Exchange] { state.withLock { exchanges } }

    /// Body bytes sent to the player so far, for GET requests.
    public var bodyBytesSent: Int { log.filter { $0.method == "GET" }.reduce(0) { $0 + $1.bodyBytes } }

    /// Stops listening: the server is gone, connections are refused.
    public func stop() {
        // Taken, so that a second stop closes nothing: the number may by then be another
        // part's descriptor (an event loop's socket, whose next epoll_ctl would crash the run).
        let fd = state.withLock { listener.take() }
        guard let fd else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    /// Refuses connections (the network is down: `connect` fails at once), or takes them again
    /// on the same port.
    public func refuseConnections(_ refusing: Bool) throws {
        if refusing { return stop() }
        let (fd, _) = try Self.listen(port: port)
        state.withLock { listener = fd }
        startAccepting(fd)
    }

    /// The log once no request is being served (at most a minute from now): an exchange is logged
    /// as the proxy finishes relaying it, which may be just after its client read the answer.
    public func settledLog() async -> [Exchange] {
        for _ in 0..<1200 where state.withLock({ open > 0 }) {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return log
    }

    /// Forgets the exchanges so far, also those still being relayed (an exchange is logged as it
    /// finishes, which may be after its client has what it asked for and the test moved on).
    public func clearLog() {
        state.withLock {
            exchanges.removeAll()
            clearedAt = .now
        }
    }

    // MARK: Serving

    private func acceptLoop(_ listener: Int32) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in
                serve(client)
                close(client)
            }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        guard var request = HTTPHead.read(from: client) else { return }
        let arrived = ContinuousClock.now
        let (ignoring, rate, delay, weather, redirect, signedAuthorization, weakening) = state.withLock {
            open += 1
            mostOpen = max(mostOpen, open)
            return (ignoresRange, bytesPerSecond, latency, chaos, redirectGETs, originAuthorization, weakensETags)
        }
        defer { state.withLock { open -= 1 } }
        if weather > 0, Int.random(in: 0..<100) < weather {
            let faults: [Fault] = [.reset(afterBytes: Int.random(in: 0..<200_000)),
                                   .stall(afterBytes: Int.random(in: 0..<200_000), seconds: 3), .status(503)]
            inject(faults.randomElement()!)
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        var record = (status: 0, bytes: 0, etag: String?.none)
        let asked = request
        var logged = false
        // Logged before the answer's last byte is passed on, so that a client holding the whole
        // answer finds it in the log; an answer cut short is logged as it ends.
        func log() {
            guard !logged else { return }
            logged = true
            state.withLock {
                // An exchange still being relayed when the log was cleared belongs to before.
                if let clearedAt, arrived < clearedAt { return }
                // Placed by arrival, not by finishing: a client may read an answer and send its
                // next request before this thread has logged the first.
                let exchange = Exchange(method: asked.method, path: asked.target, range: asked["range"],
                                        ifRange: asked["if-range"], authorization: asked["authorization"],
                                        acceptEncoding: asked["accept-encoding"], status: record.status, bodyBytes: record.bytes,
                                        at: arrived, etag: record.etag)
                exchanges.insert(exchange, at: exchanges.lastIndex { $0.at <= arrived }.map { $0 + 1 } ?? 0)
            }
        }
        defer { log() }
        if let redirect, request.method == "GET" {
            record.status = 302
            log()
            _ = Self.send(client, "HTTP/1.1 302 Found\r\nLocation: \(redirect)\(request.target)?signature=\(UUID().uuidString)\r\n"
                          + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        if let signedAuthorization, let query = request.target.firstIndex(of: "?"), request.target[query...].contains("signature=") {
            let parts = request.startLine.split(separator: " ", maxSplits: 2)
            request.startLine = "\(request.method) \(request.target[..<query]) \(parts.count > 2 ? parts[2] : "HTTP/1.1")"
            request.headers.removeAll { $0.name.lowercased() == "authorization" }
            request.headers.append((name: "Authorization", value: signedAuthorization))
        }
        if case .busy(let code, let seconds, let asDate)? = takeFault(where: {
            if case .busy = $0 { request.method == "GET" } else { false }
        }) {
            record.status = code
            let now = Date()
            let retryAfter = asDate ? Self.httpDate(now.addingTimeInterval(Double(seconds))) : String(seconds)
            log()
            _ = Self.send(client, "HTTP/1.1 \(code) Busy\r\nDate: \(Self.httpDate(now))\r\nRetry-After: \(retryAfter)\r\n"
                          + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        if case .redirect(let base)? = takeFault(where: { if case .redirect = $0 { true } else { false } }) {
            record.status = 302
            log()
            _ = Self.send(client, "HTTP/1.1 302 Found\r\nLocation: \(base)\(request.target)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        if case .answer(_, let code, let body, let extra)? = takeFault(where: {
            if case .answer(let method, _, _, _) = $0 { method == request.method } else { false }
        }) {
            record.status = code
            record.bytes = body.utf8.count
            log()
            _ = Self.send(client, "HTTP/1.1 \(code) Answered\r\nContent-Type: application/xml; charset=utf-8\r\n"
                          + extra.map { "\($0)\r\n" }.joined()
                          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            return
        }
        if case .status(let code)? = takeFault(where: { if case .status = $0 { true } else { false } }) {
            record.status = code
            log()
            _ = Self.send(client, "HTTP/1.1 \(code) Injected\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        var forwarded = request
        forwarded.headers.removeAll { ["connection", "keep-alive", "proxy-connection"].contains($0.name.lowercased()) }
        if ignoring { forwarded.headers.removeAll { ["range", "if-range"].contains($0.name.lowercased()) } }
        forwarded.headers.append((name: "Connection", value: "close"))

        let origin = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(origin) }
        if rate != nil {
            // A paced body is taken from the origin about as fast as it is passed on, not
            // swallowed whole into a loopback buffer: what the origin does (a freeze) is felt.
            var small: Int32 = 8192
            setsockopt(origin, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = Self.loopback(port: originPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(origin, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, Self.send(origin, forwarded.serialized), Self.relay(request.leftover, request.contentLength,
                                                                                   from: client, to: origin) else { return }
        guard var response = HTTPHead.read(from: origin) else { return }
        record.status = response.statusCode
        if weakening, let tag = response["etag"], !tag.hasPrefix("W/") { response.setHeader("ETag", "W/" + tag) }
        record.etag = response["etag"]
        let declared = response.contentLength
        let fault = declared.map { $0 > 0 } == true ? takeFault(where: { fault in
            switch fault {
            case .status, .redirect, .answer, .busy: false
            default: true
            }
        }) : nil
        if case .lyingLength(let extra)? = fault, let declared {
            response.setHeader("Content-Length", String(declared + extra))
        }
        response.headers.removeAll { $0.name.lowercased() == "connection" }
        response.headers.append((name: "Connection", value: "close"))
        // No body to come (a HEAD, an empty answer): the head is the answer's end.
        if request.method == "HEAD" || declared == 0 || [204, 304].contains(record.status) { log() }
        guard Self.send(client, response.serialized) else { return }

        // The body: whatever came with the head, then the rest of the origin's stream.
        var pending = response.leftover
        var buffer = [UInt8](repeating: 0, count: 16384)
        var sent = 0
        var stalled = false
        let started = Date()
        while true {
            if pending.isEmpty {
                let n = buffer.withUnsafeMutableBytes { recv(origin, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                pending = Array(buffer[0..<n])
            }
            var chunk = pending
            pending = []
            switch fault {
            case .reset(let limit)? where sent + chunk.count > limit:
                let keep = max(0, limit - sent)
                if Self.send(client, Array(chunk[0..<keep])) { sent += keep }
                record.bytes = sent
                Self.abort(client)
                return
            case .stall(let limit, let seconds)? where !stalled && sent + chunk.count > limit:
                let keep = max(0, limit - sent)
                guard Self.send(client, Array(chunk[0..<keep])) else { record.bytes = sent; return }
                sent += keep
                stalled = true
                Thread.sleep(forTimeInterval: seconds)
                chunk = Array(chunk[keep...])
            default:
                break
            }
            if let rate {
                // Pace: never ahead of `rate` bytes per second since the body began.
                let due = started.addingTimeInterval(Double(sent + chunk.count) / Double(rate))
                let wait = due.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            if let declared, sent + chunk.count >= declared {
                record.bytes = sent + chunk.count
                log()
            }
            guard Self.send(client, chunk) else { break }
            sent += chunk.count
            record.bytes = sent
        }
        record.bytes = sent
    }

    private func takeFault(where matches: (Fault) -> Bool) -> Fault? {
        state.withLock {
            guard let index = faults.firstIndex(where: matches) else { return nil }
            return faults.remove(at: index)
        }
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7), whole seconds.
    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
