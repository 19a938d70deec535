import FoundationEssentials
import Loader
import Model

/// Who asks for something to be queued: the user the daemon runs for, or a stranger.
package enum Requester: Sendable, Equatable {
    /// The daemon's own user: the session bus's clients (MPRIS, Manager1, the desktop's search),
    /// an MPD client of the same uid.
    case owner
    /// An MPD client of another user of this machine, or of another machine: it may have been
    /// given the password, never the user's files or the user's network.
    case stranger
}

extension QueueIntake {
    /// Where a URL a stranger names leads, or `QueueRefusal.accessDenied`: never a file of this
    /// machine (MPD's `Client::AllowFile` refuses local files to every TCP client), never this
    /// machine's or its network's addresses — asked before anything is opened, so the refusal
    /// is the same whether the file or the server exists or not. What is let through is a link
    /// of no source (`TrackLocation.named(by: "")`): fetched without any source's credentials,
    /// and checked again at every connection and redirect (`PrivateAddresses`), so a name that
    /// resolves elsewhere later (DNS rebinding) reaches nothing of this machine either. A track
    /// of the library the stranger may name by its path or `cloudplayer://` location instead.
    static func strangersLocation(of url: URL, among sources: SourceSet) async throws -> TrackLocation {
        let scheme = url.scheme?.lowercased() ?? ""
        if scheme == TrackLocation.scheme { return sources.location(of: url) }
        guard scheme == "http" || scheme == "https" else { throw QueueRefusal.accessDenied }
        do {
            try await PrivateAddresses.refuse(url)
        } catch LoaderError.privateLink {
            throw QueueRefusal.accessDenied
        } catch {
            // A name that does not resolve here reaches nothing here either.
        }
        return TrackLocation(url: url).named(by: TrackLocation.strangersLinks)
    }
}
