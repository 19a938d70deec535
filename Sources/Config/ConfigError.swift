/// A configuration file that cannot be used: says where (file, line, key) and what is wrong.
/// Never quotes a secret's value.
package struct ConfigError: Error, CustomStringConvertible, Equatable {
    package var file: String?
    package let line: Int?
    package let key: String?
    package let problem: String

    package init(file: String? = nil, line: Int?, key: String? = nil, _ problem: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
    }

    package var description: String {
        var place = file ?? "config"
        if let line { place += ":\(line)" }
        return "\(place): " + (key.map { "\($0): " } ?? "") + problem
    }
}
