import Foundation

/// Why bytes could not be had. Messages are one line and never contain credentials.
public enum LoaderError: Error, CustomStringConvertible, Equatable {
    case notFound
    case permissionDenied
    case notAFile
    case unsupportedScheme(String)
    case readFailed(String)

    public var description: String {
        switch self {
        case .notFound: "no such file"
        case .permissionDenied: "permission denied"
        case .notAFile: "not a regular file"
        case .unsupportedScheme(let scheme): "unsupported location scheme '\(scheme)'"
        case .readFailed(let reason): "read failed: \(reason)"
        }
    }

    static func fromErrno(_ code: Int32) -> LoaderError {
        switch code {
        case ENOENT, ENOTDIR: .notFound
        case EACCES, EPERM: .permissionDenied
        case EISDIR: .notAFile
        default: .readFailed(String(cString: strerror(code)))
        }
    }
}
