import Foundation
import TestSupport

// bench/stream's byte counter: the tests' fault proxy in front of a WebDAV server, driven
// from standard input so a shell script can read its counts between runs.
//   cloudplayerd-streamproxy ORIGIN_PORT [LATENCY_MS] [BYTES_PER_SECOND]
// Prints "port N", then answers each line on stdin:
//   stats     → "bytes B requests R" for GET requests since the last stats (and clears them)
//   chaos P   → from now on P % of requests meet a random fault (reset, stall, 503)
//   quit      → exits
let arguments = CommandLine.arguments
guard arguments.count >= 2, let origin = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: cloudplayerd-streamproxy ORIGIN_PORT [LATENCY_MS] [BYTES_PER_SECOND]\n".utf8))
    exit(2)
}
let proxy = try FaultProxy(originPort: origin)
if arguments.count >= 3, let milliseconds = Double(arguments[2]) { proxy.setLatency(seconds: milliseconds / 1000) }
if arguments.count >= 4, let rate = Int(arguments[3]) { proxy.setRate(bytesPerSecond: rate) }
/// One line to standard output, unbuffered (a pipe would hold it back).
func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

answer("port \(proxy.port)")
while let line = readLine() {
    switch line.trimmingCharacters(in: .whitespaces) {
    case "stats":
        let gets = proxy.log.filter { $0.method == "GET" }
        answer("bytes \(gets.reduce(0) { $0 + $1.bodyBytes }) requests \(gets.count)")
        proxy.clearLog()
    case "quit":
        exit(0)
    case let command where command.hasPrefix("chaos "):
        proxy.setChaos(percent: Int(command.dropFirst(6)) ?? 0)
        answer("ok")
    default:
        answer("unknown command")
    }
}
