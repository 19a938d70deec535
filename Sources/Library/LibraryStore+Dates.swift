import FoundationEssentials
import SQLite

/// Dates as the library has always stored them: text, `YYYY-MM-DD HH:MM:SS.SSS` in UTC (the form
/// GRDB wrote, and one SQLite's date functions read). Read back are that form with or without
/// the fraction, a date alone, and numbers (seconds since 1970).
extension Date: SQLiteConvertible {
    private static let stored = Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeZone: .gmt)
        .year().month().day().time(includingFractionalSeconds: true)
    private static let day = Date.ISO8601FormatStyle(dateSeparator: .dash, timeZone: .gmt).year().month().day()

    package var sqliteValue: SQLiteValue { .text(Self.stored.format(self)) }

    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        switch sqliteValue {
        case .integer(let seconds): self.init(timeIntervalSince1970: Double(seconds))
        case .real(let seconds): self.init(timeIntervalSince1970: seconds)
        case .text(let text):
            guard let date = [Self.stored, Self.day].lazy.compactMap({ try? $0.parse(text) }).first else {
                throw .mismatch(sqliteValue, expected: "a date")
            }
            self = date
        default:
            throw .mismatch(sqliteValue, expected: "a date")
        }
    }
}
