/// An error a decoder met part-way through a read. The PCM decoded before it is returned first and
/// the error comes with the next read, so a damaged or unreadable file loses no audio it had
/// (`mpg123 -w` writes those frames too); a read that decoded nothing throws at once.
struct HeldFailure {
    private var error: (any Error)?

    /// Throws the error the previous read held back, once.
    mutating func rethrow() throws {
        guard let error else { return }
        self.error = nil
        throw error
    }

    /// Keeps `error` for the next read when `decoded` samples came before it; throws it otherwise.
    mutating func hold(_ error: any Error, after decoded: Int) throws {
        guard decoded > 0 else { throw error }
        self.error = error
    }
}
