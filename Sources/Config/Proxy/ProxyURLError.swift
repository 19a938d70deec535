/// Why a proxy URL cannot be used; the caller names where it came from.
package struct ProxyURLError: Error, Equatable, CustomStringConvertible {
    package let problem: String
    package init(_ problem: String) { self.problem = problem }
    package var description: String { problem }
}
