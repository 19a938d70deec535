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

    package func integer(_ attribute: String) -> Int? {
        attributes[attribute].flatMap { Int($0) ?? Double($0).map { Int($0) } }
    }
}
