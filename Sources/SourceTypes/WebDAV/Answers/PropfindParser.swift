import Base
import FoundationEssentials
import Model
import Parsers

/// Reads a WebDAV `207 Multi-Status` answer into entries. Only properties in a propstat whose
/// status is 200 count; elements are matched in the `DAV:` namespace whatever prefix the server
/// uses. A malformed document is an error, never a partial list passed off as whole.
package struct PropfindParser {
    private var entries: [DAVEntry] = []
    private var current: DAVEntry?
    /// Properties of the propstat being read, applied only if its status is 200.
    private var pending: [String: String] = [:]
    private var pendingFolder = false
    private var text = ""
    private var depth = 0
    /// The document closed its `DAV:multistatus` root: it is whole.
    private var complete = false

    package static func parse(_ data: Data) throws -> [DAVEntry] {
        var parser = PropfindParser()
        do {
            var reader = try XMLReader([UInt8](data), rules: XMLRules(kind: "a PROPFIND answer"))
            while let event = try reader.next() {
                switch event {
                case .start(let element): parser.start(element.name)
                case .text(let text): if parser.text.utf8.count < 4096 { parser.text += text }
                case .end(let name): parser.end(name)
                }
            }
        } catch let error as ParseError {
            throw LoaderError.badResponse(error.message)
        }
        guard parser.complete else { throw LoaderError.badResponse("a PROPFIND answer whose root is not DAV:multistatus") }
        return parser.entries
    }

    private mutating func start(_ element: XMLName) {
        text = ""
        depth += 1
        guard element.namespace == "DAV:" else { return }
        switch element.local {
        case "response": current = DAVEntry(href: "")
        case "propstat":
            pending = [:]
            pendingFolder = false
        case "collection": pendingFolder = true
        default: break
        }
    }

    private mutating func end(_ element: XMLName) {
        depth -= 1
        let name = element.local
        if depth == 0 && name == "multistatus" && element.namespace == "DAV:" { complete = true }
        guard element.namespace == "DAV:" else { return }
        let value = text.trimmingWhitespace()
        switch name {
        case "href" where current != nil && current!.href.isEmpty: current?.href = value
        case "getcontentlength", "getetag", "getlastmodified", "getcontenttype": pending[name] = value
        case "status":
            // "HTTP/1.1 200 OK": this propstat's properties are real.
            guard value.split(separator: " ").dropFirst().first == "200", current != nil else { break }
            current!.isFolder = current!.isFolder || pendingFolder
            if let length = pending["getcontentlength"].flatMap({ Int64($0) }), length >= 0 { current!.length = length }
            current!.etag = pending["getetag"] ?? current!.etag
            current!.lastModified = pending["getlastmodified"] ?? current!.lastModified
            current!.contentType = pending["getcontenttype"] ?? current!.contentType
        case "response":
            if let entry = current, !entry.href.isEmpty { entries.append(entry) }
            current = nil
        default: break
        }
        text = ""
    }
}
