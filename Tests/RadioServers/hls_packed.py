"""HLS packed audio (RFC 8216 section 3.4) for the HLS tests, which ffmpeg cannot write: an ADTS
AAC file cut at frame boundaries into segments, each segment an ID3v2.4 tag and then its ADTS
frames, and the media playlist that lists them. Python's standard library only.

Every segment's tag holds a PRIV frame `com.apple.streaming.transportStreamTimestamp`: the 33-bit
MPEG-2 PTS (90 kHz) of the segment's first sample, as 8 bytes big-endian. That is how a client
places packed audio on the timeline: the segment itself has no timestamps. A segment from the
first scheduled title on also carries TIT2 (title) and TPE1 (artist), in UTF-8: the timed
metadata a radio station's HLS stream sends with its songs, carried by every segment so a client
that joins anywhere sees the current song.

  hls_packed.py --adts FILE --out DIR [options]

Options:
  --segment-seconds S   about S seconds a segment (default 2): whole ADTS frames, as many as
                        come nearest to S seconds
  --start-pts N         the PTS of the first sample (default 900000: 10 s), wrapping at 2^33
  --title N:ARTIST:TITLE   from segment N on, segments carry ARTIST and TITLE (repeatable)
  --playlist NAME       the playlist's file name (default index.m3u8); segments are segN.aac
  --live                a live stream: writes each segment when its audio is due by the wall
                        clock (as an encoder that just finished it), the file again and again
                        from its start, and a playlist of the newest --list-size segments
                        without EXT-X-ENDLIST; segments that left the playlist (one more is kept
                        for clients still reading it) are deleted. Without it: every segment at
                        once, and a VOD playlist.
  --list-size N         segments in the live playlist (default 4)

Files appear whole: each is written under a temporary name and renamed. A live run ends when its
parent ends (PR_SET_PDEATHSIG; the tests start it under a watchdog shell that stops it when the
test process ends, however that ends) and on SIGTERM.
"""
import argparse, math, os, signal, struct, time

from parent_bound import end_with_parent

RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
PRIV_OWNER = b"com.apple.streaming.transportStreamTimestamp\x00"


def adts_frames(data):
    """The ADTS frames of `data` as (bytes, samples), and the sample rate; raises on anything else."""
    frames, offset, rate = [], 0, None
    while offset < len(data):
        header = data[offset:offset + 7]
        if len(header) < 7 or header[0] != 0xFF or header[1] & 0xF0 != 0xF0:
            raise ValueError("no ADTS frame at byte %d" % offset)
        length = ((header[3] & 0x03) << 11) | (header[4] << 3) | (header[5] >> 5)
        if length < 7 or offset + length > len(data):
            raise ValueError("ADTS frame at byte %d claims %d bytes" % (offset, length))
        rate = RATES[(header[2] >> 2) & 0x0F]
        blocks = (header[6] & 0x03) + 1
        frames.append((data[offset:offset + length], 1024 * blocks))
        offset += length
    if not frames:
        raise ValueError("no ADTS frames")
    return frames, rate


def synchsafe(number):
    """A 28-bit number as ID3v2.4 writes sizes: 4 bytes of 7 bits each."""
    return bytes([(number >> 21) & 0x7F, (number >> 14) & 0x7F, (number >> 7) & 0x7F, number & 0x7F])


def id3_frame(name, body):
    return name.encode("ascii") + synchsafe(len(body)) + b"\x00\x00" + body


def id3_tag(pts, title):
    """An ID3v2.4 tag: the PRIV timestamp, and TPE1 and TIT2 (encoding 3, UTF-8) when `title`."""
    frames = id3_frame("PRIV", PRIV_OWNER + struct.pack(">Q", pts % (1 << 33)))
    if title:
        artist, name = title
        frames += id3_frame("TPE1", b"\x03" + artist.encode("utf-8"))
        frames += id3_frame("TIT2", b"\x03" + name.encode("utf-8"))
    return b"ID3\x04\x00\x00" + synchsafe(len(frames)) + frames


def write_whole(path, data):
    """Writes `data` under a temporary name, then renames it: a reader never sees half a file."""
    temporary = path + ".tmp"
    with open(temporary, "wb") as file:
        file.write(data)
    os.rename(temporary, path)


