#!/usr/bin/env python3
"""Drives an MPD server with python-mpd2 (PyPI `python-mpd2`), the library most python MPD clients
and scripts use, for the MPD rigs and for capturing what it sends.

    mpd2_client.py --host H --port P ACTION        (a password, if any, in MPD_PASSWORD)

ACTION:
  summary  prints `version`, `songs` (stats) and `state` (status) as KEY=VALUE lines
  idle     connects (prints `connected`), then a second connection adds the first song of the
           database and plays it, and the first one's `idle player playlist` prints
           `changed=SUBSYSTEM` for each subsystem it reports. `--idle-only` leaves the change to
           someone else (it then waits, at most --timeout s).
  browse   the calls a library browser makes: lsinfo, list album, find, search, playlistinfo,
           a command list, albumart of the first song found with a cover; prints a line each.

Exits non-zero with one line on standard error when the server refuses something.
"""
import argparse
import os
import sys

import mpd


def connect(options):
    client = mpd.MPDClient()
    client.timeout = options.timeout
    client.idletimeout = None
    client.connect(options.host, options.port)
    password = os.environ.get("MPD_PASSWORD")
    if password:
        client.password(password)
    return client


def summary(options):
    client = connect(options)
    print(f"version={client.mpd_version}")
    print(f"songs={client.stats()['songs']}")
    print(f"state={client.status()['state']}")
    client.close()
    client.disconnect()


def idle(options):
    watcher = connect(options)
    # MPD keeps the events that happen while a connected client is not idling and hands them to
    # its next `idle`: a change made after this connection exists is never missed, so the other
    # connection may act before or after the `idle` below is sent.
    print("connected", flush=True)
    if not options.idle_only:
        actor = connect(options)
        first = next(entry["file"] for entry in actor.listall() if "file" in entry)
        actor.clear()
        actor.add(first)
        actor.play(0)
        actor.close()
        actor.disconnect()
    watcher.idletimeout = options.timeout
    try:
        changed = watcher.idle("player", "playlist")
    except TimeoutError:
        print("no idle event within the timeout", file=sys.stderr)
        sys.exit(1)
    for subsystem in changed:
        print(f"changed={subsystem}", flush=True)
    watcher.close()
    watcher.disconnect()


def browse(options):
    client = connect(options)
    top = client.lsinfo()
    print(f"lsinfo={len(top)}")
    albums = client.list("album")
    print(f"albums={len(albums)}")
    artists = client.list("albumartist")
    print(f"albumartists={len(artists)}")
    if artists:
        name = artists[0]["albumartist"] if isinstance(artists[0], dict) else artists[0]
        print(f"find={len(client.find('albumartist', name))}")
    print(f"search={len(client.search('any', 'a'))}")
    client.command_list_ok_begin()
    client.status()
    client.currentsong()
    results = client.command_list_end()
    print(f"command_list={len(results)}")
    print(f"queue={len(client.playlistinfo())}")
    for entry in client.listallinfo():
        if "file" not in entry:
            continue
        try:
            art = client.albumart(entry["file"])
        except mpd.CommandError:
            continue
        print(f"albumart={entry['file']} {len(art['binary'])}")
        break
    client.close()
    client.disconnect()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--idle-only", action="store_true")
    parser.add_argument("action", choices=["summary", "idle", "browse"])
    options = parser.parse_args()
    try:
        {"summary": summary, "idle": idle, "browse": browse}[options.action](options)
    except (mpd.MPDError, OSError) as error:
        print(f"mpd2_client.py {options.action}: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
