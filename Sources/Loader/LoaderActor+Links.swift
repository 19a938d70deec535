import FoundationEssentials
import Model

/// Links remote documents named (`TrackLocation.namedBy`, placed by `SourceSet.location(ofLink:in:)`):
/// read without any source's credentials, and — unless `allow_private_links` — through a transport
/// that will not connect to this machine or its network (`PrivateAddresses`), redirects included.
extension LoaderActor {
    func linkInput(for location: TrackLocation) throws -> TrackInput {
        if location.isFile { throw LoaderError.privateLink(host: "a file of this machine", kind: "local") }
        _ = try HTTPInput.url(of: location)
        // A stranger's link is checked even where the user lets documents' links reach the LAN.
        let checked = !settings.allowPrivateLinks || location.isStrangersLink
        if let input = links[checked] { return .remote(input) }
        var check: (@Sendable (URL) async throws -> Bool)?
        if checked { check = { [proxy = settings.proxy] url in try await PrivateAddresses.refuse(url, proxy: proxy) } }
        let input = HTTPInput(transport: try HTTPTransport(name: "web", readTimeout: settings.readTimeout, proxy: settings.proxy,
                                                           offersCAFile: false, checkingTargets: check))
        links[checked] = input
        return .remote(input)
    }
}
