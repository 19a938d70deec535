import Foundation

/// Writes tags into a copy of a file with mutagen (PyPI), the library Picard and beets tag with:
/// ID3v2.4 `TXXX` and `RVA2` frames in an MP3, comments in Opus, Vorbis and FLAC.
public enum Tagger {
    /// One `RVA2` frame: its identification ("track", "album"), the master volume's gain in dB
    /// and its peak (a fraction of full scale).
    public struct RVA2: Sendable {
        public var identification: String
        public var gain: Double
        public var peak: Double

        public init(_ identification: String, gain: Double, peak: Double) {
            self.identification = identification
            self.gain = gain
            self.peak = peak
        }
    }

    /// A copy of `file` in `directory` named `name`, with `fields` added (TXXX frames for an
    /// MP3, comments otherwise) and, for an MP3, `rva2` frames.
    public static func copy(_ file: URL, to directory: URL, named name: String, fields: [String: String],
                            rva2: [RVA2] = []) async throws -> URL {
        let copy = directory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: file, to: copy)
        let spec: [String: Any] = ["fields": fields, "rva2": rva2.map { [$0.identification, $0.gain, $0.peak] as [Any] }]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        try await ChildProcess.check("python3", ["-c", script, copy.path, json])
        return copy
    }

    private static let script = """
        import json, sys
        import mutagen
        from mutagen.id3 import ID3, ID3NoHeaderError, RVA2, TXXX
        path, spec = sys.argv[1], json.loads(sys.argv[2])
        if path.endswith(".mp3"):
            try:
                tags = ID3(path)
            except ID3NoHeaderError:
                tags = ID3()
            for key, value in spec["fields"].items():
                tags.add(TXXX(encoding=3, desc=key, text=[value]))
            for ident, gain, peak in spec["rva2"]:
                tags.add(RVA2(desc=ident, channel=1, gain=gain, peak=peak))
            tags.save(path, v2_version=4)
        else:
            audio = mutagen.File(path)
            for key, value in spec["fields"].items():
                audio[key] = value
            audio.save()
        """
}