def playlist(entries, target, sequence, live):
    """The media playlist of `entries` (name, seconds), the first numbered `sequence`."""
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:%d" % target, "#EXT-X-MEDIA-SEQUENCE:%d" % sequence]
    if not live:
        lines.append("#EXT-X-PLAYLIST-TYPE:VOD")
    for name, seconds in entries:
        lines += ["#EXTINF:%.6f," % seconds, name]
    if not live:
        lines.append("#EXT-X-ENDLIST")
    return ("\n".join(lines) + "\n").encode("utf-8")


class Segmenter:
    """Cuts the file's frames into segments, numbered from 0, the file again from its start when
    it runs out (live); each with its PTS and the title in force."""

    def __init__(self, frames, rate, per_segment, start_pts, titles):
        self.frames, self.rate, self.per_segment = frames, rate, per_segment
        self.titles = sorted(titles)
        self.next_frame, self.samples, self.start_pts = 0, 0, start_pts

    def title(self, number):
        current = None
        for first, artist, name in self.titles:
            if first <= number:
                current = (artist, name)
        return current

    def segment(self, number, wrap):
        """Segment `number`: (bytes, seconds), or None when the file ran out and `wrap` is False.
        With `wrap`, every segment is whole: frames from the file's start follow its last."""
        if self.next_frame >= len(self.frames) and not wrap:
            return None
        chosen = []
        while len(chosen) < self.per_segment:
            if self.next_frame >= len(self.frames):
                if not wrap:
                    break
                self.next_frame = 0
            taken = self.frames[self.next_frame:self.next_frame + self.per_segment - len(chosen)]
            chosen += taken
            self.next_frame += len(taken)
        pts = self.start_pts + self.samples * 90000 // self.rate
        samples = sum(count for _, count in chosen)
        self.samples += samples
        body = b"".join(frame for frame, _ in chosen)
        return id3_tag(pts, self.title(number)) + body, samples / self.rate


def parse_title(text):
    number, artist, title = text.split(":", 2)
    return int(number), artist, title


def main():
    parser = argparse.ArgumentParser(description="HLS packed audio (ID3-timestamped ADTS segments) and its playlist")
    parser.add_argument("--adts", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--segment-seconds", type=float, default=2.0)
    parser.add_argument("--start-pts", type=int, default=900000)
    parser.add_argument("--title", action="append", default=[], type=parse_title)
    parser.add_argument("--playlist", default="index.m3u8")
    parser.add_argument("--live", action="store_true")
    parser.add_argument("--list-size", type=int, default=4)
    args = parser.parse_args()
    with open(args.adts, "rb") as file:
        frames, rate = adts_frames(file.read())
    per_segment = max(1, round(args.segment_seconds * rate / 1024))
    segmenter = Segmenter(frames, rate, per_segment, args.start_pts, args.title)
    target = math.ceil(per_segment * 1024 / rate)
    playlist_path = os.path.join(args.out, args.playlist)
    if not args.live:
        entries, number = [], 0
        while True:
            made = segmenter.segment(number, wrap=False)
            if made is None:
                break
            name = "seg%d.aac" % number
            write_whole(os.path.join(args.out, name), made[0])
            entries.append((name, made[1]))
            number += 1
        write_whole(playlist_path, playlist(entries, target, 0, live=False))
        return
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    end_with_parent()
    started, due, entries, number = time.monotonic(), 0.0, [], 0
    while True:
        data, seconds = segmenter.segment(number, wrap=True)
        due += seconds
        # A segment is there once its last sample is due, as from an encoder working in real time.
        time.sleep(max(0.0, started + due - time.monotonic()))
        name = "seg%d.aac" % number
        write_whole(os.path.join(args.out, name), data)
        entries.append((name, seconds))
        if len(entries) > args.list_size:
            entries.pop(0)
        sequence = number + 1 - len(entries)
        write_whole(playlist_path, playlist(entries, target, sequence, live=True))
        gone = sequence - 2
        if gone >= 0:
            try:
                os.remove(os.path.join(args.out, "seg%d.aac" % gone))
            except FileNotFoundError:
                pass
        number += 1


if __name__ == "__main__":
    main()
