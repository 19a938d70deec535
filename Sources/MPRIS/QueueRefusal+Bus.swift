import DBus
import Playback

/// A refused queue request as the D-Bus error a client sees, the same through MPRIS and
/// Manager1: its name says what kind, its message (`QueueRefusal.description`) why.
extension QueueRefusal {
    package var busError: BusCallError {
        switch self {
        case .nothingNamed, .tooMany, .credentials:
            BusCallError.invalidArguments(description)
        case .notALocation:
            BusCallError(name: "org.freedesktop.DBus.Error.NotSupported", message: description)
        case .cannotPlay:
            BusCallError(name: "org.cloudplayerd.Error.CannotPlay", message: description)
        case .full:
            BusCallError(name: "org.cloudplayerd.Error.QueueFull", message: description)
        case .accessDenied:
            BusCallError(name: "org.freedesktop.DBus.Error.AccessDenied", message: description)
        }
    }
}
