#!/usr/bin/env python3
"""Adds chapter pictures to an M4B audiobook the way iTunes-era tools (Audiobook Builder, Apple's
own) store them, which no encoder on this machine writes: a video track of one still image per
chapter (sample entry 'jpeg' or 'png '), timed like the chapters, which the audio track names in
its `tref/chap` box beside the chapter text track (QuickTime File Format, "Chapter lists").

    chapter_images.py BOOK.m4b DURATION_MS=IMAGE [DURATION_MS=IMAGE ...]

Each image is shown for DURATION_MS, one after another from 0 (the chapters' lengths). The book
must have a QuickTime chapter track already (ffmpeg's `ipod` muxer writes one). The images go into
a new `mdat` at the end; the old `moov` becomes a `free` box of its size (so no offset moves) and
the new `moov` follows the images.
"""
import struct
import sys


def box(kind, body):
    return struct.pack(">I4s", 8 + len(body), kind) + body


def full_box(kind, version, flags, body):
    return box(kind, struct.pack(">I", version << 24 | flags) + body)


def children(data, start, end):
    """(kind, start, end) of each box in data[start:end]."""
    found = []
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[start + 8:start + 16])[0]
            header = 16
        elif size == 0:
            size = end - start
        found.append((kind, start, start + size, header))
        start += size
    return found


def find(boxes, kind):
    return [b for b in boxes if b[0] == kind]


def handler(data, trak):
    mdia = find(children(data, trak[1] + 8, trak[2]), b"mdia")[0]
    hdlr = find(children(data, mdia[1] + 8, mdia[2]), b"hdlr")[0]
    return data[hdlr[1] + 16:hdlr[1] + 20]


def image_track(track_id, movie_timescale, durations, sizes, offset, kinds):
    total = sum(durations)
    tkhd = full_box(b"tkhd", 0, 0, struct.pack(">IIIII", 0, 0, track_id, 0, total * movie_timescale // 1000)
                    + bytes(8) + struct.pack(">hhhH", 0, 0, 0, 0)
                    + struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000) + struct.pack(">II", 8 << 16, 8 << 16))
    mdhd = full_box(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, 1000, total, 0x55C4, 0))
    hdlr = full_box(b"hdlr", 0, 0, struct.pack(">I4s", 0, b"vide") + bytes(12) + b"Chapter images\0")
    entry = box(kinds[0], bytes(6) + struct.pack(">H", 1) + bytes(16) + struct.pack(">HHIII", 8, 8, 0x480000, 0x480000, 0)
                + struct.pack(">H", 1) + bytes(32) + struct.pack(">Hh", 0x18, -1))
    stsd = full_box(b"stsd", 0, 0, struct.pack(">I", 1) + entry)
    stts = full_box(b"stts", 0, 0, struct.pack(">I", len(durations)) + b"".join(struct.pack(">II", 1, d) for d in durations))
    stsc = full_box(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, len(sizes), 1))
    stsz = full_box(b"stsz", 0, 0, struct.pack(">II", 0, len(sizes)) + b"".join(struct.pack(">I", s) for s in sizes))
    stco = full_box(b"stco", 0, 0, struct.pack(">II", 1, offset))
    vmhd = full_box(b"vmhd", 0, 1, bytes(8))
    dinf = box(b"dinf", full_box(b"dref", 0, 0, struct.pack(">I", 1) + full_box(b"url ", 0, 1, b"")))
    minf = box(b"minf", vmhd + dinf + box(b"stbl", stsd + stts + stsc + stsz + stco))
    return box(b"trak", tkhd + box(b"mdia", mdhd + hdlr + minf))


def main():
    path, pairs = sys.argv[1], sys.argv[2:]
    durations = [int(pair.split("=", 1)[0]) for pair in pairs]
    images = [open(pair.split("=", 1)[1], "rb").read() for pair in pairs]
    kinds = [b"png " if image.startswith(b"\x89PNG") else b"jpeg" for image in images]
    data = bytearray(open(path, "rb").read())
    moov = find(children(data, 0, len(data)), b"moov")[0]
    parts = children(data, moov[1] + 8, moov[2])
    mvhd = find(parts, b"mvhd")[0]
    version = data[mvhd[1] + 8]
    timescale_at = mvhd[1] + 8 + (20 if version == 1 else 12)
    next_at = mvhd[1] + 8 + (108 if version == 1 else 96)
    movie_timescale = struct.unpack(">I", data[timescale_at:timescale_at + 4])[0]
    track_id = struct.unpack(">I", data[next_at:next_at + 4])[0]

    images_offset = len(data) + 8
    new_parts = []
    for part in parts:
        body = bytes(data[part[1]:part[2]])
        if part[0] == b"mvhd":
            relative = next_at - part[1]
            body = body[:relative] + struct.pack(">I", track_id + 1) + body[relative + 4:]
        elif part[0] == b"trak" and handler(data, part) == b"soun":
            inner = []
            for child in children(data, part[1] + 8, part[2]):
                piece = bytes(data[child[1]:child[2]])
                if child[0] == b"tref":
                    refs = b""
                    for ref in children(data, child[1] + 8, child[2]):
                        ref_body = bytes(data[ref[1] + 8:ref[2]])
                        if ref[0] == b"chap":
                            ref_body += struct.pack(">I", track_id)
                        refs += box(ref[0], ref_body)
                    piece = box(b"tref", refs)
                inner.append(piece)
            body = box(b"trak", b"".join(inner))
        new_parts.append(body)
    new_parts.append(image_track(track_id, movie_timescale, durations, [len(i) for i in images], images_offset, kinds))
    data[moov[1] + 4:moov[1] + 8] = b"free"
    data += box(b"mdat", b"".join(images))
    data += box(b"moov", b"".join(new_parts))
    open(path, "wb").write(bytes(data))


if __name__ == "__main__":
    main()
