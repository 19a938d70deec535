/// A Graph error body: `{"error": {"code": "itemNotFound", "message": "…"}}`.
/// https://learn.microsoft.com/graph/errors
package struct OneDriveFault: Decodable, Sendable, Equatable {
    package var error: Detail

    package struct Detail: Decodable, Sendable, Equatable {
        package var code: String?
        package var message: String?
    }
}
