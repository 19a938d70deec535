/// A fixture tool that failed or said something unexpected: the test stops with what happened.
struct ParserFixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
