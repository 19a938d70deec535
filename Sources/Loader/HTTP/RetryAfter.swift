import Base
import FoundationEssentials
import Model
import NIOHTTP1

/// How long a server that answered 429 or 503 asked to be left alone: `Retry-After` as seconds
/// or an HTTP-date (RFC 9110 §10.2.3), capped so a stray header cannot silence a track for hours.
package enum RetryAfter {
    /// The longest wait honoured; a longer request is met after this (and counts as a try).
    package static let cap = Duration.seconds(60)

    /// The wait an answer asks for, or nil when it names none. A date is taken relative to the
    /// answer's own `Date` header when it has one, so the two clocks need not agree.
    package static func delay(in headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        delay(headers.first(name: "Retry-After"), date: headers.first(name: "Date"), now: now)
    }

    package static func delay(_ value: String?, date: String?, now: Date = Date()) -> Duration? {
        guard let text = value?.trimmingBlanks(), !text.isEmpty else { return nil }
        let seconds: Double
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            seconds = Double(text) ?? 0
        } else if let when = Validator.date(text) {
            seconds = when.timeIntervalSince(date.flatMap(Validator.date) ?? now)
        } else {
            return nil
        }
        let capped = min(max(seconds, 0), Double(cap.components.seconds))
        return .milliseconds(Int64((capped * 1000).rounded()))
    }
}
