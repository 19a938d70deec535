import Base
import FoundationEssentials

/// The version of a remote file as servers state it (RFC 9110 §8.8): an entity tag, a
/// Last-Modified date, or both. Kept as text (`text`) in `ResourceInfo`, the cache record and the
/// library; this type reads that text and answers the two questions asked of it: "is it the same
/// version?" (`sameVersion`) and "what may `If-Range` carry?" (`ifRange`).
///
/// The text is the entity tag in its quoted form (`"x"` or `W/"x"`), the date, or the tag, one
/// space and the date. Records written before the date was kept next to the tag hold one of the
/// two alone, and read the same way.
package struct Validator: Sendable, Equatable {
    /// An entity tag: its opaque text (without quotes) and whether it is weak (`W/`).
    package struct EntityTag: Sendable, Equatable {
        package var opaque: String
        package var isWeak: Bool

        package init(opaque: String, isWeak: Bool = false) {
            self.opaque = opaque
            self.isWeak = isWeak
        }

        /// A tag as a header writes it (`"x"`, `W/"x"`), with the rest of `text` after it; nil
        /// when `text` does not start with one. `unquoted`: a bare tag (a PROPFIND `getetag`
        /// without quotes, which WsgiDAV sends) is read as the quoted one.
        static func parse(_ text: Substring, unquoted: Bool) -> (EntityTag, rest: Substring)? {
            var rest = text.drop { $0 == " " || $0 == "\t" }
            var weak = false
            if rest.hasPrefix("W/") || rest.hasPrefix("w/") {
                weak = true
                rest = rest.dropFirst(2)
            }
            if rest.hasPrefix("\"") {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { return nil }
                return (EntityTag(opaque: String(body[..<close]), isWeak: weak), body[body.index(after: close)...])
            }
            let bare = rest.trimmingBlanks()
            guard unquoted, !bare.isEmpty, !bare.contains("\"") else { return nil }
            return (EntityTag(opaque: bare, isWeak: weak), "")
        }

        /// The tag as a header carries it.
        package var text: String { (isWeak ? "W/" : "") + "\"" + opaque + "\"" }
    }

    package var etag: EntityTag?
    /// The Last-Modified date as the server wrote it (or, for a local file, its own version text).
    package var lastModified: String?
    /// The date may stand in `If-Range`: it lies at least 60 seconds before the `Date` of the
    /// answer that gave it (RFC 9110 §8.8.2.2: a client may deduce a strong Last-Modified only so;
    /// the margin covers a date and a modification time from different clocks). Known only from
    /// an answer, not kept in `text`.
    package var dateIsStrong = false
    /// How long before the answer's `Date` a Last-Modified date must lie to be strong.
    static let strongDateMargin: TimeInterval = 60

    /// From a header or PROPFIND property each (`etag` quoted or not); nil when both are absent.
    package init?(etag: String?, lastModified: String?) {
        self.etag = etag.flatMap { EntityTag.parse(Substring($0), unquoted: true)?.0 }
        self.lastModified = lastModified.map { $0.trimmingBlanks() }.flatMap { $0.isEmpty ? nil : $0 }
        if self.etag == nil && self.lastModified == nil { return nil }
    }

    /// From a response's `ETag`, `Last-Modified` and `Date` headers.
    package init?(etag: String?, lastModified: String?, date: String?) {
        self.init(etag: etag, lastModified: lastModified)
        if let modified = self.lastModified.flatMap(Self.date), let answered = date.flatMap(Self.date) {
            dateIsStrong = modified.addingTimeInterval(Self.strongDateMargin) <= answered
        }
    }

    /// From `text` (this type's own, or a record written before it); nil for empty text.
    package init?(text: String?) {
        guard let text, !text.trimmingBlanks().isEmpty else { return nil }
        if let parsed = EntityTag.parse(Substring(text), unquoted: false) {
            etag = parsed.0
            let date = parsed.rest.trimmingBlanks()
            lastModified = date.isEmpty ? nil : date
        } else {
            lastModified = text.trimmingBlanks()
        }
    }

    /// What `ResourceInfo`, the cache record and the library keep.
    package var text: String {
        [etag?.text, lastModified].compactMap { $0 }.joined(separator: " ")
    }

    /// Whether two statements of a version are of the same one: entity tags by the weak
    /// comparison (`W/"x"` is `"x"`, RFC 9110 §8.8.3.2), else dates with dates; nil when they
    /// share no kind (a tag against a date only) and so cannot be compared.
    package static func sameVersion(_ a: Validator, _ b: Validator) -> Bool? {
        if let left = a.etag, let right = b.etag { return left.opaque == right.opaque }
        if let left = a.lastModified, let right = b.lastModified {
            if let first = date(left), let second = date(right) { return first == second }
            return left == right
        }
        return nil
    }

    /// Whether a copy cached under `recorded` is the version a listing states now (`listed`). A
    /// listing that states nothing leaves it to the length; one that cannot be compared with the
    /// record (a date against a record from before dates were kept next to tags, or no record of
    /// a version at all) counts as another version: fetched once more, the record then keeps
    /// GET's tag and date and compares from then on. Never "the same" by default: a file
    /// rewritten at its old length would be served from the old bytes for good.
    package static func cachedCopyIsCurrent(listed: String?, recorded: String?) -> Bool {
        guard let listed = Validator(text: listed) else { return true }
        guard let recorded = Validator(text: recorded) else { return false }
        return sameVersion(listed, recorded) ?? false
    }

    /// `sameVersion` of two texts; nil when either is missing or they cannot be compared.
    package static func sameVersion(_ a: String?, _ b: String?) -> Bool? {
        guard let left = Validator(text: a), let right = Validator(text: b) else { return nil }
        return sameVersion(left, right)
    }

    /// What is known of the version from both: `newer`'s statements, and `older`'s where `newer`
    /// has none (a listing's date next to a GET's tag).
    package func merging(_ older: Validator?) -> Validator {
        var merged = self
        if merged.etag == nil { merged.etag = older?.etag }
        if merged.lastModified == nil {
            merged.lastModified = older?.lastModified
            merged.dateIsStrong = older?.dateIsStrong ?? false
        }
        return merged
    }

    /// What `If-Range` may carry (RFC 9110 §13.1.5): a strong entity tag; a date only when the
    /// server gave no entity tag at all and the date is strong. Nil: send a bare `Range` and check
    /// the answer's Content-Range and validators before using a byte of it.
    package var ifRange: String? {
        if let etag { return etag.isWeak ? nil : etag.text }
        return dateIsStrong ? lastModified : nil
    }

    /// An HTTP-date (IMF-fixdate, and the obsolete RFC 850 and asctime forms, RFC 9110 §5.6.7).
    package static func date(_ text: String) -> Date? {
        // Every form starts with a day name; a local file's "seconds.nanoseconds" version, which
        // a rescan compares for every file, is no date.
        HTTPDate.parse(text.trimmingBlanks(), now: Date().timeIntervalSince1970).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form `Last-Modified` takes:
    /// for a date a listing gives in another form (S3's ISO 8601).
    package static func httpDate(_ date: Date) -> String {
        HTTPDate.format(date.timeIntervalSince1970)
    }
}
