extension Manager1 {
    /// The version both programs report (`--version`): the top entry of
    /// packaging/debian/changelog, which a test holds them to.
    package static let productVersion = "0.1.0"
}
