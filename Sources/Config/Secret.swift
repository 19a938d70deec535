/// A password or token. It prints as `<secret>` wherever it ends up — logs, errors, dumps — so a
/// slip cannot leak it; only `reveal()` gives the text, for the one header that carries it.
package struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    private let value: String

    package init(_ value: String) {
        self.value = value
    }

    package func reveal() -> String { value }

    package var description: String { "<secret>" }
    package var debugDescription: String { "<secret>" }
}
