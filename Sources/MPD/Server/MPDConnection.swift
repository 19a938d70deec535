import Logging
import NIOCore

/// One client: the greeting, then its lines one by one — a command, a command list, or `idle`
/// and its `noidle` — each answered before the next is read, as MPD does. Writing waits while
/// the client does not read (the channel's write watermarks), so a client that never reads
/// holds at most a watermark of answer, and only its own connection waits.
struct MPDConnection {
    /// MPD 0.23.5's protocol: `getvol`, `binarylimit`, `readpicture`, filter expressions with
    /// `contains`/`starts_with`... are what clients may expect of it (python-mpd2 and mpc decide by
    /// this number); 0.24's additions (`protocol`, `stickertypes`, `searchcount`) are not offered.
    static let greeting = "OK MPD 0.23.5\n"
    /// Most bytes of one command list (MPD's `max_command_list_size`, 2048 KiB by default);
    /// more, and the client is closed, as MPD closes it.
    static let maxListBytes = 2048 * 1024

    let channel: NIOAsyncChannel<MPDLine, ByteBuffer>
    let context: MPDContext
    var session: MPDSession
    let logger: Logger

    /// Serves the client until it closes, sends `close`, misbehaves, or the server stops.
    func run() async {
        context.idle.register(session.id)
        defer { context.idle.unregister(session.id) }
        do {
            try await channel.executeThenClose { inbound, outbound in
                try await serve(inbound, outbound)
            }
        } catch {
            logger.debug("MPD client \(session.id) gone: \(error)")
        }
    }

    private func serve(_ inbound: NIOAsyncChannelInboundStream<MPDLine>, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        var session = self.session
        let sink: MPDResponse.Sink = { bytes in try await outbound.write(ByteBuffer(bytes: bytes)) }
        try await outbound.write(ByteBuffer(string: Self.greeting))
        var list: [[UInt8]]?
        var listOK = false
        var listBytes = 0
        var idle: Task<Set<MPDSubsystem>, Never>?
        for try await item in inbound {
            guard case .line(let line) = item else {
                logger.notice("MPD client \(session.id) sent a line over \(MPDServer.lineLimit) bytes: closed")
                return
            }
            if let waiting = idle {
                // Idle: only `noidle` may come; it ends the idle with what changed so far (nothing).
                context.idle.cancel(session.id)
                let changes = await waiting.value
                idle = nil
                let isNoIdle = Self.text(line) == "noidle"
                if changes.isEmpty {
                    guard isNoIdle else {
                        logger.notice("MPD client \(session.id) sent a command during idle: closed")
                        return
                    }
                    try await outbound.write(ByteBuffer(string: "OK\n"))
                    continue
                }
                // The idle had been answered already; a late `noidle` is ignored, as MPD does.
                if isNoIdle { continue }
            }
            let text = Self.text(line)
            if text == "noidle" { continue }
            if list != nil {
                if text == "command_list_end" {
                    let requests = list ?? []
                    list = nil
                    if try await runList(requests, ok: listOK, session: &session, sink: sink) == .close { return }
                    continue
                }
                listBytes += line.count + 1
                guard listBytes <= Self.maxListBytes else {
                    logger.notice("MPD client \(session.id) sent a command list over \(Self.maxListBytes) bytes: closed")
                    return
                }
                list?.append(line)
                continue
            }
            if text == "command_list_begin" || text == "command_list_ok_begin" {
                (list, listOK, listBytes) = ([], text == "command_list_ok_begin", 0)
                continue
            }
            var response = MPDResponse(sink: sink)
            switch await perform(line, index: 0, session: &session, response: &response) {
            case .done:
                response.line("OK")
                try await response.flush()
            case .failed:
                try await response.flush()
            case .close:
                try await response.flush()
                return
            case .idle(let subsystems):
                try await response.flush()
                idle = startIdle(subsystems, outbound: outbound)
            }
        }
    }

    /// A command list: each command in order, `list_OK` after each if asked; the first error
    /// ends it with its ACK (its index in the list); `OK` once all succeeded.
    private func runList(_ lines: [[UInt8]], ok: Bool, session: inout MPDSession, sink: @escaping MPDResponse.Sink) async throws -> Outcome {
        var response = MPDResponse(sink: sink)
        for (index, line) in lines.enumerated() {
            switch await perform(line, index: index, session: &session, response: &response, inList: true) {
            case .done:
                if ok { response.line("list_OK") }
                try await response.flushIfLarge()
            case .failed, .idle:
                try await response.flush()
                return .failed
            case .close:
                try await response.flush()
                return .close
            }
        }
        response.line("OK")
        try await response.flush()
        return .done
    }

    /// How a command ended.
    enum Outcome: Equatable {
        case done
        /// Its ACK is written.
        case failed
        /// The connection ends (`close`, a line that is not MPD's protocol).
        case close
        /// `idle`: wait for these subsystems.
        case idle(Set<MPDSubsystem>)
    }

    /// Parses and runs one command line, writing its answer (or its ACK) into `response`.
    private func perform(_ line: [UInt8], index: Int, session: inout MPDSession, response: inout MPDResponse,
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
        do {
            let command = try MPDCommandTable.command(for: request, permissions: session.permissions)
            if request.name == "idle" {
                guard !inList else { throw MPDError(.argument, "idle is not allowed in a command list") }
                return .idle(try Self.subsystems(request.arguments))
            }
            var call = MPDCall(request: request, session: session, context: context, response: response)
            defer { response = call.response }
            try await command.handler(&call)
            session = call.session
            return session.closing ? .close : .done
        } catch {
            let failure = error as? MPDError ?? MPDError(.system, "\(error)")
            if failure.code == .password { logger.notice("MPD client \(session.id): wrong password") }
            response.line(String(failure.ack(index: index, command: request.name).dropLast()))
            return .failed
        }
    }

    /// Waits for a change in the background while the loop reads the client's next line
    /// (`noidle`); writes `changed:` lines and `OK` when one comes.
    private func startIdle(_ subsystems: Set<MPDSubsystem>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) -> Task<Set<MPDSubsystem>, Never> {
        let (hub, id) = (context.idle, session.id)
        return Task {
            let changes = await hub.wait(id, for: subsystems)
            guard !changes.isEmpty else { return changes }
            var response = MPDResponse()
            for subsystem in MPDSubsystem.allCases where changes.contains(subsystem) { response.field("changed", subsystem.rawValue) }
            response.line("OK")
            try? await outbound.write(ByteBuffer(bytes: response.take()))
            return changes
        }
    }

    /// `idle`'s arguments as subsystems (none: all), refused with MPD's message if unknown.
    static func subsystems(_ names: [String]) throws(MPDError) -> Set<MPDSubsystem> {
        var subsystems = Set<MPDSubsystem>()
        for name in names {
            guard let subsystem = MPDSubsystem(rawValue: name.lowercased()) else {
                throw MPDError(.argument, "Unrecognized idle event: \(name.prefix(64))")
            }
            subsystems.insert(subsystem)
        }
        return subsystems
    }

    private static func text(_ line: [UInt8]) -> String {
        var line = line[...]
        while let last = line.last, last == 0x0D || last == 0x20 { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
