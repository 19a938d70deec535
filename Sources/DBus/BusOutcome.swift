/// How a request went: done, done with a value to return, refused with a D-Bus error — or to
/// be decided by work that must not run on the bus thread, after which the reply goes out.
package enum BusOutcome: Sendable {
    case done
    case reply(BusValue)
    case failed(name: String, message: String)
    case later(@Sendable () async -> BusOutcome)

    package static func invalidArguments(_ message: String) -> BusOutcome {
        .failed(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }
}
