/// A fixture tool that failed or said something unexpected: the test stops with what happened.
package struct ParserFixtureError: Error, CustomStringConvertible {
    package let message: String

    package init(message: String) {
        self.message = message
    }
    package var description: String { message }
}
