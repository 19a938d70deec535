import Base
import NIOCore
import Playback

/// Carrying out a client's commands: one line, or a command list — whose `add`s become one
/// change of the queue (`MPDSession.deferredAdds`), so a client adding a folder of 10,000 songs
/// in one list changes the queue once, not 10,000 times.
extension MPDConnection {
    /// A command list: each command in order, `list_OK` after each if asked; the first error
    /// ends it with its ACK (its index in the list); `OK` once all succeeded.
    func runList(_ list: MPDCommandList, session: inout MPDSession, sink: @escaping MPDResponse.Sink) async throws -> Outcome {
        var response = MPDResponse(sink: sink)
        session.deferredAdds = MPDDeferredAdds()
        defer { session.deferredAdds = nil }
        for (index, line) in list.lines.enumerated() {
            // Gone meanwhile: the rest of the list is dropped, and what it added is not queued.
            let asked = index % Self.askedEvery == Self.askedEvery - 1
            let reset = asked ? await hasBeenReset() : false
            guard channel.channel.isActive, !reset else { return left(session) }
            switch await perform(line, index: index, session: &session, response: &response, inList: true) {
            case .done:
                if list.saysEach { response.line("list_OK") }
                // Not while adds wait to be queued: what the client is told is done must be.
                if session.deferredAdds?.isEmpty != false { try await response.flushIfLarge() }
            case .failed, .idle:
                // The adds before the failing command are done, as MPD does them; should they
                // not fit after all, the client has its ACK already: the journal says it.
                if let failure = await queueDeferred(&session) { logger.notice("MPD client \(session.id): adds of a list not queued: \(failure.message)") }
                try await response.flush()
                return .failed
            case .close:
                // Gone (found so while a `password` waited): as above. A `close` in the list
                // queues the adds before it, as MPD does.
                guard channel.channel.isActive else { return left(session) }
                _ = await queueDeferred(&session)
                try await response.flush()
                return .close
            }
        }
        if session.deferredAdds?.isEmpty == false, await hasBeenReset() {
            logger.debug("MPD client \(session.id) gone: the adds of its command list are not queued")
            return .close
        }
        if let failure = await queueDeferred(&session) {
            response.line(String(failure.ack(index: max(0, list.count - 1), command: "add").dropLast()))
            try await response.flush()
            return .failed
        }
        response.line("OK")
        try await response.flush()
        return .done
    }

    /// A list's client is gone: the rest of the list is dropped, the adds deferred with it.
    private func left(_ session: MPDSession) -> Outcome {
        logger.debug("MPD client \(session.id) gone: the rest of its command list is not carried out, nor the adds before")
        return .close
    }

    /// Commands of a list carried out between two askings of the kernel (`hasBeenReset`).
    static let askedEvery = 1024

    /// Whether the client reset the connection — asked of the socket itself (`SO_ERROR`), not
    /// of the channel: while a list runs nobody reads the connection, so NIO, its inbound
    /// buffer full, reads no more and never meets the reset (a client that sent 20,000 adds and
    /// left had them all carried out).
    private func hasBeenReset() async -> Bool {
        let error = try? await channel.channel.getOption(ChannelOptions.socketOption(.so_error)).get()
        return error.map { $0 != 0 } ?? !channel.channel.isActive
    }

    /// Queues the adds a list has deferred, as one change; the error if they could not be
    /// (another client filled the queue meanwhile).
    private func queueDeferred(_ session: inout MPDSession) async -> MPDError? {
        guard let deferred = session.deferredAdds, !deferred.isEmpty else { return nil }
        session.deferredAdds = MPDDeferredAdds()
        do {
            let items = try await deferred.resolved(by: context.library)
            guard !items.isEmpty else { return nil }
            context.take(try await context.intake.add(items, at: .end))
            return nil
        } catch let refusal as QueueRefusal {
            return refusal.mpdError
        } catch {
            return MPDError(.system, "\(error)")
        }
    }

    /// Parses and runs one command line, writing its answer (or its ACK) into `response`.
    func perform(_ line: some Collection<UInt8>, index: Int, session: inout MPDSession, response: inout MPDResponse,
                 inList: Bool = false) async -> Outcome {
        let request: MPDRequest
        do throws(MPDRequest.Refusal) {
            request = try MPDRequest.parse(line)
        } catch {
            if let refusal = error.error {
                response.line(String(refusal.ack(index: index, command: "").dropLast()))
            } else {
                logger.notice("MPD client \(session.id) sent a line that is not MPD's protocol: closed")
            }
            return error.closes ? .close : .failed
        }
        // MPD names the command in an ACK only once it knows it (`{}` for an unknown one).
        let named = MPDCommandTable.commands[request.name] == nil ? "" : request.name
        do {
            let command = try MPDCommandTable.command(for: request, permissions: session.permissions)
            if request.name == "idle" {
                guard !inList else { throw MPDError(.argument, "idle is not allowed in a command list") }
                return .idle(try Self.subsystems(request.arguments))
            }
            // Anything but another add queues the adds deferred before it first: it may read the queue.
            if request.name != "add" || request.arguments.count != 1, let failure = await queueDeferred(&session) { throw failure }
            if request.name == "password" {
                await pause(for: guesses.reserve(session.peer))
                // Gone while it waited: its password is not compared.
                guard channel.channel.isActive else {
                    guesses.dropped(session.peer)
                    return .close
                }
            }
            let before = session.permissions
            var call = MPDCall(request: request, session: session, context: context, response: response)
            // The call alone holds the list's adds while it runs: an add appends in place.
            session.deferredAdds = nil
            defer {
                response = call.response
                session.deferredAdds = call.session.deferredAdds
            }
            do {
                try await command.handler(&call)
            } catch let error as MPDError where error.code == .password {
                if let said = guesses.failed(session.peer) { logger.notice("\(said)") }
                throw error
            }
            session = call.session
            if request.name == "password", let said = guesses.succeeded(session.peer) { logger.notice("\(said)") }
            if before.isEmpty, !session.permissions.isEmpty { context.letIn(terms) }
            return session.closing ? .close : .done
        } catch {
            let failure = error as? MPDError ?? MPDError(.system, "\(error)")
            response.line(String(failure.ack(index: index, command: named).dropLast()))
            return .failed
        }
    }

    /// Waits `duration`, or until the client's connection closes (the server stopping closes it).
    private func pause(for duration: Duration) async {
        guard duration > .zero else { return }
        let channel = channel.channel
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let resumed = Locked(false)
            let resume: @Sendable () -> Void = {
                if resumed.withLock({ already in defer { already = true }; return !already }) { done.resume() }
            }
            let sleeper = Task {
                try? await Task.sleep(for: duration)
                resume()
            }
            channel.closeFuture.whenComplete { _ in
                sleeper.cancel()
                resume()
            }
        }
    }
}
