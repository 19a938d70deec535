/// An `a{sv}` whose entries are not fixed (MPRIS metadata: what a track has): named values, in order.
package struct BusFields: BusType, Equatable {
    package static let busSignature = "a{sv}"
    package var entries: [(String, BusValue)]

    package init(_ entries: [(String, BusValue)] = []) {
        self.entries = entries
    }

    package init?(busValue: BusValue) {
        guard case .record(let entries) = busValue else { return nil }
        self.entries = entries
    }

    package var busValue: BusValue { .record(entries) }

    package static func == (lhs: BusFields, rhs: BusFields) -> Bool {
        lhs.busValue == rhs.busValue
    }
}
