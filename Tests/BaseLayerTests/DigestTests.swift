import Base
import Foundation
import Testing
import TestSupport

/// SHA-256, HMAC-SHA256 and MD5 of our own against the published vectors (FIPS 180-4's examples,
/// RFC 4231, RFC 1321's suite) and against coreutils' `sha256sum` and `md5sum` over every length
/// from 0 to 200 bytes — each side of every padding boundary (55/56/64 bytes and their multiples).
@Suite struct DigestTests {
    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("SHA-256: FIPS 180-4's examples, the empty message and a million a's")
    func sha256Vectors() {
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Self.bytes("abc"))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash(Self.bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("HMAC-SHA256: RFC 4231's test cases 1, 2, 3, 6 and 7 (keys shorter and longer than a block)")
    func hmacVectors() {
        let cases: [(key: [UInt8], message: [UInt8], code: String)] = [
            ([UInt8](repeating: 0x0b, count: 20), Self.bytes("Hi There"),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Self.bytes("Jefe"), Self.bytes("what do ya want for nothing?"),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            ([UInt8](repeating: 0xaa, count: 131), Self.bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            ([UInt8](repeating: 0xaa, count: 131),
             Self.bytes("This is a test using a larger than block-size key and a larger than block-size data. "
                        + "The key needs to be hashed before being used by the HMAC algorithm."),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for item in cases {
            #expect(Self.hex(HMACSHA256.code(for: item.message, key: item.key)) == item.code)
        }
    }

    @Test("MD5: RFC 1321's test suite")
    func md5Vectors() {
        let cases = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"), ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"), ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (message, digest) in cases {
            #expect(Self.hex(MD5.hash(Self.bytes(message))) == digest, "\(message)")
        }
    }

    @Test("SHA-256 and MD5 agree with sha256sum and md5sum on every length from 0 to 200 bytes")
    func againstCoreutils() async throws {
        var generator = SystemRandomNumberGenerator()
        var files: [(path: String, bytes: [UInt8])] = []
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let url = ScratchSpace.file(".bin")
            try Data(bytes).write(to: url)
            files.append((url.path, bytes))
        }
        for (tool, digest) in [("sha256sum", SHA256.hash), ("md5sum", MD5.hash)] as [(String, ([UInt8]) -> [UInt8])] {
            let output = try await ChildProcess.check(tool, files.map(\.path)).stdout
            let expected = output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
            #expect(expected == files.map { Self.hex(digest($0.bytes)) }, "\(tool)")
        }
    }
}
