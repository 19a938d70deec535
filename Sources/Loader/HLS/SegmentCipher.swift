import CAVCodec
import Model

/// AES-128 in CBC mode with PKCS#7 padding: how an HLS playlist's `#EXT-X-KEY:METHOD=AES-128`
/// encrypts whole segments (RFC 8216, 4.3.2.4 and 5.2). The cipher is libavutil's, which the AAC
/// decoder's FFmpeg brings anyway: no cryptography library of our own to carry.
enum SegmentCipher {
    /// The plain bytes of an encrypted segment; a key or IV of the wrong size, a length that is
    /// not whole blocks, or padding that is not PKCS#7 (a wrong key) is one clear error.
    static func decrypt(_ bytes: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard key.count == 16 else { throw LoaderError.badResponse("an HLS key of \(key.count) bytes (AES-128 keys are 16)") }
        guard iv.count == 16 else { throw LoaderError.badResponse("an HLS IV of \(iv.count) bytes (AES-128 takes 16)") }
        guard !bytes.isEmpty, bytes.count % 16 == 0 else {
            throw LoaderError.badResponse("an encrypted HLS segment of \(bytes.count) bytes, which is not whole AES blocks")
        }
        guard cavcodec_load() != 0 else {
            throw LoaderError.badResponse("FFmpeg's libavutil, which decrypts HLS segments, cannot be loaded (\(String(cString: cavcodec_load_error())))")
        }
        var plain = bytes
        var chain = iv
        let status = plain.withUnsafeMutableBufferPointer { data in
            key.withUnsafeBufferPointer { key in
                cavcodec_aes128_cbc_decrypt(key.baseAddress, &chain, data.baseAddress, Int32(data.count / 16))
            }
        }
        guard status == 0 else { throw LoaderError.badResponse("an HLS segment could not be decrypted (out of memory)") }
        // PKCS#7: the last byte says how many bytes of padding end the segment, each that value.
        guard let pad = plain.last, (1...16).contains(pad), plain.suffix(Int(pad)).allSatisfy({ $0 == pad }) else {
            throw LoaderError.badResponse("an HLS segment does not decrypt with its key (its padding is wrong: a wrong key or IV)")
        }
        plain.removeLast(Int(pad))
        return plain
    }
}
