import Glibc

/// A moment's calendar fields, from the C library's `gmtime_r` or `localtime_r`: what the daemon
/// prints and signs with (file stamps, SigV4's `x-amz-date`, HTTP dates, a table's times) needs
/// the Gregorian calendar in UTC or the local zone only — not `DateFormatter`, `Calendar` or the
/// ICU data behind them.
package struct CalendarTime: Sendable, Equatable {
    package var year, month, day, hour, minute, second: Int
    /// 0 Sunday … 6 Saturday.
    package var weekday: Int

    /// The UTC fields of `secondsSince1970` (whole seconds, rounded down).
    package static func utc(_ secondsSince1970: Double) -> CalendarTime {
        CalendarTime(secondsSince1970, gmtime_r)
    }

    /// The fields of `secondsSince1970` in the local time zone (TZ, /etc/localtime).
    package static func local(_ secondsSince1970: Double) -> CalendarTime {
        CalendarTime(secondsSince1970, localtime_r)
    }

    private init(_ secondsSince1970: Double, _ split: (UnsafePointer<time_t>, UnsafeMutablePointer<tm>) -> UnsafeMutablePointer<tm>?) {
        var time = time_t(secondsSince1970.rounded(.down))
        var fields = tm()
        _ = split(&time, &fields)
        year = Int(fields.tm_year) + 1900
        month = Int(fields.tm_mon) + 1
        day = Int(fields.tm_mday)
        hour = Int(fields.tm_hour)
        minute = Int(fields.tm_min)
        second = Int(fields.tm_sec)
        weekday = Int(fields.tm_wday)
    }

    /// Seconds since 1970 of the given UTC fields, or nil when a field is out of its range.
    package static func secondsSince1970(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        let seconds = timegm(&fields)
        // timegm normalises 31 April to 1 May: a day the month does not have is no date.
        guard Int(fields.tm_mday) == day else { return nil }
        return Int(seconds)
    }

    /// `YYYYMMDDTHHMMSSZ` of UTC fields (ISO 8601's basic form, as SigV4 and file stamps write it).
    package var basicStamp: String {
        year.zeroPadded(4) + month.zeroPadded(2) + day.zeroPadded(2) + "T" + hour.zeroPadded(2) + minute.zeroPadded(2)
            + second.zeroPadded(2) + "Z"
    }

    /// `YYYY-MM-DD HH:MM`, for a table.
    package var minuteText: String {
        "\(year.zeroPadded(4))-\(month.zeroPadded(2))-\(day.zeroPadded(2)) \(hour.zeroPadded(2)):\(minute.zeroPadded(2))"
    }
}
