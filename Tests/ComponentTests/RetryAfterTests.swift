import Foundation
import Loader
import Testing

/// `Retry-After` read as RFC 9110 §10.2.3 writes it: delay-seconds or an HTTP-date.
@Suite struct RetryAfterTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    @Test("seconds, an HTTP-date against the answer's Date (or our clock), a cap, and nothing for what is neither")
    func delays() {
        #expect(RetryAfter.delay("3", date: nil, now: now) == .seconds(3))
        #expect(RetryAfter.delay(" 0 ", date: nil, now: now) == .zero)
        // The date is taken against the answer's own Date header, whatever our clock says.
        #expect(RetryAfter.delay("Tue, 14 Nov 2023 22:13:25 GMT", date: "Tue, 14 Nov 2023 22:13:20 GMT", now: .distantPast) == .seconds(5))
        #expect(RetryAfter.delay("Tue, 14 Nov 2023 22:13:27 GMT", date: nil, now: now) == .seconds(7))
        // Obsolete forms are HTTP-dates too (RFC 9110 §5.6.7).
        #expect(RetryAfter.delay("Tuesday, 14-Nov-23 22:13:30 GMT", date: nil, now: now) == .seconds(10))
        // A date in the past: at once.
        #expect(RetryAfter.delay("Tue, 14 Nov 2023 22:00:00 GMT", date: nil, now: now) == .zero)
        // Capped: a day, or a number too long for any integer, waits the cap.
        #expect(RetryAfter.delay("86400", date: nil, now: now) == RetryAfter.cap)
        #expect(RetryAfter.delay("99999999999999999999999999", date: nil, now: now) == RetryAfter.cap)
        #expect(RetryAfter.delay("Wed, 15 Nov 2023 22:13:20 GMT", date: nil, now: now) == RetryAfter.cap)
        // Neither: no wait asked for (the usual backoff applies).
        for text in [nil, "", "-5", "1.5", "soon", "3 s"] as [String?] {
            #expect(RetryAfter.delay(text, date: nil, now: now) == nil, "\(String(describing: text))")
        }
    }
}
