/// Box's client error body: `{"type": "error", "status": 404, "code": "not_found", "message":
/// "…", "request_id": "…"}`. https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors
package struct BoxFault: Decodable, Sendable, Equatable {
    package var type: String?
    package var status: Int?
    package var code: String?
    package var message: String?
}
