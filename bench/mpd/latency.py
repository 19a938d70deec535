#!/usr/bin/env python3
"""Latency of an MPD-speaking server (a real MPD, cloudplayerd's MPD server): p50/p99 of the
commands clients send most and the heaviest answer, plus the server's memory.

    bench/mpd/latency.py --host H --port P --pid PID --rounds N [--word W ...] [--password-env VAR]
                         [--save FILE]
    bench/mpd/latency.py --compare NAME=FILE NAME=FILE ...

On one connection, N rounds of `status` and `currentsong`, max(5, N // 10) of `search any "W"`
for each --word (default: "gold", a fifth of the bench library, and "0420-042", one song) and of
two regular expressions (`find "(Artist =~ '^The Quiet')"`, `search "(Title =~ 'zebra cr')"`: a
thousandth of the library, bench/library_tags.py's "Zebra Crossing"), and max(3, N // 20) of `listallinfo` (the whole library, read as it streams in 64 KB reads and
counted, never held: its time to the first byte and to the final OK), and max(3, N // 40) of a
command list of 10,000 `add`s of the library's songs by their paths (Cantata adding a big folder;
the paths from `listall`; the queue cleared after each, untimed). A server that closes the
connection mid-answer (MPD does when an answer outgrows its max_output_buffer_size, 8 MiB by
default) gets a row saying so, after how many bytes, and a new connection for the rest. Each time is from sending the
command to reading its OK (an ACK counts as a failure and is reported). Prints a table, then
the server's VmRSS/VmHWM from /proc/PID/status before and after (PID: the server's process;
0 skips it). A raw socket, no client library, so the client costs the same against any server.
--save also writes the rows as JSON; --compare prints saved runs side by side, one column each
(bench/mpd/run: cloudplayerd beside MPD 0.23).
"""
import argparse
import json
import os
import socket
import statistics
import sys
import time


class Connection:
    def __init__(self, host, port, timeout):
        self.socket = socket.create_connection((host, port), timeout=timeout)
        self.buffer = b""
        self.greeting = self.line()

    def line(self):
        while b"\n" not in self.buffer:
            data = self.socket.recv(65536)
            if not data:
                raise EOFError("the server closed the connection")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def command(self, text):
        """Sends one command and reads its answer to the end; returns (seconds, first-byte
        seconds, lines, bytes). The answer is scanned for its final line, never kept whole."""
        began = time.perf_counter()
        self.socket.sendall(text.encode() + b"\n")
        first = None
        lines = size = 0
        tail = b""  # the unfinished line the last read ended in (it starts at a line's start)
        while True:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise EOFError(f"the server closed the connection after {size} bytes of the answer")
            if first is None:
                first = time.perf_counter() - began
            size += len(chunk)
            lines += chunk.count(b"\n")
            data = tail + chunk
            if not data.endswith(b"\n"):
                tail = data[data.rfind(b"\n") + 1:]
                continue
            last = data[data.rfind(b"\n", 0, len(data) - 1) + 1:]
            if last.startswith(b"ACK "):
                raise RuntimeError(f"{text}: {last.decode(errors='replace').strip()}")
            if last == b"OK\n":
                return time.perf_counter() - began, first, lines, size
            tail = b""


    def lines_of(self, text, prefix):
        """Sends one command and returns the values of its `prefix: value` lines."""
        self.socket.sendall(text.encode() + b"\n")
        values = []
        while True:
            line = self.line()
            if line == b"OK":
                return values
            if line.startswith(b"ACK "):
                raise RuntimeError(f"{text}: {line.decode(errors='replace')}")
            if line.startswith(prefix + b": "):
                values.append(line[len(prefix) + 2:])


def memory_fields(pid):
    """VmRSS and VmHWM of PID in MiB (empty for PID 0)."""
    fields = {}
    if pid:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    fields[key] = int(value.split()[0]) / 1024
    return fields


def memory(pid):
    if not pid:
        return "n/a"
    fields = memory_fields(pid)
    return f"VmRSS {fields.get('VmRSS', 0):.1f} MiB, VmHWM {fields.get('VmHWM', 0):.1f} MiB"


