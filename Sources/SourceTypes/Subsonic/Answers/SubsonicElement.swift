import Parsers

/// One element of a Subsonic answer, whichever form it came in: XML's element with its
/// attributes, or JSON's object with its scalar members. Both forms carry the same tree (the
/// API's JSON is its XML, spelled otherwise), so the source reads one shape.
package struct SubsonicElement: Sendable, Equatable {
    package var name: String
    /// Scalar values by name (numbers and booleans as their text: `"12"`, `"true"`).
    package var attributes: [String: String]
    package var children: [SubsonicElement]

    package init(name: String, attributes: [String: String] = [:], children: [SubsonicElement] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    package subscript(_ attribute: String) -> String? { attributes[attribute] }

    /// The children named `name`, in order (a JSON array, or repeated XML elements).
    package func all(_ name: String) -> [SubsonicElement] {
        children.filter { $0.name == name }
    }

    /// The first child named `name`.
    package func first(_ name: String) -> SubsonicElement? {
        children.first { $0.name == name }
    }

    /// A whole number, also written as a JSON number with a fraction or exponent; nil for one
    /// no Int holds (Int(Double) traps on it: found by fuzzing, a code of 3.3e27).
    package func integer(_ attribute: String) -> Int? {
        attributes[attribute].flatMap { text in
            Int(text) ?? Double(text).flatMap { $0.isFinite && abs($0) < 9.0e15 ? Int($0) : nil }
        }
    }
}
