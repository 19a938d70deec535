/// `files/list_folder/continue` answered 409 `reset`: the cursor was invalidated, the listing
/// starts again with `files/list_folder`.
struct DropboxCursorReset: Error {}
