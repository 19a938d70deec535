import ArgumentParser
import Output

extension OutputSpec: ExpressibleByArgument {
    public init?(argument: String) {
        try? self.init(parsing: argument)
    }

    public var defaultValueDescription: String { description }
}
