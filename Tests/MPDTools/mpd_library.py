#!/usr/bin/env python3
"""The MPD server's database commands through python-mpd2, over the library MPDDatabaseTests
scans (2 artists x 2 albums x 3 tracks, and music/Covers/covered.mp3 with a cover).

Usage: mpd_library.py PORT COVER_FILE
Prints one line per failed check and exits 1 if any failed; prints "ok" otherwise.
"""
import socket
import sys

import mpd

port, cover = int(sys.argv[1]), open(sys.argv[2], "rb").read()
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def raw(command):
    """The answer's lines to one command, on a connection of its own (without the final OK)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        stream = connection.makefile("rwb")
        stream.readline()  # the greeting
        stream.write(command.encode() + b"\n")
        stream.flush()
        lines = []
        while (line := stream.readline().decode().rstrip("\n")) != "OK":
            if line.startswith("ACK") or not line:
                raise RuntimeError(f"{command}: {line!r}")
            lines.append(line)
        return lines


c = mpd.MPDClient()
c.timeout = 30
c.connect("127.0.0.1", port)

# Filters: expressions, escapes, NOT, AND, base, file.
found = c.find("(artist == 'Artist 01')")
check(len(found) == 6, f"find artist: {len(found)}")
check(list(found[0].keys())[:2] == ["file", "last-modified"] or list(found[0].keys())[0] == "file", f"fields: {list(found[0].keys())}")
check(all(song["artist"] == "Artist 01" for song in found), "find artist: other artists")
check(len(c.search("(album contains 'café ø')")) == 6, "search folds case beyond ASCII")
check(len(c.find("(album contains 'café ø')")) == 0, "find keeps case")
check(len(c.find("((artist == 'Artist 01') AND (!(album == 'Album 2')))")) == 3, "AND and NOT")
check(len(c.find("(base 'music/Artist 02/Album 2')")) == 3, "base")
one = found[0]["file"]
check([s["file"] for s in c.find(f"(file == '{one}')")] == [one], "file ==")
check(len(c.find("(title == 'it\\'s')")) == 0, "an escaped quote parses")
check(len(c.search("(album =~ 'CAFÉ|^album 2$')")) == 12, "=~ folded by search")
check(len(c.find("((artist == 'Artist 01') AND (title !~ 'T0[12]$'))")) == 2, "!~ with AND")

# Sort and window.
titles = [s["title"] for s in c.search("(title contains 'song')", "sort", "-Title", "window", "1:4")]
check(titles == ["Song A02 B2 T02", "Song A02 B2 T01", "Song A02 B1 T03"], f"sort -Title window 1:4: {titles}")

# list with groups, count.
grouped = c.list("album", "group", "artist")
check({(g["artist"], g["album"]) for g in grouped} >= {("Artist 01", "Album 2"), ("Painter", "Canvas")}, f"list album group artist: {grouped}")
counted = c.count("(artist == 'Artist 02')")
check(counted["songs"] == "6" and int(counted["playtime"]) in (6, 7), f"count: {counted}")
# python-mpd2 parses `count` as one object (the first group only): the groups are read raw.
per = raw("count group artist")
groups = [tuple(line.split(": ", 1)[1] for line in per[i:i + 2]) for i in range(0, len(per), 3)]
check(sorted(groups) == [("Artist 01", "6"), ("Artist 02", "6"), ("Painter", "1")], f"count group: {per}")

# lsinfo and listallinfo.
root = c.lsinfo()
check(root == [{"directory": "music"}], f"lsinfo root: {root}")
everything = c.listallinfo()
check(sum(1 for e in everything if "file" in e) == 13, "listallinfo songs")
check(sum(1 for e in everything if "directory" in e) == 8, f"listallinfo directories: {[e for e in everything if 'directory' in e]}")

# Cover art: chunks of at most binarylimit, reassembled.
c.binarylimit(1024)
art = c.albumart("music/Covers/covered.mp3")
check(art.get("binary") == cover, f"albumart: {len(art.get('binary', b''))} bytes of {len(cover)}")
picture = c.readpicture("music/Covers/covered.mp3")
check(picture.get("binary") == cover and picture.get("type") == "image/png", f"readpicture: {picture.get('type')}")
check(c.readpicture(one) == {}, "readpicture without a picture: nothing")

# Bad input: one clear ACK each, and the connection goes on. A missing base folder is MPD's
# database error (No such directory, 50), not a syntax error.
for args, code in [(("(artist == 'x'",), 2), (("(nosuchtag == 'x')",), 2), (("(base 'music/nowhere')",), 50), (("artist",), 2),
                   (("(artist =~ 'a(')",), 2)]:
    try:
        c.find(*args)
        failures.append(f"find {args}: no error")
    except mpd.CommandError as error:
        check(f"[{code}@0]" in str(error), f"find {args}: {error}")
try:
    c.lsinfo("music/nowhere")
    failures.append("lsinfo nowhere: no error")
except mpd.CommandError as error:
    check("[50@0]" in str(error) and "No such directory" in str(error), f"lsinfo nowhere: {error}")
check(c.ping() is None, "still answering")

print("\n".join(failures) if failures else "ok")
sys.exit(1 if failures else 0)
