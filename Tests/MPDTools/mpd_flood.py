#!/usr/bin/env python3
"""Opens many connections to an MPD server and keeps them, as an attacker exhausting the server's
descriptors would; says what the server did with them.

    mpd_flood.py --port P --count N [--host H] [--send LINE]

Connects N times (each connection kept open, nothing sent unless --send), then prints
`opened N: greeted G, closed C` once every connection has either been greeted or closed by the
server, and waits: each time the server closes more of them it prints `closed C`, and it ends
(`all closed`) once the server has closed every one. Its standard input's end (the test process
gone) ends it too. Raises its own limit of open files to its hard limit first.
"""
import argparse
import resource
import selectors
import socket
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--send", default=None)
    options = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    selector = selectors.DefaultSelector()
    states = {}
    for _ in range(options.count):
        connection = socket.create_connection((options.host, options.port))
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ)
        states[connection] = "waiting"
    selector.register(sys.stdin, selectors.EVENT_READ)

    said_opened = False
    closed = 0
    while True:
        for key, _ in selector.select():
            if key.fileobj is sys.stdin:
                if not sys.stdin.buffer.read1(4096):
                    return
                continue
            connection = key.fileobj
            try:
                data = connection.recv(65536)
            except ConnectionResetError:
                data = b""
            if data:
                if states[connection] == "waiting" and data.startswith(b"OK MPD"):
                    states[connection] = "greeted"
                    if options.send:
                        connection.sendall((options.send + "\n").encode())
                continue
            selector.unregister(connection)
            connection.close()
            states[connection] = "closed"
            closed += 1
            if said_opened:
                print(f"closed {closed}", flush=True)
        if not said_opened and all(state != "waiting" for state in states.values()):
            greeted = sum(1 for state in states.values() if state == "greeted")
            print(f"opened {options.count}: greeted {greeted}, closed {closed}", flush=True)
            said_opened = True
        if closed == options.count:
            print("all closed", flush=True)
            return


if __name__ == "__main__":
    main()
