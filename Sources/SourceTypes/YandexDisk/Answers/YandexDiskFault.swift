/// An API error body: `{"message", "description", "error"}` (`UnauthorizedError`,
/// `DiskNotFoundError`, `TooManyRequestsError`). https://yandex.com/dev/disk-api/doc/en/reference/response-objects#error
package struct YandexDiskFault: Decodable, Sendable, Equatable {
    package var error: String?
    package var message: String?
    package var description: String?
}
