"""The synthetic library's tags, shared by bench/library-server.py (served over WebDAV) and
bench/library-local (written to disk): track n of a library of folders of PER_FOLDER tracks is
"Song AAAA-TTT <colour> river" by "Artist AAA/10" on "Album AAAA", as an ID3v2.3 tag; every
1000th is "Zebra Crossing" by "The Quiet Ones" instead (a rare, known search target, as in
bench/mpd/synthetic_library.py)."""
import struct

COLOURS = ["red", "blue", "green", "gold", "grey"]


def folder(n, per_folder):
    """The track's folder below the library's root: Artist NNN/Album NNNN."""
    a = n // per_folder
    return f"Artist {a // 10:03d}/Album {a:04d}"


def tags(n, per_folder):
    """Track n's title, artist, album and track number."""
    a, t = divmod(n, per_folder)
    if n % 1000 == 999:
        return "Zebra Crossing", "The Quiet Ones", f"Album {a:04d}", t + 1
    return f"Song {a:04d}-{t:03d} {COLOURS[n % 5]} river", f"Artist {a // 10:03d}", f"Album {a:04d}", t + 1


def id3v2(n, per_folder):
    """Track n's ID3v2.3 tag: title, artist, album, track number."""
    title, artist, album, track = tags(n, per_folder)

    def frame(fid, text):
        body = b"\x03" + text.encode()
        return fid.encode() + struct.pack(">I", len(body)) + b"\0\0" + body

    frames = frame("TIT2", title) + frame("TPE1", artist) + frame("TALB", album) + frame("TRCK", str(track))
    size = len(frames)
    return b"ID3\x03\x00\x00" + bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F]) + frames
