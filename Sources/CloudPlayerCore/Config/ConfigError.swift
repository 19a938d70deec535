/// A configuration file that cannot be used: says where (file, line, key) and what is wrong.
/// Never quotes a secret's value.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var file: String?
    public let line: Int?
    public let key: String?
    public let problem: String

    public init(file: String? = nil, line: Int?, key: String? = nil, _ problem: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
    }

    public var description: String {
        var place = file ?? "config"
        if let line { place += ":\(line)" }
        return "\(place): " + (key.map { "\($0): " } ?? "") + problem
    }
}
