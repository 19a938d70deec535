import CPulse
import Glibc
import Logging
import Model

/// PulseAudio through the asynchronous API on a `pa_threaded_mainloop` (`PulseMainloop`).
///
/// Pause is cork, volume is the sink input's volume, and the played position is the stream's
/// time (frames the server has played, interpolated), so it stops while corked. Waiting for room
/// or for a drain suspends the task, so no thread of the cooperative pool ever blocks here.
///
/// This file holds the connection to the server and what every part shares; the parts are
/// extensions, one concern each: the stream's set-up (`+Stream`), pacing writes by the server's
/// buffer (`+Pacing`), cork and volume (`+Controls`), following a named sink (`+Sinks`) and a
/// server that went away (`+ServerLoss`).
///
/// Every C call and every mutable field below is guarded by the mainloop's lock (`locked`).
package final class PulseOutput: AudioOutput, @unchecked Sendable {
    /// libpulse as loaded at run time, for `cloudplayerd --version`.
    package static var libraryVersion: String {
        "libpulse " + String(cString: pa_get_library_version())
    }

    let mainloop: PulseMainloop
    /// Replaced by `reconnect` after the server went away.
    var context: OpaquePointer
    let server: String?
    let applicationName: String
    let sink: String?
    var stream: OpaquePointer?
    var format: PCMFormat?
    var paused = false
    var volume = 1.0
    var released = false
    /// The answer to `reconnect`'s question "is there a sink to play on?", once it came.
    var sinkThere: Bool?
    /// The stream plays elsewhere than on the named sink, which is not there.
    var displaced = false
    /// When the stream was last moved back to its named sink: a server that moves it off again
    /// at once is not fought (`namedSinkStillThere`).
    var movedBackAt: ContinuousClock.Instant?
    let logger = Logger(label: "cloudplayerd.output")

    /// Connects to the server (`server` nil: the default, from `PULSE_SERVER` or the user's
    /// runtime directory). Never spawns a server.
    package static func connect(server: String? = nil, sink: String? = nil,
                               applicationName: String = "cloudplayerd") async throws -> PulseOutput {
        let output = try PulseOutput(server: server, sink: sink, applicationName: applicationName)
        do {
            try output.beginConnecting()
            try await output.mainloop.wait { try output.contextIsReady() }
            output.locked { output.subscribeToSinks() }
        } catch {
            output.release()
            throw error
        }
        return output
    }

    private init(server: String?, sink: String?, applicationName: String) throws {
        guard let mainloop = PulseMainloop() else {
            throw OutputError.serverUnreachable("cannot create a PulseAudio main loop")
        }
        guard let context = Self.makeContext(on: mainloop, applicationName: applicationName) else {
            throw OutputError.serverUnreachable("cannot create a PulseAudio context")
        }
        self.mainloop = mainloop
        self.context = context
        self.server = server
        self.applicationName = applicationName
        self.sink = sink
    }

    static func makeContext(on mainloop: PulseMainloop, applicationName: String) -> OpaquePointer? {
        let properties = pa_proplist_new()
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, "music")
        pa_proplist_sets(properties, PA_PROP_APPLICATION_ICON_NAME, "audio-x-generic")
        defer { pa_proplist_free(properties) }
        return pa_context_new_with_proplist(mainloop.api, applicationName, properties)
    }

    /// Starts the connection and the mainloop thread; `connect` waits for the outcome.
    private func beginConnecting() throws {
        try connectContext()
        guard mainloop.start() else {
            throw OutputError.serverUnreachable("cannot start the PulseAudio main loop")
        }
    }

    /// Asks the context to connect; with the lock held once the mainloop runs.
    func connectContext() throws {
        pa_context_set_state_callback(context, pulseContextChanged, Unmanaged.passUnretained(self).toOpaque())
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw OutputError.serverUnreachable(serverReason())
        }
    }

    deinit {
        release()
        pa_context_unref(context)
    }

    package func stop() {
        locked {
            dropStream()
            mainloop.wake()
        }
    }

    package func close() {
        release()
    }

    /// Disconnects and stops the mainloop thread; safe to call twice. The C objects themselves
    /// are freed in `deinit`, so a late call on a closed output finds a lock, not freed memory.
    /// Called without the lock.
    private func release() {
        let first: Bool = locked {
            guard !released else { return false }
            released = true
            dropStream()
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
            mainloop.cancelWaiter()
            return true
        }
        guard first else { return }
        mainloop.stop()
    }

    // MARK: Shared by the parts; callers hold the lock

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        try mainloop.locked(body)
    }

    func contextIsReady() throws -> Bool {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY: return true
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: throw OutputError.serverUnreachable(serverReason())
        default: return false
        }
    }

    /// Throws if the server went away or the stream failed.
    func checkHealthy() throws {
        let state = pa_context_get_state(context)
        if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED { throw OutputError.serverLost(serverReason()) }
        if let stream {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                throw OutputError.deviceFailed(serverReason())
            }
        }
    }

    /// Why there is no stream to write to: the task was cancelled, or the output was stopped or
    /// closed under it.
    func closedError() -> any Error {
        Task.isCancelled ? CancellationError() : OutputError.deviceFailed("the PulseAudio stream was closed")
    }

    func serverReason() -> String {
        String(cString: pa_strerror(pa_context_errno(context)))
    }

    /// What a failed call means: the server is gone (or not yet back: a context that is not
    /// ready), or this stream alone failed.
    func serverError() -> OutputError {
        pa_context_get_state(context) != PA_CONTEXT_READY ? .serverLost(serverReason()) : .deviceFailed(serverReason())
    }
}

private func pulseContextChanged(_ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().mainloop.wake()
}
