#!/usr/bin/env python3
"""A large music library for MPD benchmarks: TRACKS tiny MP3 files, each with tags of its own,
in folders of 100 (Artist NNN/Album NNNN/TT Song.mp3).

    bench/mpd/make_library.py --tracks 100000 DIR [--mutagen]

Every file is one real 0.1 s MP3 (sox + LAME, with LAME's Info header, so MPD reads its length)
behind an ID3v2.3 tag written for that track alone: title "Song AAAA-TTT <colour> river", artist,
album, track number, every 1000th "Zebra Crossing" by "The Quiet Ones" (bench/library_tags.py,
the tags the other library benchmarks use). Hard links cannot carry distinct tags, so every
file is written: ~730 bytes each (a 4 KB block on disk), 100,000 files ~400 MB of disk.

The tag is built as bytes here (the format is small and fixed); --mutagen instead copies the MP3
and tags each copy with mutagen, as a tagger would: the same tags, much slower (it parses and
rewrites every file) — kept to measure that. Prints the time taken and the files made.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import library_tags  # noqa: E402

PER_ALBUM = 100


def template_mp3(folder):
    wav, mp3 = os.path.join(folder, "t.wav"), os.path.join(folder, "t.mp3")
    subprocess.run(["sox", "-V1", "-n", "-r", "44100", "-c", "1", "-b", "16", wav, "synth", "0.1", "sine", "440"], check=True)
    subprocess.run(["lame", "--quiet", "-b", "32", "--noreplaygain", wav, mp3], check=True)
    with open(mp3, "rb") as handle:
        return mp3, handle.read()


def path_of(root, n):
    return os.path.join(root, library_tags.folder(n, PER_ALBUM), f"{n % PER_ALBUM + 1:02d} Song.mp3")


def write_raw(root, tracks, audio):
    for n in range(tracks):
        path = path_of(root, n)
        if n % PER_ALBUM == 0:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(library_tags.id3v2(n, PER_ALBUM) + audio)


def write_mutagen(root, tracks, template):
    from mutagen.id3 import ID3, TALB, TIT2, TPE1, TRCK
    for n in range(tracks):
        path = path_of(root, n)
        if n % PER_ALBUM == 0:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(template, path)
        title, artist, album, track = library_tags.tags(n, PER_ALBUM)
        tags = ID3()
        tags.add(TIT2(encoding=3, text=title))
        tags.add(TPE1(encoding=3, text=artist))
        tags.add(TALB(encoding=3, text=album))
        tags.add(TRCK(encoding=3, text=str(track)))
        tags.save(path, v2_version=3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tracks", type=int, default=100000)
    parser.add_argument("--mutagen", action="store_true", help="tag each copy with mutagen (slow)")
    parser.add_argument("root")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        template, audio = template_mp3(scratch)
        began = time.monotonic()
        if options.mutagen:
            write_mutagen(options.root, options.tracks, template)
        else:
            write_raw(options.root, options.tracks, audio)
        took = time.monotonic() - began
    print(f"made {options.tracks} files in {took:.1f} s ({options.tracks / took:.0f} files/s,"
          f" {'mutagen' if options.mutagen else 'tag bytes'}) under {options.root}")


if __name__ == "__main__":
    main()
