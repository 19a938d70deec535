import Base
import FoundationEssentials

/// Reads the dates servers and feeds write, RFC 822 as in RSS and HTTP ("Sat, 07 Sep 2002
/// 00:00:01 GMT", named zones or numeric offsets) and RFC 3339 as in Atom and S3
/// ("2002-09-07T00:00:01.5+02:00"), by hand: feeds mix the two and bend both, and a date that
/// cannot be read is no date rather than an error. One reader for every answer parser.
package enum InternetDate {
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.count <= 100 else { return nil }
        return rfc3339(trimmed) ?? rfc822(trimmed)
    }

    // MARK: RFC 822 / 2822

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -5 * 60, "edt": -4 * 60, "cst": -6 * 60, "cdt": -5 * 60,
        "mst": -7 * 60, "mdt": -6 * 60, "pst": -8 * 60, "pdt": -7 * 60, "bst": 60, "cet": 60, "cest": 120,
        "eet": 120, "eest": 180, "jst": 9 * 60, "aest": 10 * 60, "aedt": 11 * 60,
    ]

    package static func rfc822(_ text: String) -> Date? {
        var tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            .map { $0.lowercased() }
        // An optional day name first.
        let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        if let first = tokens.first, weekdays.contains(where: { first.hasPrefix($0) }) { tokens.removeFirst() }
        // "07 Sep 2002" or, bent, "Sep 07 2002".
        guard tokens.count >= 3 else { return nil }
        var dayToken = tokens[0], monthToken = tokens[1]
        if dayToken.first?.isLetter == true { swap(&dayToken, &monthToken) }
        guard let day = number(dayToken, digits: 1...2),
              let month = months.firstIndex(where: { monthToken.hasPrefix($0) }).map({ $0 + 1 }),
              var year = number(tokens[2], digits: 2...4) else { return nil }
        if tokens[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        var seconds = 0, offsetMinutes = 0
        if tokens.count >= 4 {
            let parts = tokens[3].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard (2...3).contains(parts.count), let hour = number(parts[0], digits: 1...2), hour <= 23,
                  let minute = number(parts[1], digits: 2...2), minute <= 59 else { return nil }
            let second = parts.count == 3 ? number(parts[2], digits: 2...2) : 0
            guard let second, second <= 60 else { return nil }
            seconds = hour * 3600 + minute * 60 + second
        }
        if tokens.count >= 5 {
            offsetMinutes = zone(tokens[4]) ?? 0
        }
        return date(year: year, month: month, day: day, seconds: seconds, offsetMinutes: offsetMinutes)
    }

    /// "+0200", "-04:00", "GMT", "EDT", "GMT+2"; an unknown name (or military letter) counts as UTC.
    private static func zone(_ token: String) -> Int? {
        if let named = zones[token] { return named }
        var text = Substring(token)
        for prefix in ["gmt", "utc", "ut"] where text.hasPrefix(prefix) && text.count > prefix.count {
            text = text.dropFirst(prefix.count)
            break
        }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), (1...4).contains(digits.count) else { return nil }
        let hours: Int, minutes: Int
        if digits.count <= 2 {
            hours = Int(digits) ?? 0
            minutes = 0
        } else {
            let padded = String(repeating: "0", count: 4 - digits.count) + digits
            hours = Int(padded.prefix(2)) ?? 0
            minutes = Int(padded.suffix(2)) ?? 0
        }
        guard hours <= 14, minutes <= 59 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 60 + minutes)
    }

    // MARK: RFC 3339

    package static func rfc3339(_ text: String) -> Date? {
        let chars = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= chars.count else { return nil }
            var value = 0
            for byte in chars[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < chars.count, characters.utf8.contains(chars[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2) else { return nil }
        var seconds = 0, offset = 0
        if index < chars.count {
            guard expect("Tt "), let hour = digits(2), hour <= 23, expect(":"), let minute = digits(2), minute <= 59 else {
                return nil
            }
            var second = 0
            if index < chars.count, chars[index] == UInt8(ascii: ":") {
                index += 1
                guard let value = digits(2), value <= 60 else { return nil }
                second = value
                if index < chars.count, chars[index] == UInt8(ascii: ".") || chars[index] == UInt8(ascii: ",") {
                    index += 1
                    let start = index
                    while index < chars.count, (0x30...0x39).contains(chars[index]) { index += 1 }
                    guard index > start else { return nil }
                }
            }
            seconds = hour * 3600 + minute * 60 + second
            if index < chars.count {
                if expect("Zz") {
                    offset = 0
                } else {
                    guard index < chars.count, chars[index] == UInt8(ascii: "+") || chars[index] == UInt8(ascii: "-") else {
                        return nil
                    }
                    let sign = chars[index] == UInt8(ascii: "-") ? -1 : 1
                    index += 1
                    guard let hours = digits(2), hours <= 14 else { return nil }
                    _ = expect(":")
                    guard let minutes = digits(2), minutes <= 59 else { return nil }
                    offset = sign * (hours * 60 + minutes)
                }
            }
        }
        guard index == chars.count else { return nil }
        return date(year: year, month: month, day: day, seconds: seconds, offsetMinutes: offset)
    }

    // MARK: Calendar arithmetic

    /// The instant of a civil date and time at a UTC offset, nil if the date does not exist.
    private static func date(year: Int, month: Int, day: Int, seconds: Int, offsetMinutes: Int) -> Date? {
        guard (1800...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysIn(month, of: year) else {
            return nil
        }
        let total = daysSinceEpoch(year: year, month: month, day: day) * 86400 + seconds - offsetMinutes * 60
        return Date(timeIntervalSince1970: TimeInterval(total))
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01, counting years from March so the leap day falls last.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400  // years here are positive
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func number(_ text: String, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
