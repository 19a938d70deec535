/// Why a filter (or a `find`/`search`/`list` argument list) was refused: the command answers
/// MPD's `ACK [2@N] {command} MESSAGE` (2: a bad argument) with this message.
package struct FilterError: Error, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
