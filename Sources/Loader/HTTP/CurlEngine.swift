import Base
import CCurl
import Model
import NIOCore

/// libcurl's multi interface, driven by a thread of our own: every transfer of one transport —
/// its connects, TLS handshakes (the name lookups on libcurl's resolver threads), reads and writes
/// — and the connections kept open between them (libcurl reuses a connection only for the same
/// server, proxy and TLS settings). No call made here blocks any other thread, and this thread
/// serves nothing else.
///
/// Other threads only post commands (`post`), which wake the thread up; only it touches the
/// multi handle and the transfers' easy handles once they are started. The thread and the multi
/// handle are made for the first request: a source that is never asked costs nothing.
final class CurlEngine: @unchecked Sendable {
    enum Command {
        case start(CurlTransfer)
        /// The consumer wants more after a pause.
        case resume(CurlTransfer)
        case cancel(CurlTransfer, any Error)
        /// Ends every transfer and the thread; the connections close.
        case stop
    }

    private struct Inbox {
        var commands: [Command] = []
        var open = true
        /// Made with the thread, by the first command.
        var multi: UnsafeMutableRawPointer?
    }

    /// The thread's name (the transport's source).
    private let name: String
    private let inbox = Locked(Inbox())
    /// The thread's own: the transfers libcurl runs, by easy handle.
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    init(name: String) {
        self.name = name
    }

    /// Sends `request` and returns once the answer's head has come. Cancelling the calling task
    /// ends the transfer at once, whatever it is doing.
    func send(_ request: CurlRequest) async throws -> HTTPAnswer {
        // libcurl is loaded by the first request (CCurl): not there, it is one clear error, not retried.
        guard cp_curl_load() == 1 else {
            throw LoaderError.configuration("libcurl (the libcurl4 package) cannot be loaded: \(String(cString: cp_curl_load_error()))")
        }
        let transfer = try CurlTransfer(request, engine: self)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.awaitHead(continuation)
                // Refused once the engine has stopped: the transfer never reached it, so it ends here.
                if !post(.start(transfer)) { transfer.end(LoaderError.cancelled) }
            }
        } onCancel: {
            transfer.cancel(CancellationError())
        }
    }

    /// Queues `command` for the thread and wakes it; false once the engine has stopped.
    @discardableResult
    func post(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard inbox.open else { return false }
            if case .stop = command {
                inbox.open = false
                guard inbox.multi != nil else { return true }  // never started
            }
            if inbox.multi == nil {
                guard let made = cp_curl_multi_init() else { return false }
                inbox.multi = made
                NamedThread.start("http \(name)") { [self] in run() }
            }
            inbox.commands.append(command)
            // Under the lock: the thread frees the multi handle only after `open` is false.
            cp_curl_multi_wakeup(inbox.multi)
            return true
        }
    }

    func shutdown() {
        post(.stop)
    }

    private func run() {
        guard let multi = inbox.withLock({ $0.multi }) else { return }
        while true {
            let commands = inbox.withLock { inbox in
                defer { inbox.commands = [] }
                return inbox.commands
            }
            for command in commands {
                switch command {
                case .start(let transfer):
                    if let error = transfer.cancellation {
                        transfer.end(error)
                    } else if cp_curl_multi_add_handle(multi, transfer.easy) == CURLM_OK {
                        running[transfer.easy] = transfer
                        transfer.started()
                    } else {
                        transfer.end(CurlFailure(reason: .libcurl(CURLE_FAILED_INIT.rawValue)))
                    }
                case .resume(let transfer):
                    if running[transfer.easy] === transfer { transfer.resume() }
                case .cancel(let transfer, let error):
                    if running[transfer.easy] === transfer { finish(transfer, error, in: multi) }
                case .stop:
                    for transfer in running.values { finish(transfer, LoaderError.cancelled, in: multi) }
                    cp_curl_multi_cleanup(multi)
                    return
                }
            }
            var active: Int32 = 0
            _ = cp_curl_multi_perform(multi, &active)
            var left: Int32 = 0
            while let message = cp_curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let transfer = running[easy] else { continue }
                let result = cp_curl_message_result(message)
                finish(transfer, result == CURLE_OK ? nil : transfer.failure(result), in: multi)
            }
            // Asleep until a command, libcurl's next timer or the nearest read deadline: an engine
            // with nothing to do does not wake at all.
            let now = NIODeadline.now()
            var wait = Int64(Int32.max)
            for transfer in running.values {
                guard let deadline = transfer.deadline else { continue }
                if deadline <= now {
                    finish(transfer, transfer.silence(), in: multi)
                } else {
                    wait = min(wait, (deadline - now).nanoseconds / 1_000_000 + 1)
                }
            }
            var suggested = -1
            if cp_curl_multi_timeout(multi, &suggested) == CURLM_OK, suggested >= 0 { wait = min(wait, Int64(suggested)) }
            _ = cp_curl_multi_poll(multi, Int32(clamping: wait))
        }
    }

    /// Takes `transfer` from libcurl and ends it.
    private func finish(_ transfer: CurlTransfer, _ error: (any Error)?, in multi: UnsafeMutableRawPointer) {
        running[transfer.easy] = nil
        cp_curl_multi_remove_handle(multi, transfer.easy)
        transfer.end(error)
    }
}
