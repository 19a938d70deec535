/// `[auth] token_store`: where logins keep their OAuth tokens. `auto` (the default) is the
/// desktop's keyring when a Secret Service answers on the session bus, else files — a headless
/// box has no keyring; `keyring` insists on one (none answering is an error); `file` keeps files.
package enum TokenStorage: String, Sendable, Equatable {
    case auto
    case keyring
    case file
}