def compare(pairs):
    """Prints saved runs (NAME=FILE) side by side: p50 / p99 ms per command, then memory."""
    runs = []
    for pair in pairs:
        name, _, path = pair.partition("=")
        with open(path) as handle:
            runs.append((name, json.load(handle)))
    commands = []
    for _, run in runs:
        commands += [row["command"] for row in run["rows"] if row["command"] not in commands]
    print(f"{'p50 / p99 ms':36}" + "".join(f" {name:>24}" for name, _ in runs))
    for command in commands:
        cells = []
        for _, run in runs:
            row = next((row for row in run["rows"] if row["command"] == command), None)
            if row is None:
                cells.append("-")
            elif "failed" in row:
                cells.append("failed")
            else:
                cells.append(f"{row['p50']:.2f} / {row['p99']:.2f}")
        print(f"{command:36}" + "".join(f" {cell:>24}" for cell in cells))
    for key, label in (("VmRSS", "RSS after, MiB"), ("VmHWM", "peak RSS, MiB")):
        print(f"{label:36}" + "".join(f" {run['memory'].get(key, 0):>24.1f}" for _, run in runs))


def connect(options):
    connection = Connection(options.host, options.port, options.timeout)
    if options.password_env:
        connection.command(f'password "{os.environ[options.password_env]}"')
    return connection


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int)
    parser.add_argument("--pid", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--word", action="append", help="a word to `search any` (repeatable)")
    parser.add_argument("--password-env", help="the environment variable holding the password")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--save", help="also write the rows and the memory as JSON to this file")
    parser.add_argument("--compare", nargs="+", metavar="NAME=FILE", help="print saved runs side by side")
    options = parser.parse_args()
    if options.compare:
        compare(options.compare)
        return
    if options.port is None:
        parser.error("--port is needed")
    words = options.word or ["gold", "0420-042"]

    print(f"server {options.host}:{options.port} pid {options.pid or '-'}: {memory(options.pid)} before")
    connection = connect(options)
    print(f"greeting: {connection.greeting.decode(errors='replace')}")
    plan = [("status", options.rounds), ("currentsong", options.rounds)]
    plan += [(f'search any "{word}"', max(5, options.rounds // 10)) for word in words]
    # Regular expressions (MPD's =~): MPD tries every track's tag; cloudplayerd only those the
    # trigram index finds holding the expression's plain word.
    plan += [(command, max(5, options.rounds // 10)) for command in
             ["find \"(Artist =~ '^The Quiet')\"", "search \"(Title =~ 'zebra cr')\""]]
    plan.append(("listallinfo", max(3, options.rounds // 20)))
    songs = connection.lines_of("listall", b"file")[:10000]
    adds = "command_list_begin\n" + "\n".join('add "' + song.decode().replace("\\", "\\\\").replace('"', '\\"') + '"' for song in songs) + "\ncommand_list_end"
    plan.append((f"{len(songs)} adds in one command list", max(3, options.rounds // 40)))
    print(f"{'command':36} {'rounds':>6} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9} {'1st byte p50':>12} {'lines':>8} {'bytes':>11}")
    saved = []
    for command, rounds in plan:
        times, firsts = [], []
        lines = size = 0
        try:
            for _ in range(rounds):
                took, first, lines, size = connection.command(adds if command.endswith("command list") else command)
                times.append(took * 1000)
                firsts.append(first * 1000)
                if command.endswith("command list"):
                    connection.command("clear")
        except EOFError as error:
            print(f"{command:36} {rounds:>6} failed: {error}")
            saved.append({"command": command, "failed": str(error)})
            connection = connect(options)
            continue
        print(f"{command:36} {rounds:>6} {percentile(times, 0.5):>9.2f} {percentile(times, 0.99):>9.2f}"
              f" {max(times):>9.2f} {statistics.median(firsts):>12.2f} {lines:>8} {size:>11}")
        saved.append({"command": command, "rounds": rounds, "p50": percentile(times, 0.5), "p99": percentile(times, 0.99),
                      "max": max(times), "lines": lines, "bytes": size})
    print(f"server: {memory(options.pid)} after")
    if options.save:
        with open(options.save, "w") as handle:
            json.dump({"greeting": connection.greeting.decode(errors="replace"), "rows": saved,
                       "memory": memory_fields(options.pid)}, handle, indent=1)


if __name__ == "__main__":
    try:
        main()
    except (OSError, EOFError, RuntimeError) as error:
        print(f"latency.py: {error}", file=sys.stderr)
        sys.exit(1)
