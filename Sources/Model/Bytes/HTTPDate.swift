import Base

/// HTTP-dates (RFC 9110 §5.6.7) read and written by hand: the three forms are fixed English
/// text in GMT, so a `DateFormatter` — and the ICU locale data behind it — buys nothing.
enum HTTPDate {
    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since 1970 of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), an RFC 850 date
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) or an asctime date (`Sun Nov  6 08:49:37 1994`).
    static func parse(_ text: String, now: Double) -> Int? {
        let words = text.split { $0 == " " || $0 == "," || $0 == "-" }
        guard let dayName = words.first, isDayName(dayName) else { return nil }
        let fields: (day: Substring, month: Substring, year: Substring, clock: Substring)
        if words.count == 5, monthNumber(words[1]) != nil {  // asctime: no zone, the year last
            fields = (words[2], words[1], words[4], words[3])
        } else if words.count == 6, words[5] == "GMT" || words[5] == "UTC" {
            fields = (words[1], words[2], words[3], words[4])
        } else {
            return nil
        }
        let (day, month, year) = (fields.day, fields.month, fields.year)
        let time = fields.clock.split(separator: ":", omittingEmptySubsequences: false)
        guard let monthNumber = monthNumber(month), day.count <= 2, var yearNumber = Int(year), [2, 4].contains(year.count),
              time.count == 3, time.allSatisfy({ $0.count == 2 }),
              let dayNumber = Int(day), let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]) else { return nil }
        if year.count == 2 {
            // RFC 850's two-digit year: the latest such year not more than 50 years ahead.
            let thisYear = CalendarTime.utc(now).year
            yearNumber += thisYear / 100 * 100
            if yearNumber > thisYear + 50 { yearNumber -= 100 }
        }
        return CalendarTime.secondsSince1970(year: yearNumber, month: monthNumber, day: dayNumber, hour: hour, minute: minute, second: second)
    }

    /// The IMF-fixdate of `secondsSince1970`.
    static func format(_ secondsSince1970: Double) -> String {
        let time = CalendarTime.utc(secondsSince1970)
        return "\(dayNames[time.weekday]), \(time.day.zeroPadded(2)) \(monthNames[time.month - 1]) \(time.year.zeroPadded(4)) "
            + "\(time.hour.zeroPadded(2)):\(time.minute.zeroPadded(2)):\(time.second.zeroPadded(2)) GMT"
    }

    /// 1…12 for a month's three-letter name (any case, as the DateFormatter before it took them).
    private static func monthNumber(_ name: Substring) -> Int? {
        monthNames.firstIndex { $0.lowercased() == name.lowercased() }.map { $0 + 1 }
    }

    /// A day's three-letter name or its full name (RFC 850's `Sunday`).
    private static func isDayName(_ name: Substring) -> Bool {
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        let lower = name.lowercased()
        return full.contains(lower) || full.contains { $0.prefix(3) == lower }
    }
}
