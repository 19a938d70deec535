#!/usr/bin/env python3
"""Makes a small tagged music library for a real MPD and the MPD rigs: two artists, three albums,
seven one-second tracks in MP3, FLAC and Opus (ffmpeg encodes a tone; mutagen writes the tags,
so the tags are the ones real taggers write), a cover.jpg beside the first album (what MPD's
`albumart` serves) and one untagged file at the top.

    make_library.py DIR

Prints one line per file made. Every title holds a word of its own ("Aurora", "Basalt", ...), so
a search for it finds one song; every album's folder is Artist/Album. Beyond the eight tags every
client shows, each album carries some of the others MPD lists (`MORE`): composers, MusicBrainz
ids, a date written in full.
"""
import os
import subprocess
import sys

import mutagen
from mutagen.easyid3 import EasyID3
from mutagen.flac import FLAC
from mutagen.oggopus import OggOpus

LIBRARY = [
    # artist, album, date, genre, [(track, title, format)]
    ("Alpha Band", "First Light", "2001-03-01", "Rock",
     [(1, "Aurora", "mp3"), (2, "Basalt", "mp3"), (3, "Cinder", "mp3")]),
    ("Alpha Band", "Second Wind", "2004", "Rock",
     [(1, "Dune", "flac"), (2, "Ember", "flac")]),
    ("Beta Ensemble", "Quiet Rooms", "2019", "Ambient",
     [(1, "Fjord", "opus"), (2, "Glacier", "opus")]),
]

# The tags beyond the eight every client shows, per album, as Picard and taggers write them
# (mutagen's EasyID3 names for the MP3s: TCOM, TPE3, TDOR, TPUB, TSOP, TSO2, TSOA, TSOC, TIT1,
# TPOS, TXXX MusicBrainz ids and UFID; Vorbis comment names for FLAC and Opus).
MORE = {
    "First Light": {"composer": "Clara Voss", "conductor": "Otto Reiner", "originaldate": "1998",
                    "organization": "Lighthouse Records", "artistsort": "Band, Alpha", "albumartistsort": "Band, Alpha",
                    "albumsort": "First Light, The", "composersort": "Voss, Clara", "discnumber": "1",
                    "musicbrainz_artistid": "0f3a1c2e-1111-4a4a-9b9b-000000000001",
                    "musicbrainz_albumid": "0f3a1c2e-2222-4a4a-9b9b-000000000002",
                    "musicbrainz_albumartistid": "0f3a1c2e-1111-4a4a-9b9b-000000000001",
                    "musicbrainz_releasetrackid": "0f3a1c2e-3333-4a4a-9b9b-00000000000{n}",
                    "musicbrainz_trackid": "0f3a1c2e-4444-4a4a-9b9b-00000000000{n}",
                    "musicbrainz_workid": "0f3a1c2e-5555-4a4a-9b9b-000000000005"},
    "Second Wind": {"composer": "Ida Lund", "performer": "Alpha Strings Quartet", "conductor": "Otto Reiner",
                    "label": "Windmill", "originaldate": "2003-10", "work": "Wind Suite", "movementname": "Allegro",
                    "movementnumber": "{n}", "ensemble": "Alpha Strings", "location": "Oslo", "grouping": "Suites",
                    "discnumber": "2", "musicbrainz_albumid": "0f3a1c2e-6666-4a4a-9b9b-000000000006"},
    "Quiet Rooms": {"composer": "Clara Voss", "label": "Fjordlight", "comment": "recorded in one take"},
}


def encode(path, kind, frequency):
    codec = {"mp3": ["-c:a", "libmp3lame", "-b:a", "64k"], "flac": ["-c:a", "flac"],
             "opus": ["-c:a", "libopus", "-b:a", "32k"]}[kind]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"sine=frequency={frequency}:duration=1:sample_rate=48000", *codec, path], check=True)


def tag(path, kind, fields):
    if kind == "mp3":
        try:
            tags = EasyID3(path)
        except mutagen.id3.ID3NoHeaderError:
            tags = mutagen.File(path, easy=True)
            tags.add_tags()
    else:
        tags = {"flac": FLAC, "opus": OggOpus}[kind](path)
    for key, value in fields.items():
        tags[key] = value
    tags.save()


def main():
    root = sys.argv[1]
    frequency = 220
    for artist, album, date, genre, tracks in LIBRARY:
        folder = os.path.join(root, artist, album)
        os.makedirs(folder, exist_ok=True)
        for number, title, kind in tracks:
            path = os.path.join(folder, f"{number:02d} {title}.{kind}")
            frequency += 55
            encode(path, kind, frequency)
            more = {key: value.format(n=number) for key, value in MORE[album].items()}
            tag(path, kind, {"artist": artist, "albumartist": artist, "album": album, "title": title,
                             "tracknumber": str(number), "date": date, "genre": genre, **more})
            print(path)
    cover = os.path.join(root, LIBRARY[0][0], LIBRARY[0][1], "cover.jpg")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=orange:s=64x64",
                    "-frames:v", "1", cover], check=True)
    print(cover)
    loose = os.path.join(root, "untagged.mp3")
    encode(loose, "mp3", 880)
    print(loose)


if __name__ == "__main__":
    main()
