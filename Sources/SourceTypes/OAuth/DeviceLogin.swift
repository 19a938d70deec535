import FoundationEssentials
import Model
import OAuthAnswers

/// The device authorization grant (RFC 8628): asks for a device code, shows the user where to
/// enter the user code, then polls the token endpoint at the interval asked — slower by 5 s after
/// each `slow_down` — until the user approved, denied, or the code expired.
package struct DeviceLogin: Sendable {
    package let client: OAuthClient

    package init(client: OAuthClient) {
        self.client = client
    }

    /// `show`: what to tell the user (the address and the code), once.
    package nonisolated(nonsending) func run(show: @Sendable (String) -> Void) async throws -> TokenRecord {
        let source = client.source
        let device = try await client.deviceAuthorization()
        guard let address = device.verification else {
            throw LoaderError.service(source: source, reason: "the device login endpoint named no verification address")
        }
        show("To let cloudplayerd read '\(source)', open \(address) and enter the code \(device.userCode)")
        var interval = max(device.interval ?? 5, 1)
        let deadline = ContinuousClock.now + .seconds(device.expiresIn ?? 600)
        let settings = client.settings
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .seconds(interval))
            do {
                return try await client.grant([("grant_type", settings.deviceGrantType), (settings.deviceCodeParameter, device.deviceCode)])
            } catch let refusal as OAuthRefusal {
                switch refusal.code {
                case "authorization_pending": continue
                case "slow_down": interval += 5
                case "expired_token": throw LoaderError.service(source: source, reason: "the code expired before it was entered; log in again")
                case "access_denied": throw LoaderError.service(source: source, reason: "access was denied at the provider")
                default: throw LoaderError.service(source: source, reason: "login failed: \(refusal)")
                }
            }
        }
        throw LoaderError.service(source: source, reason: "the code expired before it was entered; log in again")
    }
}
