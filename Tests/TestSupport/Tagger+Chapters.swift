import Foundation

extension Tagger {
    /// One ID3v2 `CHAP` frame: its element ID, start and end (milliseconds), title (none: no
    /// `TIT2`) and picture (a PNG, in an `APIC` of its own).
    public struct ID3Chapter: Sendable {
        public var id: String
        public var start: Int
        public var end: Int
        public var title: String?
        public var picture: Data?

        public init(_ id: String, start: Int, end: Int, title: String?, picture: Data? = nil) {
            self.id = id
            self.start = start
            self.end = end
            self.title = title
            self.picture = picture
        }
    }

    /// A copy of the MP3 `file` in `directory` named `name`, with `chapters` as ID3v2 `CHAP`
    /// frames written by mutagen (version 2.`version`), and a top-level `CTOC` listing the
    /// element IDs `listed` (nil: no table of contents).
    public static func copy(_ file: URL, to directory: URL, named name: String, chapters: [ID3Chapter], listed: [String]?,
                            version: Int = 4) async throws -> URL {
        let copy = directory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: file, to: copy)
        let spec: [String: Any] = ["chapters": chapters.map { [$0.id, $0.start, $0.end, $0.title ?? NSNull(),
                                                               $0.picture?.base64EncodedString() ?? NSNull()] as [Any] },
                                   "listed": listed ?? NSNull(), "version": version]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        try await ChildProcess.check("python3", ["-c", chapterScript, copy.path, json])
        return copy
    }

    private static let chapterScript = """
        import base64, json, sys
        from mutagen.id3 import APIC, ID3, ID3NoHeaderError, CHAP, CTOC, CTOCFlags, TIT2
        path, spec = sys.argv[1], json.loads(sys.argv[2])
        try:
            tags = ID3(path)
        except ID3NoHeaderError:
            tags = ID3()
        for ident, start, end, title, picture in spec["chapters"]:
            frames = [TIT2(encoding=3, text=[title])] if title is not None else []
            if picture is not None:
                frames.append(APIC(encoding=3, mime="image/png", type=3, desc="", data=base64.b64decode(picture)))
            tags.add(CHAP(element_id=ident, start_time=start, end_time=end, start_offset=0xFFFFFFFF,
                          end_offset=0xFFFFFFFF, sub_frames=frames))
        if spec["listed"] is not None:
            tags.add(CTOC(element_id="toc", flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED,
                          child_element_ids=spec["listed"], sub_frames=[TIT2(encoding=3, text=["Contents"])]))
        tags.save(path, v2_version=spec["version"])
        """
}
