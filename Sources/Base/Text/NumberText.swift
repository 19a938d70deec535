/// What `String(format:)` was used for — zero-padded decimals, hexadecimal, fixed decimals — without
/// Foundation's `String(format:)` (and the ICU it links). Each prints as `printf` would.
extension BinaryInteger {
    /// The decimal digits, zero-padded on the left to `width` (`%0Nd`).
    package func zeroPadded(_ width: Int) -> String {
        let digits = String(self.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (self < 0 ? "-" : "") + padding + digits
    }

    /// The hexadecimal digits of a non-negative value, zero-padded to `width` (`%0Nx`, `%0NX`).
    package func hexDigits(_ width: Int, uppercase: Bool = false) -> String {
        let digits = String(self, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// "1 track", "2 tracks", "0 tracks": the number and its noun, plural but for one (`plural`
    /// where adding an s is wrong: "entry", "entries"). Every count said to the user goes through
    /// here, so none says "1 tracks".
    package func counted(_ noun: String, plural: String? = nil) -> String {
        "\(self) " + (self == 1 ? noun : plural ?? noun + "s")
    }
}

extension BinaryFloatingPoint {
    /// The value with `places` decimals (`%.Nf`; a half rounds to even, as printf rounds an
    /// exactly representable half).
    package func fixed(_ places: Int) -> String {
        let scale = (0..<places).reduce(1.0) { value, _ in value * 10 }
        let scaled = (Double(self) * scale).rounded(.toNearestOrEven)
        guard scaled.isFinite, abs(scaled) < 1e18 else { return String(Double(self)) }
        let units = Int(abs(scaled))
        let whole = String(units / Int(scale))
        let sign = scaled < 0 ? "-" : ""
        return places == 0 ? sign + whole : sign + whole + "." + (units % Int(scale)).zeroPadded(places)
    }
}
