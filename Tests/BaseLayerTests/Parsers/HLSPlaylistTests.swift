import ComponentTestSupport
import Foundation
import Parsers
import Testing

/// HLS playlists: RFC 8216's own examples (§8), the tags a player must gather per segment, the
/// variant choice, and playlists that break the format, which must be refused with a message.
struct HLSPlaylistTests {
    static let base = URL(string: "https://example.com/live/index.m3u8")!

    private func media(_ text: String, base: URL = base) throws -> HLSMediaPlaylist {
        guard case .media(let playlist) = try HLSPlaylist.parse(Array(text.utf8), base: base) else {
            throw ParserFixtureError(message: "not a media playlist")
        }
        return playlist
    }

    private func master(_ text: String) throws -> HLSMasterPlaylist {
        guard case .master(let playlist) = try HLSPlaylist.parse(Array(text.utf8), base: Self.base) else {
            throw ParserFixtureError(message: "not a master playlist")
        }
        return playlist
    }

    private func url(_ text: String) -> URL { URL(string: text)! }

    @Test("RFC 8216 §8.1: a simple media playlist")
    func simpleMediaPlaylist() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:3
            #EXTINF:9.009,
            http://media.example.com/first.ts
            #EXTINF:9.009,
            http://media.example.com/second.ts
            #EXTINF:3.003,
            http://media.example.com/third.ts
            #EXT-X-ENDLIST
            """)
        #expect(playlist == HLSMediaPlaylist(targetDuration: 10, segments: [
            HLSSegment(uri: url("http://media.example.com/first.ts"), sequence: 0, duration: 9.009),
            HLSSegment(uri: url("http://media.example.com/second.ts"), sequence: 1, duration: 9.009),
            HLSSegment(uri: url("http://media.example.com/third.ts"), sequence: 2, duration: 3.003),
        ], ended: true))
    }

    @Test("RFC 8216 §8.2: a live media playlist over HTTPS, its sequence numbers from EXT-X-MEDIA-SEQUENCE")
    func liveMediaPlaylist() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:8
            #EXT-X-MEDIA-SEQUENCE:2680

            #EXTINF:7.975,
            https://priv.example.com/fileSequence2680.ts
            #EXTINF:7.941,
            https://priv.example.com/fileSequence2681.ts
            #EXTINF:7.975,
            https://priv.example.com/fileSequence2682.ts
            """)
        #expect(playlist.targetDuration == 8 && playlist.mediaSequence == 2680 && !playlist.ended && playlist.type == nil)
        #expect(playlist.segments.map(\.sequence) == [2680, 2681, 2682])
        #expect(playlist.segments.map(\.duration) == [7.975, 7.941, 7.975])
        #expect(playlist.segments.allSatisfy { $0.key == nil && $0.iv() == nil })
    }

    @Test("RFC 8216 §8.3: encrypted segments, each key until the next, the IV from the sequence number")
    func encryptedMediaPlaylist() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-MEDIA-SEQUENCE:7794
            #EXT-X-TARGETDURATION:15

            #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=52"

            #EXTINF:2.833,
            http://media.example.com/fileSequence52-A.ts
            #EXTINF:15.0,
            http://media.example.com/fileSequence52-B.ts
            #EXTINF:13.333,
            http://media.example.com/fileSequence52-C.ts

            #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=53"

            #EXTINF:15.0,
            http://media.example.com/fileSequence53-A.ts
            """)
        let keys = playlist.segments.map { $0.key?.uri?.absoluteString }
        #expect(keys == ["https://priv.example.com/key.php?r=52", "https://priv.example.com/key.php?r=52",
                         "https://priv.example.com/key.php?r=52", "https://priv.example.com/key.php?r=53"])
        #expect(playlist.segments.allSatisfy { $0.key?.method == .aes128 && $0.key?.iv == nil && $0.key?.isIdentity == true })
        // 7794 = 0x1E72, 7797 = 0x1E75: big-endian in the last bytes of 16.
        #expect(playlist.segments.first?.iv() == [UInt8](repeating: 0, count: 14) + [0x1E, 0x72])
        #expect(playlist.segments.last?.iv() == [UInt8](repeating: 0, count: 14) + [0x1E, 0x75])
    }

    @Test("RFC 8216 §8.4: a master playlist; the choice takes the audio-only variant, whose CODECS are AAC")
    func masterPlaylist() throws {
        let playlist = try master("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000
            http://example.com/low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2560000,AVERAGE-BANDWIDTH=2000000
            http://example.com/mid.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=7680000,AVERAGE-BANDWIDTH=6000000
            http://example.com/hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5"
            http://example.com/audio-only.m3u8
            """)
        #expect(playlist == HLSMasterPlaylist(variants: [
            HLSVariant(uri: url("http://example.com/low.m3u8"), bandwidth: 1_280_000, averageBandwidth: 1_000_000),
            HLSVariant(uri: url("http://example.com/mid.m3u8"), bandwidth: 2_560_000, averageBandwidth: 2_000_000),
            HLSVariant(uri: url("http://example.com/hi.m3u8"), bandwidth: 7_680_000, averageBandwidth: 6_000_000),
            HLSVariant(uri: url("http://example.com/audio-only.m3u8"), bandwidth: 65000, codecs: ["mp4a.40.5"]),
        ]))
        let choice = playlist.audioChoice(maxBandwidth: nil)
        #expect(choice?.variant.uri == url("http://example.com/audio-only.m3u8") && choice?.audio == nil)
    }

    @Test("RFC 8216 §8.6: alternative audio; the DEFAULT rendition of the chosen variant's group")
    func masterWithAlternativeAudio() throws {
        let playlist = try master("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="main/english-audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="de",NAME="Deutsch",DEFAULT=NO,AUTOSELECT=YES,URI="main/german-audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="Commentary",DEFAULT=NO,AUTOSELECT=NO,URI="commentary/audio-only.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="...",AUDIO="aac"
            low/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="...",AUDIO="aac"
            mid/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=7680000,CODECS="...",AUDIO="aac"
            hi/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5",AUDIO="aac"
            main/english-audio.m3u8
            """)
        #expect(playlist.audio == [
            HLSRendition(groupID: "aac", name: "English", uri: url("https://example.com/live/main/english-audio.m3u8"),
                         isDefault: true, autoselect: true, language: "en"),
            HLSRendition(groupID: "aac", name: "Deutsch", uri: url("https://example.com/live/main/german-audio.m3u8"),
                         autoselect: true, language: "de"),
            HLSRendition(groupID: "aac", name: "Commentary", uri: url("https://example.com/live/commentary/audio-only.m3u8"), language: "en"),
        ])
        #expect(playlist.variants.map(\.audioGroup) == ["aac", "aac", "aac", "aac"])
        #expect(playlist.variants.first?.uri == url("https://example.com/live/low/video-only.m3u8"))
        let choice = playlist.audioChoice(maxBandwidth: 100_000)
        #expect(choice?.variant.bandwidth == 65000)
        #expect(choice?.audio?.name == "English")
    }

    @Test("the variant choice: playable codecs, the highest bandwidth that fits, else the lowest; renditions with a URI")
    func variantChoice() throws {
        let playlist = try master("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Main"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Other",URI="other.m3u8"
            #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="v",NAME="Cam",URI="cam.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="ac-3"
            ac3.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="ec-3,avc1.4d401e"
            eac3.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS="avc1.4d401e"
            video.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2",AUDIO="a"
            aac128.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="MP4A.40.5"
            aac64.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=192000,CODECS="mp4a.6B"
            mp3.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.4d401e,mp4a.40.2"
            av.m3u8
            """)
        #expect(playlist.audio.map(\.name) == ["Main", "Other"])
        func chosen(_ limit: Int?) -> String? { playlist.audioChoice(maxBandwidth: limit)?.variant.uri.lastPathComponent }
        #expect(chosen(nil) == "mp3.m3u8")
        #expect(chosen(150_000) == "aac128.m3u8")
        #expect(chosen(1000) == "aac64.m3u8")
        // No DEFAULT in the group: the first rendition with a URI.
        #expect(playlist.audioChoice(maxBandwidth: 150_000)?.audio?.name == "Other")
        let videoOnly = try master("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401e,ac-3\"\nv.m3u8\n")
        #expect(videoOnly.audioChoice(maxBandwidth: nil) == nil)
        let withVideo = try master("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401e,mp4a.40.2\"\nv.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=9\nw.m3u8\n")
        #expect(withVideo.audioChoice(maxBandwidth: nil)?.variant.bandwidth == 9)
    }

    @Test("byte ranges: an offset given or following the previous sub-range of the same resource; EXT-X-MAP until the next")
    func byteRangesAndMaps() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXTINF:4,First
            #EXT-X-BYTERANGE:1000@720
            all.mp4
            #EXT-X-BYTERANGE:500
            #EXTINF:4.000,
            all.mp4
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="other-init.mp4"
            #EXTINF:2.5,  Spaced title
            #EXT-X-BYTERANGE:300
            all.mp4
            """)
        #expect(playlist.type == .vod)
        #expect(playlist.segments.map(\.byteRange) == [720..<1720, 1720..<2220, 2220..<2520])
        #expect(playlist.segments.map(\.title) == ["First", nil, "Spaced title"])
        #expect(playlist.segments.map(\.discontinuity) == [false, false, true])
        #expect(playlist.segments.map(\.map) == [
            HLSMap(uri: url("https://example.com/live/init.mp4"), byteRange: 0..<720),
            HLSMap(uri: url("https://example.com/live/init.mp4"), byteRange: 0..<720),
            HLSMap(uri: url("https://example.com/live/other-init.mp4")),
        ])
        #expect(throws: ParseError.self) {
            try media("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:100\nb.ts\n")
        }
    }

    @Test("keys: an explicit IV, METHOD=NONE, SAMPLE-AES, a DRM key format beside the plain one")
    func keys() throws {
        let playlist = try media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:5
            #EXT-X-KEY:METHOD=AES-128,URI="k1",IV=0x000102030405060708090A0B0C0D0E0F
            #EXTINF:6,
            s5.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:6,
            s6.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://fairplay",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="k2",KEYFORMAT="identity",IV=0xABC
            #EXTINF:6,
            s7.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="k3",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"
            #EXTINF:6,
            s8.ts
            """)
        let segments = playlist.segments
        #expect(segments[0].iv() == Array(0...15))
        #expect(segments[1].key == nil && segments[1].iv() == nil)
        #expect(segments[2].key == HLSKey(method: .sampleAES, uri: url("https://example.com/live/k2"), iv: [UInt8](repeating: 0, count: 14) + [0x0A, 0xBC]))
        #expect(segments[3].key == HLSKey(method: .other("SAMPLE-AES-CTR"), uri: url("https://example.com/live/k3"),
                                          keyFormat: "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"))
        #expect(segments[3].iv() == [UInt8](repeating: 0, count: 15) + [8])
    }

    @Test("attribute lists: quoted commas, hexadecimal, enumerated strings; a repeated name keeps the first")
    func attributeLists() throws {
        let playlist = try master("""
            #EXTM3U
            #EXT-X-STREAM-INF:CODECS="mp4a.40.2,mp4a.40.5",BANDWIDTH=96000,RESOLUTION=416x234,FRAME-RATE=29.970,BANDWIDTH=1
            a.m3u8
            """)
        #expect(playlist.variants == [HLSVariant(uri: url("https://example.com/live/a.m3u8"), bandwidth: 96000, codecs: ["mp4a.40.2", "mp4a.40.5"])])
    }

    @Test("malformed playlists are refused with a message naming the line", arguments: [
        ("", "#EXTM3U"),
        ("#EXT-X-TARGETDURATION:10\n#EXTINF:1,\na.ts\n", "#EXTM3U"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\na.ts\n", "line 3: a URI (a.ts) without #EXTINF"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:-1,\na.ts\n", "line 3: EXTINF duration \"-1\""),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:abc,\na.ts\n", "line 3"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\n#EXTINF:1,\na.ts\n", "line 3: attribute list"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128 URI=\"k\"\n", "line 3: attribute list"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:method=NONE\n", "line 3: attribute list"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:URI=\"k\"\n", "line 3: EXT-X-KEY without METHOD"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x\(String(repeating: "1", count: 34))\n", "128 bits"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n", "EXT-X-MAP without URI"),
        ("#EXTM3U\n#EXTINF:1,\na.ts\n", "without #EXT-X-TARGETDURATION"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nftp://example.com/a.ts\n", "not an http(s) URL"),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n", "line 2: #EXT-X-STREAM-INF without a URI"),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=x1\na.m3u8\n", "line 2: BANDWIDTH=x1 is not a decimal integer"),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXTINF:1,\nb.ts\n", "line 4: #EXTINF in a master playlist"),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,NAME=\"x\"\n", "line 2: EXT-X-MEDIA without GROUP-ID"),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",DEFAULT=MAYBE\n", "DEFAULT=MAYBE"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n", "EXT-X-MEDIA-SEQUENCE"),
    ])
    func malformed(_ text: String, _ message: String) {
        #expect {
            try HLSPlaylist.parse(Array(text.utf8), base: Self.base)
        } throws: { error in
            (error as? ParseError)?.message.contains(message) == true
        }
    }

    @Test("a playlist over 4 MiB, or over 100,000 segments, is refused")
    func bounded() {
        let big = Array("#EXTM3U\n".utf8) + [UInt8](repeating: 0x0A, count: HLSPlaylist.maxBytes)
        #expect(throws: ParseError.self) { try HLSPlaylist.parse(big, base: Self.base) }
        let many = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + String(repeating: "#EXTINF:1,\na.ts\n", count: HLSPlaylist.maxSegments + 1)
        #expect {
            try HLSPlaylist.parse(Array(many.utf8), base: Self.base)
        } throws: { error in
            (error as? ParseError)?.message.contains("more than 100000 segments") == true
        }
    }
}
