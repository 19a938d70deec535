import FoundationEssentials
import Loader
import Model

extension RemoteInput {
    /// The key of one of this source's own tracks (`cloudplayer://NAME/KEY`); any other location
    /// is not this input's to read.
    func ownKey(of location: TrackLocation) throws -> String {
        guard location.source == name, location.url == nil, !location.key.isEmpty else {
            throw LoaderError.unsupportedScheme(location.url?.scheme ?? TrackLocation.scheme)
        }
        return location.key
    }
}
