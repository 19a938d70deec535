import CSystemd
import FoundationEssentials
import Glibc
import Logging

/// A swift-log handler that writes to the systemd journal with a priority and structured
/// fields (`LOGGER=`, `CODE_FILE=`…, and each metadata key upper-cased), so `journalctl
/// --user -u cloudplayerd -p warning` and `journalctl SOURCE=dav` work.
package struct JournalLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    private let label: String

    package init(label: String) {
        self.label = label
    }

    /// Whether standard error goes to the journal (systemd sets `JOURNAL_STREAM` to its
    /// device and inode): then logging there is better than a plain line.
    package static var isConnected: Bool {
        guard let stream = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":").compactMap { UInt64($0) }
        var info = stat()
        guard parts.count == 2, fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == parts[0] && UInt64(info.st_ino) == parts[1]
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields = [
            "MESSAGE=\(event.message)", "PRIORITY=\(Self.priority(event.level))", "SYSLOG_IDENTIFIER=cloudplayerd",
            "LOGGER=\(label)", "CODE_FILE=\(event.file)", "CODE_LINE=\(event.line)", "CODE_FUNC=\(event.function)",
        ]
        if let error = event.error { fields.append("ERROR=\(error)") }
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            let name = Self.fieldName(key)
            guard !name.isEmpty else { continue }
            fields.append("\(name)=\(value)")
        }
        Self.send(fields)
    }

    /// syslog priorities: 2 critical … 7 debug.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// A journal field name: upper-case letters, digits and underscores, not starting with one
    /// (those are the journal's own).
    static func fieldName(_ key: String) -> String {
        let mapped = key.uppercased().unicodeScalars.map { scalar -> Character in
            ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                ? Character(scalar) : "_"
        }
        let name = String(mapped).drop { $0 == "_" || $0.isNumber }
        return String(name.prefix(64))
    }

    /// sd_journal_sendv: one datagram to journald, which does not block for long. All fields
    /// live in one buffer, so every pointer is valid for the whole call.
    private static func send(_ fields: [String]) {
        var storage: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for field in fields {
            let start = storage.count
            storage += field.utf8
            spans.append((start, storage.count - start))
        }
        storage.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var vectors = spans.map { iovec(iov_base: base + $0.start, iov_len: $0.count) }
            _ = sd_journal_sendv(&vectors, Int32(vectors.count))
        }
    }
}
