import Foundation

extension HLSServer {
    /// One answered request, from nginx's access log (`log_format hls`: tab-separated method, the
    /// path as requested, status, body bytes sent, Range header or "-").
    public struct Request: Sendable, Equatable, CustomStringConvertible {
        public let method: String
        /// As requested, query included: "/ts-aac-1a2b3c4d/seg0.ts".
        public let path: String
        public let status: Int
        /// Body bytes sent: less than the file for a range, or for a client that hung up.
        public let bytes: Int
        /// The request's Range header, nil when it had none.
        public let range: String?

        init?(logLine line: Substring) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 5, let status = Int(fields[2]), let bytes = Int(fields[3]) else { return nil }
            (method, path, self.status, self.bytes) = (String(fields[0]), String(fields[1]), status, bytes)
            range = fields[4] == "-" ? nil : String(fields[4])
        }

        public var description: String {
            "\(method) \(path) \(status) \(bytes) bytes" + (range.map { " (Range: \($0))" } ?? "")
        }
    }
}
