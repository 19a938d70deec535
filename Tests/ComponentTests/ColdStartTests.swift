import Base
import Decoding
import Foundation
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// A cold track starts from one request (issue 46): the first range brings what the decoder and
/// the tag reader need to begin, and nothing asks for the file's end before the first sample —
/// neither libmpg123's peek for an ID3v1 tag nor the tag reader's.
@Suite(.timeLimit(.minutes(2)))
struct ColdStartTests {
    @Test("an MP3 with an ID3v1 tag, played cold from WebDAV: its first sample comes without a request for its last 128 bytes")
    func oneRequestBeforeTheFirstSample() async throws {
        let rig = try await StreamingRig([])
        let audio = try Data(contentsOf: try await Fixtures.shared.url(.cbrMP3))
        let tag = Data("TAG".utf8) + Data(count: 125)
        let file = rig.directory.appendingPathComponent("tagged.mp3")
        try (audio + tag).write(to: file)
        try rig.server.publish(file, as: "tagged.mp3")
        let length = audio.count + tag.count
        let configuration = try LoaderConfiguration.parse(rig.configText(), relativeTo: rig.directory)
        let loader = LoaderActor(configuration: configuration)
        let location = configuration.sources.location(of: rig.proxy.baseURL.appendingPathComponent("tagged.mp3"))

        let cold = try await DecoderTagsTests.start(try await loader.open(location))
        let before = await rig.proxy.settledLog().filter { $0.method == "GET" }.compactMap(\.range)
        #expect(!before.contains("bytes=\(length - 128)-\(length - 1)"), "asked for the ID3v1 tag: \(before)")
        #expect(before.first == "bytes=0-65535", "\(before)")
        #expect(cold.samples > 0)
        await loader.shutdown()
    }
}
