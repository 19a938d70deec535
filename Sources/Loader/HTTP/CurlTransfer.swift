import Base
import CCurl
import FoundationEssentials
import Model
import NIOCore
import NIOHTTP1

/// One request on a `CurlEngine`: its easy handle; its head, read line by line from libcurl's
/// header callback and handed over whole; its body, yielded part by part into a `PacedBody`; and
/// the read timeout's clock.
///
/// The clock runs only while the server is asked for bytes: from the start to the head, and from
/// each part the consumer had room for to the next. A part that finds the consumer full pauses
/// the transfer at the next one (libcurl stops reading the socket: TCP holds the server back, not
/// memory) and stops the clock until the consumer wants more — a consumer held up (the loader's
/// thread writing the cache on a busy disk) never times out a server that was sending. The
/// consumer leaving (done, cancelled, the body dropped) cancels the transfer, which closes its
/// connection.
///
/// After `init`, all but `Shared` is touched on the engine's thread only.
final class CurlTransfer: PacedBodyReader, @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    private let engine: CurlEngine
    private let timeout: TimeAmount
    /// libcurl's sentence about a failure (`CURLOPT_ERRORBUFFER`).
    private let errors: UnsafeMutablePointer<CChar>
    /// The header lists libcurl reads while the transfer runs.
    private let lists: [UnsafeMutablePointer<curl_slist>]
    private var source: PacedBody.Source?
    /// Kept until the head hands it over.
    private var body: PacedBody?
    /// The head being read: its status line, then its fields.
    private var status: HTTPResponseStatus?
    private var fields: [(String, String)] = []
    private var headDone = false
    /// The head's bytes so far, against `largestHead`.
    private var headBytes = 0
    /// Why the head was refused here (libcurl only hears that the transfer is to end).
    private var refusal: LoaderError?
    /// The host asked, for the refusal of a private address.
    private let host: String
    /// The most a head may hold: a server that sends fields for ever is not waited out.
    static let largestHead = 64 << 10

    private struct Shared {
        /// Resumed once, with the head or why there is none.
        var head: CheckedContinuation<HTTPAnswer, any Error>?
        /// Why the transfer was cancelled, if it was: a start that comes after it ends it at once.
        var cancelled: (any Error)?
        /// The consumer is full: the next part pauses the transfer, and the clock stops.
        var held = false
        /// The consumer asked for more before a part that found it full could hold the transfer.
        var demanded = false
        /// When the server last sent, or the consumer last asked for more after a hold: set with
        /// `held` cleared, so the engine never reads a clock stopped since before the hold.
        var lastHeard = NIODeadline.now()
    }
    private let shared = Locked(Shared())

    init(_ request: CurlRequest, engine: CurlEngine) throws(CurlFailure) {
        guard let easy = cp_curl_easy_init() else { throw CurlFailure(reason: .libcurl(CURLE_OUT_OF_MEMORY.rawValue)) }
        let errors = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errors.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        do {
            lists = try request.configure(easy, errors: errors)
        } catch {
            cp_curl_easy_cleanup(easy)
            errors.deallocate()
            throw error
        }
        self.easy = easy
        self.errors = errors
        self.engine = engine
        timeout = .milliseconds(Int64(request.timeoutMilliseconds))
        host = request.url.host(percentEncoded: false) ?? "?"
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Not sent without its callbacks, nor without its check of the address reached.
        guard cp_curl_set_callbacks(easy, headerCallback, writeCallback, context) == CURLE_OK,
              !request.publicOnly || cp_curl_set_prereq(easy, prereqCallback, context) == CURLE_OK else {
            cp_curl_easy_cleanup(easy)
            for list in lists { cp_curl_slist_free_all(list) }
            errors.deallocate()
            throw CurlFailure(reason: .libcurl(CURLE_FAILED_INIT.rawValue))
        }
        let made = PacedBody.make(for: self)
        body = made.body
        source = made.source
    }

    /// Where the head is to go; before the engine is asked to start the transfer.
    func awaitHead(_ continuation: CheckedContinuation<HTTPAnswer, any Error>) {
        shared.withLock { $0.head = continuation }
    }

    /// Ends the transfer with `error` on the engine's thread, whatever it is doing.
    func cancel(_ error: any Error) {
        shared.withLock { $0.cancelled = $0.cancelled ?? error }
        engine.post(.cancel(self, error))
    }

    /// Why a start should not go on: the transfer was cancelled first.
    var cancellation: (any Error)? { shared.withLock { $0.cancelled } }

    // MARK: The consumer (any thread)

    func consumerWantsMore() {
        let paused = shared.withLock { shared in
            guard shared.held else {
                shared.demanded = true
                return false
            }
            shared.held = false
            shared.lastHeard = .now()
            return true
        }
        if paused { engine.post(.resume(self)) }
    }

    func consumerLeft() {
        cancel(CancellationError())
    }

    // MARK: The engine's thread

    /// The transfer has been handed to libcurl: the clock starts.
    func started() {
        heard()
    }

    /// When the server's silence fails the transfer; nil while the consumer is full.
    var deadline: NIODeadline? {
        shared.withLock { $0.held ? nil : $0.lastHeard + timeout }
    }

    /// The consumer wants more after a pause (its clock restarted with it): libcurl reads on, and
    /// may hand over the part it kept at once.
    func resume() {
        _ = cp_curl_unpause(easy)
    }

    /// The server sent something: the clock starts again.
    private func heard() {
        shared.withLock { $0.lastHeard = .now() }
    }

    /// The read timeout's failure: no connection yet, or a server gone silent.
    func silence() -> CurlFailure {
        var connected: curl_off_t = 0
        _ = cp_curl_get_offset(easy, CURLINFO_CONNECT_TIME_T, &connected)
        return CurlFailure(reason: connected > 0 ? .silent : .unanswered)
    }

    /// libcurl's result as a failure, with what it knows of the connection, the tunnel and the
    /// proxy — or the head's refusal that made the transfer end.
    func failure(_ code: CURLcode) -> any Error {
        if let refusal { return refusal }
        var failure = CurlFailure(reason: .libcurl(code.rawValue), detail: String(cString: errors))
        var value = 0
        if cp_curl_get_long(easy, CURLINFO_OS_ERRNO, &value) == CURLE_OK { failure.systemError = Int32(truncatingIfNeeded: value) }
        if cp_curl_get_long(easy, CURLINFO_HTTP_CONNECTCODE, &value) == CURLE_OK { failure.tunnelStatus = value }
        if cp_curl_get_long(easy, CURLINFO_PROXY_ERROR, &value) == CURLE_OK { failure.proxyCode = UInt32(truncatingIfNeeded: value) }
        return failure
    }

    /// The transfer is over (done, failed, cancelled; no longer libcurl's): the head, if it has
    /// not come, fails; the body ends, with `error` or as the answer's end; the handle is freed.
    func end(_ error: (any Error)?) {
        if let head = shared.withLock({ $0.head.take() }) {
            head.resume(throwing: error ?? CurlFailure(reason: .libcurl(CURLE_GOT_NOTHING.rawValue)))
        } else if let error {
            source?.finish(error)
        } else {
            source?.finish()
        }
        source = nil
        body = nil
        cp_curl_easy_cleanup(easy)
        for list in lists { cp_curl_slist_free_all(list) }
        errors.deallocate()
    }

    /// Connected to `address`, before the request: refused when the connection must reach a
    /// public address and reached this machine or its network (a name whose answer changed
    /// since it was checked).
    fileprivate func connected(to address: String) -> Int32 {
        guard let kind = PrivateAddresses.kind(ofAddress: address) else { return CURL_PREREQFUNC_OK }
        refusal = .privateLink(host: host, kind: kind)
        return CURL_PREREQFUNC_ABORT
    }

    /// One line of the head (libcurl hands each over with its line end): the status line, a
    /// field, a folded field's next line, or the empty line that ends it — where a `1xx` head
    /// is followed by the real one. Lines after the head (a chunked body's trailer) are ignored.
    fileprivate func header(_ line: UnsafeRawBufferPointer) -> Int {
        heard()
        guard !headDone else { return line.count }
        headBytes += line.count
        guard headBytes <= Self.largestHead else {
            refusal = .badResponse("the server's answer has more than \(Self.largestHead >> 10) KiB of headers")
            return 0
        }
        let text = String(decoding: line.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        guard let status else {
            // `HTTP/1.1 206 Partial Content`, `ICY 200 OK`: the code is the second word.
            let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard words.count >= 2, let code = Int(words[1]), (100...999).contains(code) else {
                refusal = .badResponse("the server's answer is neither HTTP nor ICY")
                return 0
            }
            self.status = HTTPResponseStatus(statusCode: code, reasonPhrase: words.count > 2 ? String(words[2]) : "")
            fields = []
            return line.count
        }
        if text.isEmpty {
            if (100..<200).contains(status.code) {
                self.status = nil
            } else {
                deliverHead()
            }
        } else if text.first == " " || text.first == "\t", !fields.isEmpty {
            fields[fields.count - 1].1 += " " + text.trimmingBlanks()
        } else if let colon = text.firstIndex(of: ":") {
            fields.append((text[..<colon].trimmingBlanks(), text[text.index(after: colon)...].trimmingBlanks()))
        }
        return line.count
    }

    private func deliverHead() {
        headDone = true
        guard let status, let body = body.take() else { return }
        shared.withLock { $0.head.take() }?.resume(returning: HTTPAnswer(status: status, headers: HTTPHeaders(fields), body: body))
    }

    /// A part of the body: yielded to the consumer, or — the consumer full since the last part —
    /// kept by libcurl, which pauses the transfer and hands it over again on `resume`.
    fileprivate func write(_ part: UnsafeRawBufferPointer) -> Int {
        if !headDone { deliverHead() }
        let held = shared.withLock { shared in
            if !shared.held {
                shared.demanded = false
                shared.lastHeard = .now()
            }
            return shared.held
        }
        if held { return Int(CURL_WRITEFUNC_PAUSE) }
        guard let source else { return 0 }  // the consumer is gone: the transfer ends
        switch source.yield(ByteBuffer(bytes: part)) {
        case .produceMore:
            break
        case .stopProducing:
            shared.withLock { shared in
                if shared.demanded { shared.demanded = false } else { shared.held = true }
            }
        case .dropped:
            return 0
        }
        return part.count
    }
}

private let headerCallback: cp_curl_data_callback = { data, size, count, context in
    Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().header(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let prereqCallback: curl_prereq_callback = { context, primary, _, _, _ in
    Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().connected(to: primary.map { String(cString: $0) } ?? "")
}

private let writeCallback: cp_curl_data_callback = { data, size, count, context in
    Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().write(UnsafeRawBufferPointer(start: data, count: size * count))
}
