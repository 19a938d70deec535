/// Polls until `check` holds — a daemon does things in the background — every 100 ms; false
/// after `seconds` (a bound that only a failure reaches: load can slow a pass, not fail it).
public func eventually(within seconds: Int = 60, _ check: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<(seconds * 10) {
        if try await check() { return true }
        try await Task.sleep(for: .milliseconds(100))
    }
    return false
}
