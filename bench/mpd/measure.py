#!/usr/bin/env python3
"""Times MPD commands against a server (cloudplayerd's or a real MPD), each sent alone and its
whole answer read (to `OK` or `ACK`): p50/p99 per command, one line each, and the daemon's RSS.

    measure.py HOST:PORT|SOCKET PID [ROUNDS]

Prints lines `NAME p50_ms p99_ms bytes` for status, currentsong, search and listallinfo, then
`rss_kib N`. The same script times both servers, so the numbers sit side by side.
"""
import socket
import sys
import time

COMMANDS = [
    ("status", "status", 2000),
    ("currentsong", "currentsong", 2000),
    # A substring of one rare artist, and one of every title: the narrow and the broad search.
    ("search", 'search "(any contains \'quiet one\')"', 200),
    ("search_window", 'search "(title contains \'song 0\')" window 0:100', 100),
    ("listallinfo", "listallinfo", 3),
]


def connect(where):
    if "/" in where:
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(where)
    else:
        host, port = where.rsplit(":", 1)
        sock = socket.create_connection((host, int(port)))
    reader = sock.makefile("rb", buffering=1 << 16)
    greeting = reader.readline()
    assert greeting.startswith(b"OK MPD"), greeting
    return sock, reader


def ask(sock, reader, command):
    sock.sendall(command.encode() + b"\n")
    size = 0
    while True:
        line = reader.readline()
        if not line:
            raise SystemExit("the server closed the connection")
        size += len(line)
        if line == b"OK\n":
            return size
        if line.startswith(b"ACK "):
            raise SystemExit(f"{command}: {line.decode().strip()}")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    where, pid = sys.argv[1], sys.argv[2]
    rounds = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    sock, reader = connect(where)
    for name, command, count in COMMANDS:
        count = max(3, int(count * rounds))
        times, size = [], 0
        for _ in range(count):
            start = time.perf_counter()
            size = ask(sock, reader, command)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"{name} {times[len(times) // 2]:.3f} {p99:.3f} {size}")
    with open(f"/proc/{pid}/status") as status:
        rss = next(line.split()[1] for line in status if line.startswith("VmRSS:"))
    print(f"rss_kib {rss}")


if __name__ == "__main__":
    main()
