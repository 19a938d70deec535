/// HMAC (RFC 2104) over SHA-256, as SigV4 derives its signing key and signs. Checked against
/// RFC 4231's test cases.
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    package static func code(for message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        var block = key.count > 64 ? SHA256.hash(key) : Array(key)
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = SHA256.hash(block.map { $0 ^ 0x36 } + Array(message))
        return SHA256.hash(block.map { $0 ^ 0x5c } + inner)
    }
}
