/// One command line as MPD reads it: a command name (a letter, then letters, digits and `_`)
/// and arguments, each either unquoted (printable, no quotes) or in double quotes with backslash
/// escapes. A line MPD's tokenizer refuses is refused here with MPD's message.
package struct MPDRequest: Sendable, Equatable {
    package var name: String
    package var arguments: [String]

    package init(name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// Why a line is not a request: the message (none: MPD closes without a word), and whether
    /// MPD closes the connection for it (a line without a readable command name: "this client
    /// does not speak the MPD protocol").
    package struct Refusal: Error, Sendable, Equatable {
        package var error: MPDError?
        package var closes: Bool

        package init(error: MPDError?, closes: Bool) {
            self.error = error
            self.closes = closes
        }
    }

    /// Most arguments a command takes (MPD's COMMAND_ARGV_MAX).
    package static let maxArguments = 4096

    /// Reads one line, without its newline (a trailing `\r` is taken as part of the line's
    /// whitespace, as some clients send CRLF).
    package static func parse(_ line: some Collection<UInt8>) throws(Refusal) -> MPDRequest {
        var bytes = Array(line)
        while let last = bytes.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            bytes.removeLast()
        }
        var index = bytes.startIndex
        skipSpace(bytes, &index)
        // MPD closes on a line that does not start with a lower-case letter (empty, junk, an HTTP
        // request sent to the wrong port) without an answer.
        guard index == bytes.startIndex, index < bytes.endIndex,
              bytes[index] >= UInt8(ascii: "a"), bytes[index] <= UInt8(ascii: "z") else { throw Refusal(error: nil, closes: true) }
        let nameStart = index
        while index < bytes.endIndex, isWordByte(bytes[index]) { index += 1 }
        if index < bytes.endIndex, !isSpace(bytes[index]) {
            throw Refusal(error: MPDError(.unknown, "Invalid word character"), closes: true)
        }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        var arguments: [String] = []
        skipSpace(bytes, &index)
        while index < bytes.endIndex {
            guard arguments.count < maxArguments else { throw Refusal(error: MPDError(.argument, "Too many arguments"), closes: false) }
            arguments.append(try argument(bytes, &index))
            skipSpace(bytes, &index)
        }
        return MPDRequest(name: name, arguments: arguments)
    }

    private static func argument(_ bytes: [UInt8], _ index: inout Int) throws(Refusal) -> String {
        var value: [UInt8] = []
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            while true {
                guard index < bytes.endIndex else { throw Refusal(error: MPDError(.unknown, "Missing closing '\"'"), closes: false) }
                var byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < bytes.endIndex else { throw Refusal(error: MPDError(.unknown, "Missing closing '\"'"), closes: false) }
                    byte = bytes[index]
                }
                value.append(byte)
                index += 1
            }
            index += 1
            if index < bytes.endIndex, !isSpace(bytes[index]) {
                throw Refusal(error: MPDError(.unknown, "Space expected after closing '\"'"), closes: false)
            }
        } else {
            while index < bytes.endIndex, !isSpace(bytes[index]) {
                let byte = bytes[index]
                guard byte > 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "'"), byte != 0x7F else {
                    throw Refusal(error: MPDError(.unknown, "Invalid unquoted character"), closes: false)
                }
                value.append(byte)
                index += 1
            }
        }
        // Not UTF-8 (junk): the invalid bytes become U+FFFD, so no later step meets them.
        return String(decoding: value, as: UTF8.self)
    }

    private static func skipSpace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.endIndex, isSpace(bytes[index]) { index += 1 }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}
