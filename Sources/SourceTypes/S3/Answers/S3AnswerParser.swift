import Base
import FoundationEssentials
import Model
import Parsers

/// Reads S3's XML answers: a `ListObjectsV2` page (`ListBucketResult`) and an error body
/// (`Error`). Elements are matched by local name, whatever namespace the server declares (AWS
/// uses its 2006-03-01 one; MinIO, B2 and moto agree, some others send none). As for PROPFIND, a
/// document that does not close its root is an error, never a partial page passed off as whole.
package struct S3AnswerParser {
    /// One page of a listing.
    package struct Page: Sendable, Equatable {
        package var objects: [Object] = []
        /// The `CommonPrefixes`: the folders one level below the listed prefix.
        package var folders: [String] = []
        package var isTruncated = false
        /// What the next page is asked with (`continuation-token`).
        package var nextContinuationToken: String?
    }

    /// An object of a page.
    package struct Object: Sendable, Equatable {
        package var key = ""
        package var size: Int64?
        /// As the server writes it, quoted.
        package var etag: String?
        /// The ISO 8601 form S3 lists (`2026-11-23T12:00:00.000Z`).
        package var lastModified: Date?
    }

    /// An error body.
    package struct Failure: Sendable, Equatable {
        package var code = ""
        package var message: String?
        /// The bucket's region, when the answer names it (`AuthorizationHeaderMalformed`).
        package var region: String?
        /// The server's clock (`RequestTimeTooSkewed`).
        package var serverTime: Date?
        /// The endpoint to use instead (`PermanentRedirect`).
        package var endpoint: String?
    }

    private enum Kind { case page, failure }
    private let kind: Kind
    private var page = Page()
    private var failure = Failure()
    private var object: Object?
    private var inPrefixes = false
    private var text = ""
    private var depth = 0

    private init(kind: Kind) {
        self.kind = kind
    }

    /// A `ListBucketResult` page.
    package static func page(_ data: Data) throws -> Page {
        try run(.page, data, root: "ListBucketResult", what: "a bucket listing").page
    }

    /// An `Error` body; nil for one that is not (a proxy's HTML page, an empty body).
    package static func failure(_ data: Data) -> Failure? {
        guard let parsed = try? run(.failure, data, root: "Error", what: "an S3 error"), !parsed.failure.code.isEmpty else { return nil }
        return parsed.failure
    }

    private static func run(_ kind: Kind, _ data: Data, root: String, what: String) throws -> S3AnswerParser {
        var parser = S3AnswerParser(kind: kind)
        do {
            var reader = try XMLReader([UInt8](data), rules: XMLRules(kind: what))
            while let event = try reader.next() {
                switch event {
                case .start(let element): parser.start(element.name.local)
                case .text(let text): if parser.text.utf8.count < 4096 { parser.text += text }
                case .end(let name): parser.end(name.local)
                }
            }
        } catch let error as ParseError {
            throw LoaderError.badResponse(error.message)
        }
        guard parser.closedRoot == root else { throw LoaderError.badResponse("\(what) whose root is not <\(root)>") }
        return parser
    }

    /// The root element that was closed, if the document was whole.
    private var closedRoot: String?

    private mutating func start(_ name: String) {
        text = ""
        depth += 1
        guard kind == .page, depth == 2 else { return }
        if name == "Contents" { object = Object() }
        if name == "CommonPrefixes" { inPrefixes = true }
    }

    private mutating func end(_ name: String) {
        defer {
            depth -= 1
            text = ""
        }
        if depth == 1 {
            closedRoot = name
            return
        }
        switch kind {
        case .failure where depth == 2:
            let value = text.trimmingWhitespace()
            switch name {
            case "Code": failure.code = value
            case "Message": failure.message = value
            case "Region": failure.region = value
            case "ServerTime": failure.serverTime = Self.isoDate(value)
            case "Endpoint": failure.endpoint = value
            default: break
            }
        case .page where depth == 2:
            switch name {
            case "Contents":
                if let object, !object.key.isEmpty { page.objects.append(object) }
                object = nil
            case "CommonPrefixes": inPrefixes = false
            case "IsTruncated": page.isTruncated = text.trimmingWhitespace() == "true"
            case "NextContinuationToken": page.nextContinuationToken = text
            default: break
            }
        case .page where depth == 3:
            // A key is taken as it is: spaces at either end are part of it.
            if inPrefixes, name == "Prefix" { page.folders.append(text) }
            guard object != nil else { break }
            let value = text.trimmingWhitespace()
            switch name {
            case "Key": object?.key = text
            case "Size": object?.size = Int64(value).flatMap { $0 >= 0 ? $0 : nil }
            case "ETag": object?.etag = value.isEmpty ? nil : value
            case "LastModified": object?.lastModified = Self.isoDate(value)
            default: break
            }
        default: break
        }
    }

    /// An ISO 8601 time (RFC 3339's profile), with or without fractions of a second.
    private static func isoDate(_ text: String) -> Date? {
        InternetDate.rfc3339(text)
    }
}
