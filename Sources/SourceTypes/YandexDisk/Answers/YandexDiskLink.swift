/// The API's `Link` object: where to send a request (a download's short-lived `href` on another
/// host). https://yandex.com/dev/disk-api/doc/en/reference/content
package struct YandexDiskLink: Decodable, Sendable, Equatable {
    package var href: String
    package var method: String?
    /// An RFC 6570 template, which a download link never is: one that is, is refused.
    package var templated: Bool?
}
