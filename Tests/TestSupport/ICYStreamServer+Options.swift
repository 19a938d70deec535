import Foundation

extension ICYStreamServer {
    /// How the stream is sent; each option is one of icy_stream.py's flags (its docstring has
    /// them all). Offsets are bytes of the served file; fault thresholds count the audio bytes a
    /// connection was sent (metadata blocks not counted).
    public struct Options: Sendable {
        /// The one path served (others answer 404 text/html); nil: every path.
        public var path: String?
        public var contentType = "audio/mpeg"
        /// `icy-name`, `icy-genre`, `icy-url` (nil: no such header).
        public var name: String? = "Test Radio"
        public var genre: String? = "Test"
        public var homepage: String?
        /// kbit/s: `icy-br`, and what real-time pacing paces by (`RadioFixtures.station` is 128).
        public var bitrate = 128
        /// SHOUTcast's `ICY 200 OK` status line instead of `HTTP/1.0 200 OK`.
        public var icyStatusLine = false
        /// The status line sent as it is, in place of either: `ICY 401 Service Unavailable`, or garbage.
        public var statusLine: String?
        /// After the status line, header lines without end: never the blank line, never a body.
        public var endlessHead = false
        /// No `icy-` header and no metadata at all: a plain server sending a file without a length.
        public var plain = false
        /// The `icy-metaint` header, sent as it is. Blocks go in every that many audio bytes when
        /// it is a whole number above 0; "0", "-1", "abc" or "99999999999" are sent and no block
        /// is ever reached.
        public var metaint = "16000"
        /// Blocks (and `icy-metaint`) even when the request did not send `Icy-MetaData: 1`.
        public var alwaysInsertMetadata = false
        /// The title schedule: each from its offset on, until the next. A block carries the title
        /// of the audio after it; a block whose title is the one sent last has length byte 0.
        public var titles: [TitleChange] = []
        /// How `.text` titles become bytes.
        public var titleEncoding = TextEncoding.utf8
        /// How the answer's head (`icy-name`, `icy-genre`) becomes bytes.
        public var headerEncoding = TextEncoding.utf8
        /// The first block at or after `offset` claims 255 × 16 bytes but carries only its
        /// `StreamTitle`; then the connection closes, or (`continues`) the audio goes on at once,
        /// and the client's block swallows audio.
        public var overlongBlock: (offset: Int, continues: Bool)?
        public var pace = Pace.realTime
        /// Audio sent at once before pacing starts, as Icecast's burst-on-connect (64 KB there).
        public var burst = 0
        /// The file again from its start at its end: endless. Else the connection closes there.
        public var loop = false
        public var fault: Fault?

        public init() {}

        /// Sent as fast as the client reads (`pace`), with `titles`: a station the decoder never
        /// waits for, far ahead of it.
        public static func asFastAsPossible(contentType: String = "audio/mpeg", titles: [TitleChange] = []) -> Options {
            var options = Options()
            (options.contentType, options.titles, options.pace) = (contentType, titles, .asFastAsPossible)
            return options
        }

        public enum TextEncoding: String, Sendable {
            case utf8 = "utf-8"
            case latin1 = "latin-1"
        }

        public enum Pace: Sendable {
            /// By `bitrate`.
            case realTime
            /// As fast as the client reads.
            case asFastAsPossible
            /// N × real time.
            case times(Double)
        }

        public enum Fault: Sendable {
            /// After `afterBytes` audio bytes nothing more is sent; the connection stays open.
            case stall(afterBytes: Int)
            /// After `afterBytes`, one byte every `secondsPerByte`.
            case trickle(afterBytes: Int, secondsPerByte: Double)
            /// The request is read (and logged) and never answered; the connection stays open.
            case neverAnswer
            /// The connection closes after `afterBytes`: the first `connections` ones (nil: every
            /// one). `resume`: the next connection goes on from where the dropped one stopped,
            /// not from the file's start. `reset`: a TCP reset rather than an orderly close.
            case drop(afterBytes: Int, connections: Int? = nil, resume: Bool = false, reset: Bool = false)
        }

        /// icy_stream.py's flags for these options, each `--flag=value`, so a value that starts
        /// with `-` ("-1" as `metaint`) is not taken for a flag.
        var arguments: [String] {
            var flags: [(String, String?)] = [("content-type", contentType), ("bitrate", String(bitrate)), ("metaint", metaint),
                                              ("title-encoding", titleEncoding.rawValue), ("header-encoding", headerEncoding.rawValue),
                                              ("burst", String(burst)),
                                              ("path", path), ("name", name), ("genre", genre), ("url", homepage),
                                              ("status", statusLine)]
            flags += titles.map(\.argument)
            if let overlongBlock { flags.append(("overlong-at", String(overlongBlock.offset))) }
            switch pace {
            case .realTime: flags.append(("pace", "realtime"))
            case .asFastAsPossible: flags.append(("pace", "fast"))
            case .times(let factor): flags.append(("pace", String(factor)))
            }
            switch fault {
            case nil, .neverAnswer: break
            case .stall(let bytes): flags.append(("stall-after", String(bytes)))
            case .trickle(let bytes, let seconds): flags += [("trickle-after", String(bytes)), ("trickle-every", String(seconds))]
            case .drop(let bytes, let connections, _, _): flags += [("drop-after", String(bytes)), ("drops", String(connections ?? 0))]
            }
            let switches: [(String, Bool)] = [
                ("icy-status", icyStatusLine), ("endless-head", endlessHead), ("plain", plain), ("always-metadata", alwaysInsertMetadata), ("loop", loop),
                ("overlong-continues", overlongBlock?.continues == true), ("never-answer", neverAnswers),
                ("resume", dropping?.resume == true), ("drop-reset", dropping?.reset == true),
            ]
            return flags.compactMap { flag, value in value.map { "--\(flag)=\($0)" } } + switches.filter(\.1).map { "--\($0.0)" }
        }

        private var neverAnswers: Bool {
            if case .neverAnswer = fault { true } else { false }
        }

        private var dropping: (resume: Bool, reset: Bool)? {
            if case .drop(_, _, let resume, let reset) = fault { (resume, reset) } else { nil }
        }
    }

    /// From audio byte `offset` of the file on, the title is `title`.
    public struct TitleChange: Sendable {
        public let offset: Int
        public let title: Title

        public enum Title: Sendable {
            /// Encoded as `Options.titleEncoding` says.
            case text(String)
            /// These bytes between `StreamTitle='` and `';`, whatever they are.
            case raw([UInt8])
        }

        public init(at offset: Int, _ text: String) {
            self.offset = offset
            title = .text(text)
        }

        public init(at offset: Int, raw: [UInt8]) {
            self.offset = offset
            title = .raw(raw)
        }

        var argument: (String, String?) {
            switch title {
            case .text(let text): ("title", "\(offset):\(text)")
            case .raw(let bytes): ("title-hex", "\(offset):" + bytes.map { String(format: "%02x", $0) }.joined())
            }
        }
    }
}
