import Foundation
import Testing
import TestSupport

/// `cloudplayerd play cloudplayer://SOURCE/KEY` from an S3 bucket (moto, checking signatures,
/// behind the fault proxy), as a user runs it: the sound, and what it prints at trace level.
@Suite(.timeLimit(.minutes(3)))
struct S3PlaybackTests {
    @Test("a track from S3 sounds exactly like the reference decode, after a region correction said in the log; wrong keys are one line naming the source; no secret or signature is printed, even at trace level")
    func playsFromS3() async throws {
        let server = try await S3TestServer()
        let proxy = try FaultProxy(originPort: server.port)
        let file = try await Fixtures.shared.url(.vbrMP3)
        try await server.upload([("Some Album/vbr track.mp3", file)])
        let folder = try Fixtures.shared.scratchDirectory()

        func play(secret: String) async throws -> (PCMAudio?, ProcessResult) {
            let secretFile = folder.appendingPathComponent("s3.secret")
            try secret.write(to: secretFile, atomically: true, encoding: .utf8)
            let config = folder.appendingPathComponent("config.toml")
            try """
                [cache]
                dir = "\(folder.appendingPathComponent("cache-\(UUID().uuidString)").path)"

                [[source]]
                name = "bucket"
                type = "s3"
                endpoint = "http://127.0.0.1:\(proxy.port)"
                bucket = "\(server.bucket)"
                access_key_id = "\(server.accessKeyID)"
                secret_access_key_file = "\(secretFile.path)"
                path_style = true
                """.write(to: config, atomically: true, encoding: .utf8)
            let output = folder.appendingPathComponent("out-\(UUID().uuidString).wav")
            let result = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", config.path, "--output", "wav:\(output.path)",
                                                                  "--log-level", "trace", "cloudplayer://bucket/Some%20Album/vbr%20track.mp3"])
            return (try? PCMAudio(wavFile: output), result)
        }

        proxy.inject(.answer(method: "GET", status: 400, body: """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>AuthorizationHeaderMalformed</Code><Message>expecting 'eu-west-3'</Message><Region>eu-west-3</Region></Error>
            """))
        let (audio, result) = try await play(secret: server.secretAccessKey)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(audio == (try await ReferenceDecoder.mpg123(file)))
        #expect(result.stderr.contains("the bucket is in another region") && result.stderr.contains("eu-west-3"), "\(result.stderr)")
        #expect(proxy.log.contains { $0.authorization?.contains("/eu-west-3/s3/aws4_request") == true })

        let wrong = "Wrong+Secret/\(UUID().uuidString)"
        let (_, refused) = try await play(secret: wrong)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bucket: the server rejected the request's signature (SignatureDoesNotMatch): check secret_access_key"),
                "stderr: \(refused.stderr)")

        for printed in [result.stdout + result.stderr, refused.stdout + refused.stderr] {
            #expect(!printed.contains(server.secretAccessKey) && !printed.contains(wrong) && !printed.contains("Signature="))
        }
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path).joined(separator: "\n")
        #expect(!names.contains(server.secretAccessKey) && !names.contains("vbr track"))
    }
}
