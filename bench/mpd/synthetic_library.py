#!/usr/bin/env python3
"""Fills a cloudplayerd library database with made-up tracks, written straight into its `track`
table (no files, no scan): the 100k-track library that bench/mpd times the MPD server over, and
that the library's query tests (LibraryTagQueryTests) measure.

The database must exist with cloudplayerd's schema (the daemon, or `LibraryActor.openDatabase`,
made it); its triggers keep both search indexes in step. Deterministic: track i of N is
    ROOT/Artist AAAA/Album BB/NN Song I.mp3   (folder ROOT/Artist AAAA/Album BB/)
with artist "Artist AAAA", album artist the same, album "Album BB of Artist AAAA", title
"Song I", genre one of 12, year 1960+, 10 tracks an album, 10 albums an artist, 180-300 s.
Every 1000th track is "Zebra Crossing" by "The Quiet Ones": a rare, known search target.

    synthetic_library.py DATABASE COUNT ROOT_URL SOURCE
"""
import sqlite3
import sys
from urllib.parse import quote

GENRES = ["Rock", "Jazz", "Blues", "Folk", "Pop", "Soul", "Funk", "Metal", "Punk", "Reggae", "Classical", "Ambient"]


def rows(count, root, source):
    root = root if root.endswith("/") else root + "/"
    for i in range(count):
        artist_n, album_n, track_n = i // 100, (i // 10) % 10, i % 10 + 1
        artist = f"Artist {artist_n:04d}"
        album = f"Album {album_n:02d} of {artist}"
        title = f"Song {i:06d}"
        if i % 1000 == 999:
            artist, title = "The Quiet Ones", "Zebra Crossing"
        folder = root + quote(f"Artist {artist_n:04d}") + "/" + quote(f"Album {album_n:02d}") + "/"
        url = folder + quote(f"{track_n:02d} Song {i:06d}.mp3")
        yield (url, source, folder, 4_000_000 + i, f'"{i}"', title, artist, album, artist,
               GENRES[artist_n % len(GENRES)], track_n, 1, 1960 + artist_n % 60, 180.0 + i % 121, "mp3")


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    database, count, root, source = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    connection = sqlite3.connect(database, timeout=30)
    with connection:
        # The search indexes' triggers, set aside for the bulk insert and put back as they were;
        # the indexes are then built whole ('rebuild'), faster than row by row.
        triggers = connection.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'track'").fetchall()
        indexes = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'")]
        for name, _ in triggers:
            connection.execute(f'DROP TRIGGER "{name}"')
        connection.executemany(
            "INSERT INTO track (url, source, folder, size, validator, title, artist, album, albumArtist, genre, "
            "trackNumber, discNumber, year, duration, codec) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows(count, root, source))
        for name in indexes:
            connection.execute(f'INSERT INTO "{name}"("{name}") VALUES (\'rebuild\')')
        for _, sql in triggers:
            connection.execute(sql)
        connection.execute("INSERT INTO sourceScan (source, finished, folders, mark) VALUES (?, datetime('now'), ?, 1) "
                           "ON CONFLICT(source) DO UPDATE SET finished = excluded.finished", (source, count // 10))
    connection.execute("PRAGMA optimize")
    connection.close()


if __name__ == "__main__":
    main()
