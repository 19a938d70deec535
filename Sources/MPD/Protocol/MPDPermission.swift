/// What a client may do, as MPD's permissions (`read`, `add`, `control`, `admin`): each command
/// needs one of them (or none: `ping`, `password`, `close`, `commands`, ...). Without a password
/// configured every client has all of them; with one, a client has `[mpd] default_permissions`
/// (none by default, as MPD: only the commands that need none) until it sends the password.
package struct MPDPermission: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    package static let read = MPDPermission(rawValue: 1)
    package static let add = MPDPermission(rawValue: 2)
    package static let control = MPDPermission(rawValue: 4)
    package static let admin = MPDPermission(rawValue: 8)
    /// What a command that anyone may send needs.
    package static let none: MPDPermission = []
    package static let all: MPDPermission = [.read, .add, .control, .admin]

    /// The names `default_permissions` takes, as in mpd.conf.
    package static let names: [String: MPDPermission] = ["read": .read, "add": .add, "control": .control, "admin": .admin]
}
