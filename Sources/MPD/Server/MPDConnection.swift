import Logging
import NIOCore

/// One client: the greeting, then its lines one by one — a command, a command list, or `idle`
/// and its `noidle` — each answered before the next is read, as MPD does. Writing waits while
/// the client does not read (the channel's write watermarks), so a client that never reads
/// holds at most a watermark of answer, and only its own connection waits — until its silence
/// closes it (`MPDSilenceHandler`). A client that has gone gets nothing more done for it: what
/// it sent before it closed is dropped, not carried out.
struct MPDConnection {
    /// MPD 0.23.5's protocol: `getvol`, `binarylimit`, `readpicture`, filter expressions with
    /// `contains`/`starts_with`... are what clients may expect of it (python-mpd2 and mpc decide by
    /// this number); 0.24's additions (`protocol`, `stickertypes`, `searchcount`) are not offered.
    static let greeting = "OK MPD 0.23.5\n"

    let channel: NIOAsyncChannel<MPDInput, ByteBuffer>
    let context: MPDContext
    var session: MPDSession
    /// What the channel's handlers go by: set as the client is let in, idles and wakes.
    let terms: MPDClientTerms
    let guesses: MPDPasswordGuard
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

    private func serve(_ inbound: NIOAsyncChannelInboundStream<MPDInput>, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        var session = self.session
        let sink: MPDResponse.Sink = { bytes in try await outbound.write(ByteBuffer(bytes: bytes)) }
        try await outbound.write(ByteBuffer(string: Self.greeting))
        var list: MPDCommandList?
        var idle: Task<Set<MPDSubsystem>, Never>?
        for try await item in inbound {
            guard case .lines(var lines) = item else {
                logger.notice("MPD client \(session.id) sent a line over \(terms.current.lineLimit) bytes: closed")
                return
            }
            while let line = lines.readMPDLine() {
                // Gone meanwhile: what it sent is not carried out (a list of 10,000 adds, say).
                guard channel.channel.isActive else {
                    logger.debug("MPD client \(session.id) gone: what it sent after is not carried out")
                    return
                }
                if let waiting = idle {
                    // Idle: only `noidle` may come; it ends the idle with what changed so far (nothing).
                    context.idle.cancel(session.id)
                    let changes = await waiting.value
                    idle = nil
                    terms.setIdling(false)
                    let isNoIdle = Self.line(line, is: "noidle")
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
                if Self.line(line, is: "noidle") { continue }
                if var kept = list {
                    if Self.line(line, is: "command_list_end") {
                        list = nil
                        if try await runList(kept, session: &session, sink: sink) == .close { return }
                        continue
                    }
                    let limit = session.permissions.isEmpty ? MPDLimits.entry.commandListSize : context.settings.limits.maxCommandListSize
                    list = nil  // so that `kept` is the only reference, and grows in place
                    guard kept.append(line, limit: limit) else {
                        logger.notice("MPD client \(session.id) sent a command list over \(limit) bytes: closed")
                        return
                    }
                    list = kept
                    continue
                }
                if Self.line(line, is: "command_list_begin") || Self.line(line, is: "command_list_ok_begin") {
                    list = MPDCommandList(saysEach: Self.line(line, is: "command_list_ok_begin"))
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
                    terms.setIdling(true)
                    idle = startIdle(subsystems, outbound: outbound)
                }
            }
        }
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

    /// Waits for a change in the background while the loop reads the client's next line
    /// (`noidle`); writes `changed:` lines and `OK` when one comes.
    private func startIdle(_ subsystems: Set<MPDSubsystem>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) -> Task<Set<MPDSubsystem>, Never> {
        let (hub, id) = (context.idle, session.id)
        hub.expect(id)
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

    /// Whether `line` is `word`, but for the spaces and carriage return some clients end it with.
    static func line(_ line: ByteBufferView, is word: String) -> Bool {
        var end = line.endIndex
        while end > line.startIndex, [0x0D, 0x20].contains(line[line.index(before: end)]) { end = line.index(before: end) }
        return line[..<end].elementsEqual(word.utf8)
    }
}

extension ByteBuffer {
    /// The next line of whole lines (`MPDInput.lines`), without its newline.
    mutating func readMPDLine() -> ByteBufferView? {
        guard let newline = readableBytesView.firstIndex(of: 0x0A) else { return nil }
        defer { moveReaderIndex(forwardBy: 1) }
        return readSlice(length: newline - readerIndex)?.readableBytesView
    }
}
