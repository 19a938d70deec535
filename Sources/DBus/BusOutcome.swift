/// How a method call went: answered with a reply's values (none for `BusNothing`), refused with
/// a D-Bus error — or to be decided by work that must not run on the bus thread, after which the
/// reply goes out.
enum BusOutcome: Sendable {
    case reply([BusValue])
    case failed(BusCallError)
    case later(@Sendable () async -> BusOutcome)
}
