import Foundation

extension Tagger {
    /// A copy of `file` in `directory` named `name`, with a front cover of `bytes` bytes embedded
    /// as each format keeps it — an ID3v2 `APIC` frame, a FLAC `PICTURE` block, an Ogg
    /// `METADATA_BLOCK_PICTURE` comment, an MP4 `covr` atom — written by mutagen. The bytes are
    /// a pattern, not an image: what matters is their size beside the audio's.
    public static func withPicture(_ file: URL, to directory: URL, named name: String, bytes: Int) async throws -> URL {
        let copy = directory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: file, to: copy)
        try await ChildProcess.check("python3", ["-c", pictureScript, copy.path, String(bytes)])
        return copy
    }

    private static let pictureScript = """
        import base64, sys
        import mutagen
        from mutagen.flac import Picture
        from mutagen.id3 import APIC, ID3, ID3NoHeaderError
        from mutagen.mp4 import MP4Cover
        path, size = sys.argv[1], int(sys.argv[2])
        data = bytes(range(256)) * (size // 256)
        picture = Picture()
        picture.type, picture.mime, picture.data = 3, "image/png", data
        if path.endswith(".mp3"):
            try:
                tags = ID3(path)
            except ID3NoHeaderError:
                tags = ID3()
            tags.add(APIC(encoding=3, mime="image/png", type=3, desc="Cover", data=data))
            tags.save(path, v2_version=4)
        elif path.endswith(".flac"):
            audio = mutagen.File(path)
            audio.add_picture(picture)
            audio.save()
        elif path.endswith(".m4a"):
            audio = mutagen.File(path)
            audio["covr"] = [MP4Cover(data, imageformat=MP4Cover.FORMAT_PNG)]
            audio.save()
        else:
            audio = mutagen.File(path)
            audio["metadata_block_picture"] = [base64.b64encode(picture.write()).decode("ascii")]
            audio.save()
        """
}
