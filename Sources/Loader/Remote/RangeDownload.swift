import FoundationEssentials
import Glibc
import Logging
import Model
import NIOCore
import NIOHTTP1
import Parsers

/// Downloads one chunk of a remote file into its `RemoteResource`, through whatever the network
/// and the server do: a dropped connection or a stall resumes from the last byte received, 5xx
/// answers are retried with backoff (a bounded number of times without progress), 401/403/404 end
/// it at once with an error that names the source.
///
/// A ranged request carries `If-Range` when the version has a strong tag (or a strong date and no
/// tag, `Validator.ifRange`); otherwise it is a bare `Range`, and the 206 is checked — its start,
/// the file's length and its validators — before a byte of it is written. A 200 to a conditional
/// request is asked again once without the condition; a 200 of another version means the file
/// changed, and the new version replaces the old one whole. A server that ignores `Range` gets its
/// whole-file answer used (and cached) from the start. Bytes are written only inside what
/// `Content-Range` says they are. Each request waits for room at its host (`HostLimiter`), and a
/// 429 or 503 with `Retry-After` keeps every download of that host waiting as long as it asks.
/// A connection that cannot be made marks the host unreachable (`HostReachability`); a file of
/// which nothing is known then fails at once as not available offline.
package struct RangeDownload {
    let resource: RemoteResource
    let retries: Int
    let hosts: HostLimiter
    let reachability: HostReachability
    /// How long to wait before connecting again to a host that refused: the read timeout, as
    /// long as one attempt lasted while the HTTP client retried connecting by itself — so a
    /// playing track waits for a server that restarts as long as it always did.
    let reconnectDelay: Duration
    let logger: Logger

    /// A 429 or 503 that said when to come back.
    private struct ServerBusy: Error {
        let error: LoaderError
        let retryAfter: Duration
    }

    /// Runs to the end of `chunk`, claimed by `plan()` for `version`; `nil`: the first request of
    /// a file not yet described, which asks for its head and ends once the answer describes it
    /// (what it did not get, `plan()` asks for).
    nonisolated(nonsending) func run(_ chunk: Range<Int64>?, version: Int) async {
        var cursor = chunk?.lowerBound ?? 0
        var failures = 0
        // A learning request has no If-Range and takes length and version from the answer: the
        // first one, and one after a 416 (our idea of the file is stale).
        var learning = chunk == nil
        // How far the learning request got: once it wrote bytes, its answer described the file.
        var head: Int64 = 0
        var lastError = LoaderError.network("no progress")
        var unreachable = false
        while !Task.isCancelled {
            let state = resource.requestState
            // A download of a replaced version, or of a file given up on, has nothing left to do.
            if state.failed || (chunk != nil && state.version != version) { return }
            // A whole-file stream that broke off, or stopped as nobody needed more, resumes only
            // for someone who does.
            if !state.acceptsRanges && !resource.needsBytes { return }
            if chunk == nil && state.length != nil && !learning { return }
            let before = cursor + head
            do {
                await hosts.acquire(resource.host)
                defer { hosts.release(resource.host) }
                do {
                    if learning {
                        // Learn from the head: after a 416, the file may now end before `cursor`.
                        head = 0
                        try await fetch(from: &head, to: ReadAheadPlanner.jumpChunk, version: state.version, learning: true)
                        learning = false
                        if chunk == nil { return }
                    } else if let chunk {
                        guard cursor < chunk.upperBound else { return }
                        try await fetch(from: &cursor, to: chunk.upperBound, version: version, learning: false)
                    }
                    if cursor + head > before || chunk == nil { failures = 0 } else { failures += 1 }
                } catch let busy as ServerBusy {
                    hosts.quiet(resource.host, for: busy.retryAfter)
                    throw busy.error
                }
            } catch let error as LoaderError where error.isTransient || error == .http(status: 416) {
                unreachable = false
                if case .unreachable = error {
                    unreachable = true
                    reachability.connectFailed(resource.host)
                    // Nothing of the file is known, let alone cached, and its server cannot be
                    // reached: not worth waiting for (a track that plays resumes as below).
                    if chunk == nil && learning && state.length == nil {
                        resource.fail(.unavailableOffline(source: resource.input.name))
                        return
                    }
                }
                if cursor + head > before { failures = 0 }
                failures += 1
                lastError = error
                // A learning request that broke off after its answer described the file has
                // learned: what it did not get, `plan()` asks for; asking its bytes again would
                // download them twice.
                if learning && head > 0 { learning = false }
                if error == .http(status: 416) { learning = true }
                logger.notice("download interrupted; resuming", metadata: ["source": "\(resource.input.name)",
                                                                         "at": "\(cursor)", "reason": "\(error)", "attempt": "\(failures)"])
            } catch let error as LoaderError {
                resource.fail(error)
                return
            } catch {
                resource.fail(HTTPTransport.loaderError(error))
                return
            }
            if failures > retries {
                resource.fail(lastError)
                return
            }
            if failures > 0 {
                let delay = Duration.milliseconds(Int(min(0.2 * pow(2, Double(failures - 1)), 5) * 1000))
                try? await Task.sleep(for: unreachable ? max(delay, reconnectDelay) : delay)
            }
        }
    }

    /// One request for `cursor..<end`, its body written as it comes; `cursor` follows the bytes
    /// written even when the body breaks off. `version`: what the request's If-Range stands for.
    /// `learning`: a request that (re)learns length and version, without If-Range. `conditional`:
    /// If-Range may be sent (false for the one retry after a 200 to it).
    private nonisolated(nonsending) func fetch(from cursor: inout Int64, to end: Int64, version: Int, learning first: Bool,
                                                conditional: Bool = true) async throws {
        let state = resource.requestState
        // Bytes as stored: offsets, lengths and validators are those of the file, not of a
        // compressed form of it (RFC 9110 §12.5.3).
        var headers: HTTPHeaders = ["Accept-Encoding": "identity"]
        // A station's first answer is played as it is (`handOver`): with its titles, if it has any.
        if first { headers.add(name: "Icy-MetaData", value: "1") }
        var sentCondition = false
        if state.acceptsRanges || first {
            headers.add(name: "Range", value: "bytes=\(cursor)-\(end - 1)")
            if let ifRange = state.ifRange, !first, conditional {
                headers.add(name: "If-Range", value: ifRange)
                sentCondition = true
            }
        }
        let response = try await resource.input.get(resource.location, headers: headers)
        reachability.answered(resource.host)
        // A station: no length (and no end), or a SHOUTcast/Icecast answer. It is played from a
        // connection of its own (`LiveStream`), and nothing of it is cached.
        if first, state.length == nil, response.status == .ok {
            if StationList.looksLikeList(contentType: response.headers.first(name: "Content-Type"), firstBytes: []) == .list {
                throw LoaderError.stationList
            }
            if Self.isLive(response.headers, input: resource.input, location: resource.location) {
                resource.handOver(response)
                return
            }
        }
        let stated = ResourceInfo.version(in: response.headers)
        let validator = stated?.text
        let sameValidator = Validator.sameVersion(stated?.text, state.validator) != false
        let type = response.headers.first(name: "Content-Type")
        switch response.status.code {
        case 206:
            guard let contentRange = response.headers.first(name: "Content-Range").flatMap(ContentRange.init),
                  let range = contentRange.range, let total = contentRange.completeLength, range.lowerBound == cursor else {
                throw LoaderError.badResponse("a partial answer without a matching Content-Range")
            }
            // The bytes belong to the version this answer describes: the one asked for, unless
            // the answer says otherwise (or is the first).
            // A tag or date that restates the same version (a listing's date, GET's tag) is kept too.
            var owner = version
            if first || state.length != total || !sameValidator || (validator != nil && validator != state.validator) {
                owner = resource.establish(ResourceInfo(length: total, validator: validator ?? state.validator, ifRange: stated?.ifRange,
                                                        contentType: type)).version
            }
            try await receive(response, at: &cursor, until: range.upperBound, version: owner)
        case 200:
            guard let length = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }) else {
                // A stream made as it is sent (a transcode): no length, no ranges. The first
                // answer is taken whole, and only then is the file described and cached.
                guard first else { throw LoaderError.badResponse("the server did not say how long the file is") }
                try await receiveWhole(response, version: stated, type: type)
                cursor = min(end, resource.requestState.length ?? 0)
                return
            }
            let sameVersion = state.length == length && sameValidator
            if sameVersion && sentCondition {
                // Changed, or the condition could not be verified (a server that compares dates
                // or tags otherwise): asked once more without it before anything is decided.
                return try await fetch(from: &cursor, to: end, version: version, learning: first, conditional: false)
            }
            if sameVersion {
                // The server ignores Range: this is the whole file, of the version asked for.
                resource.rangesRefused()
                var position: Int64 = 0
                try await receive(response, at: &position, until: length, version: version, whileNeeded: true)
                cursor = max(cursor, min(position, end))
                return
            }
            // The first answer ignored Range, or If-Range found another version: this body is the
            // whole of the (new) file — streamed by this download only if it made the change.
            if first { resource.rangesRefused() }
            let (owner, changed) = resource.establish(ResourceInfo(length: length, validator: validator, ifRange: stated?.ifRange,
                                                                   contentType: type, acceptsRanges: !first))
            guard changed else { return }
            let claimed = resource.adoptWholeStream()
            defer { resource.finished(0..<length, version: claimed) }
            var position: Int64 = 0
            try await receive(response, at: &position, until: length, version: owner, whileNeeded: true)
        case 416:
            throw LoaderError.http(status: 416)
        case let code:
            let failure = resource.input.failure(HTTPResponseStatus(statusCode: Int(code)))
            if code == 429 || code == 503, let delay = RetryAfter.delay(in: response.headers) {
                throw ServerBusy(error: failure, retryAfter: delay)
            }
            throw failure
        }
    }

    /// Whether a first answer of 200 is a live stream: one with `icy-` headers, or without a
    /// length from a source whose answers without one do not end.
    static func isLive(_ headers: HTTPHeaders, input: any RemoteInput, location: TrackLocation) -> Bool {
        if headers.contains(name: "icy-metaint") || headers.contains(name: "icy-name") || headers.contains(name: "icy-br") { return true }
        return !headers.contains(name: "Content-Length") && !input.answersWithoutLengthEnd(location)
    }

    /// The most of a stream without a length that is taken (in memory, until it ends).
    static let largestUnsizedStream = 512 << 20

    /// A whole body of unknown length: gathered, then established as the file (without ranges)
    /// and stored at once, so a copy is cached only once it is whole.
    private nonisolated(nonsending) func receiveWhole(_ response: HTTPAnswer, version stated: Validator?,
                                                      type: String?) async throws {
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.largestUnsizedStream)
        } catch is NIOTooManyBytesError {
            throw LoaderError.badResponse("a stream without a length, larger than \(Self.largestUnsizedStream >> 20) MiB")
        } catch {
            throw HTTPTransport.loaderError(error)
        }
        let info = ResourceInfo(length: Int64(body.readableBytes), validator: stated?.text, contentType: type, acceptsRanges: false)
        let owner = resource.establish(info).version
        _ = body.withUnsafeReadableBytes { resource.store($0, at: 0, version: owner) }
    }

    /// Writes the body at `position` on, up to `end`; stops early if the version is outdated, or
    /// — `whileNeeded`, a whole-file stream — once nobody reads the file or wants more of it
    /// (a scan wanted its head from a server that ignores `Range`).
    private nonisolated(nonsending) func receive(_ response: HTTPAnswer, at position: inout Int64, until end: Int64,
                                                  version: Int, whileNeeded: Bool = false) async throws {
        do {
            for try await buffer in response.body {
                guard position < end else { return }
                let take = min(buffer.readableBytes, Int(end - position))
                let kept = buffer.withUnsafeReadableBytes { bytes in
                    resource.store(UnsafeRawBufferPointer(rebasing: bytes[0..<take]), at: position, version: version)
                }
                guard kept else { return }
                position += Int64(take)
                if whileNeeded && position < end && !resource.needsBytes { return }
            }
        } catch {
            throw HTTPTransport.loaderError(error)
        }
        if position < end { throw LoaderError.network("the answer ended early") }
    }
}
