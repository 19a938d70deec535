import Foundation
import TestSupport

// bench/stream's byte counter: the tests' fault proxy in front of a WebDAV server, driven
// from standard input so a shell script can read its counts between runs.
//   cloudplayerd-streamproxy ORIGIN_PORT [LATENCY_MS] [BYTES_PER_SECOND]
//       in front of a server already running on 127.0.0.1:ORIGIN_PORT
//   cloudplayerd-streamproxy KIND FOLDER [LATENCY_MS] [BYTES_PER_SECOND]
//       starts the tests' WebDAV server of that kind (rclone, nginx, wsgidav, apache) serving a
//       copy of FOLDER's files, stopped when this program ends
// Prints "port N user U password P" (user and password empty for a server of one's own), then
// answers each line on stdin:
//   stats     → "bytes B requests R" for GET requests since the last stats (and clears them)
//   chaos P   → from now on P % of requests meet a random fault (reset, stall, 503)
//   weak on|off → every ETag passed on weak (W/"…"), as web frameworks answer
//   quit      → exits
let arguments = CommandLine.arguments
func usage() -> Never {
    FileHandle.standardError.write(Data("""
        usage: cloudplayerd-streamproxy ORIGIN_PORT [LATENCY_MS] [BYTES_PER_SECOND]
               cloudplayerd-streamproxy rclone|nginx|wsgidav|apache FOLDER [LATENCY_MS] [BYTES_PER_SECOND]

        """.utf8))
    exit(2)
}
guard arguments.count >= 2 else { usage() }
var server: WebDAVTestServer?
var rest = Array(arguments.dropFirst(2))
let originPort: Int
if let port = Int(arguments[1]) {
    originPort = port
} else if let kind = WebDAVTestServer.Kind(rawValue: arguments[1]), let folder = rest.first {
    rest.removeFirst()
    let started = try await WebDAVTestServer(kind)
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".") {
        try started.publish(URL(fileURLWithPath: folder).appendingPathComponent(name), as: name)
    }
    server = started
    originPort = started.port
} else {
    usage()
}
let proxy = try FaultProxy(originPort: originPort)
if let milliseconds = rest.first.flatMap(Double.init) { proxy.setLatency(seconds: milliseconds / 1000) }
if let rate = rest.dropFirst().first.flatMap(Int.init) { proxy.setRate(bytesPerSecond: rate) }
/// One line to standard output, unbuffered (a pipe would hold it back).
func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

answer("port \(proxy.port) user \(server?.username ?? "") password \(server?.password ?? "")")
while let line = readLine() {
    switch line.trimmingCharacters(in: .whitespaces) {
    case "stats":
        let gets = proxy.log.filter { $0.method == "GET" }
        answer("bytes \(gets.reduce(0) { $0 + $1.bodyBytes }) requests \(gets.count)")
        proxy.clearLog()
    case "quit":
        exit(0)
    case "weak on", "weak off":
        proxy.setWeakensETags(line.hasSuffix("on"))
        answer("ok")
    case let command where command.hasPrefix("chaos "):
        proxy.setChaos(percent: Int(command.dropFirst(6)) ?? 0)
        answer("ok")
    default:
        answer("unknown command")
    }
}
withExtendedLifetime(server) {}
