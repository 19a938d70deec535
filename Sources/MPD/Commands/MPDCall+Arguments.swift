import Playback

/// Arguments read as MPD reads them, with MPD's messages when they are not what is expected.
extension MPDCall {
    /// A URI with a scheme the player does not open (`mpd-client://`, `ftp://`) is refused as
    /// MPD refuses it (`LocateUri`: `ACK [2@0] {lsinfo} Unsupported URI scheme`), not looked for
    /// in the library.
    package func checkScheme(_ uri: String) throws(MPDError) {
        guard let separator = uri.firstRange(of: "://") else { return }
        let scheme = uri[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return }
        guard !QueueIntake.schemes.contains(scheme.lowercased()) else { return }
        throw MPDError(.argument, "Unsupported URI scheme")
    }

    /// An integer (`Integer expected: X`).
    package func int(_ index: Int) throws(MPDError) -> Int {
        let text = argument(index) ?? ""
        guard let value = Int(text) else { throw MPDError(.argument, "Integer expected: \(text.prefix(64))") }
        return value
    }

    /// A non-negative integer (a position, an id).
    package func unsigned(_ index: Int) throws(MPDError) -> Int {
        let value = try int(index)
        guard value >= 0 else { throw MPDError(.argument, "Number is negative: \(value)") }
        return value
    }

    /// `0` or `1` (`Boolean (0/1) expected: X`).
    package func bool(_ index: Int) throws(MPDError) -> Bool {
        switch argument(index) {
        case "0": return false
        case "1": return true
        case let text: throw MPDError(.argument, "Boolean (0/1) expected: \((text ?? "").prefix(64))")
        }
    }

    /// A number of seconds, fractions allowed (`Float expected: X`).
    package func seconds(_ index: Int) throws(MPDError) -> Double {
        let text = argument(index) ?? ""
        guard let value = Double(text), value.isFinite else { throw MPDError(.argument, "Float expected: \(text.prefix(64))") }
        return value
    }

    /// `START:END` (END open: to the end), or one position N (N:N+1), as queue and `window`
    /// arguments take them.
    package func range(_ index: Int) throws(MPDError) -> Range<Int> {
        let text = argument(index) ?? ""
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let start = Int(parts[0]), start >= 0 else { throw MPDError(.argument, "Integer or range expected: \(text.prefix(64))") }
        guard parts.count == 2 else {
            guard start < Int.max else { throw MPDError(.argument, "Number too large: \(text.prefix(64))") }
            return start..<(start + 1)
        }
        if parts[1].isEmpty { return start..<Int.max }
        guard let end = Int(parts[1]), end >= 0 else { throw MPDError(.argument, "Integer or range expected: \(text.prefix(64))") }
        guard end >= start else { throw MPDError(.argument, "Malformed range: \(text.prefix(64))") }
        return start..<end
    }
}
