/// The namespace prefixes in force (Namespaces in XML 1.0): each prefix with the URIs bound to
/// it, innermost last, so a lookup costs one hash whatever the depth; the empty prefix is the
/// default namespace. `xml` is bound from the start, as the recommendation says.
struct XMLNamespaces {
    static let xml = "http://www.w3.org/XML/1998/namespace"

    private var bound: [String: [String]] = ["xml": [xml]]
    /// The prefixes declared by the open elements, in order: each element pops its own.
    private var declared: [String] = []

    /// How many declarations are in force (an element pops back to what it found).
    var mark: Int { declared.count }

    /// Binds `prefix` ("" for the default namespace) to `uri` until `pop(to:)`.
    mutating func declare(_ prefix: String, _ uri: String) {
        bound[prefix, default: []].append(uri)
        declared.append(prefix)
    }

    /// Ends the declarations made since `mark`.
    mutating func pop(to mark: Int) {
        while declared.count > mark {
            let prefix = declared.removeLast()
            bound[prefix]?.removeLast()
        }
    }

    /// The URI of `prefix`, nil if it is not declared; "" for the default namespace when none
    /// is declared (or it was undeclared with `xmlns=""`).
    func uri(_ prefix: String) -> String? {
        if let uri = bound[prefix]?.last { return uri }
        return prefix.isEmpty ? "" : nil
    }
}
