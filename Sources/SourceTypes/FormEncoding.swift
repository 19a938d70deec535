import Model

/// A query or form value as every server reads it: unreserved characters as they are, all else
/// percent-encoded (`+` would be a space to some, a path's `/` and `:` are encoded as the APIs ask).
enum FormEncoding {
    static func encode(_ text: String) -> String {
        PercentEncoding.encoded(text, keeping: PercentEncoding.unreserved)
    }

    /// `a=1&b=2`.
    static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
