import Foundation
import Model
import Parsers

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a WebDAV `207 Multi-Status` answer into entries. Only properties in a propstat whose
/// status is 200 count; elements are matched in the `DAV:` namespace whatever prefix the server
/// uses. A malformed document is an error, never a partial list passed off as whole.
package final class PropfindParser: NSObject, XMLParserDelegate {
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
        // Foundation's XMLParser on Linux crashes on some inputs (found by fuzzing): only what
        // the guard lets through gets that far.
        let checked: Data
        do {
            checked = try XMLInputGuard.checked([UInt8](data), kind: "a PROPFIND answer")
        } catch let error as ParseError {
            throw LoaderError.badResponse(error.message)
        }
        let delegate = PropfindParser()
        let parser = XMLParser(data: checked)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        guard parser.parse(), parser.parserError == nil, delegate.complete else {
            throw LoaderError.badResponse("a PROPFIND answer that is not well-formed XML")
        }
        return delegate.entries
    }

    package func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                       qualifiedName: String?, attributes: [String: String] = [:]) {
        text = ""
        depth += 1
        guard namespaceURI == "DAV:" else { return }
        switch name {
        case "response": current = DAVEntry(href: "")
        case "propstat":
            pending = [:]
            pendingFolder = false
        case "collection": pendingFolder = true
        default: break
        }
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.count < 4096 { text += string }
    }

    package func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        if depth == 0 && name == "multistatus" && namespaceURI == "DAV:" { complete = true }
        guard namespaceURI == "DAV:" else { return }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
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
