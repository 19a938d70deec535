#!/usr/bin/env python3
"""Sends MPD protocol lines to a server as they are and prints its answers as they come, so two
servers' answers can be compared byte for byte (cloudplayerd's and a real MPD's).

    mpd_raw.py --port P [--host H] [--timeout S] LINE...

Prints the greeting, then for each LINE the answer up to and including its `OK` or `ACK ...`
line (a command list's answer too: LINE may be `command_list_begin`, its commands and
`command_list_end` as separate LINEs; nothing is read until `command_list_end`). Binary answers
(`binary: N`) are printed as `<N bytes>`. The password, if any, is read from the environment
(MPD_PASSWORD) and sent first, so it never shows in a process list. Exits 1 when the server closes
the connection or does not answer within the timeout (default 30 s).
"""
import argparse
import os
import socket
import sys


class Reader:
    def __init__(self, connection):
        self.connection, self.buffer = connection, b""

    def fill(self):
        data = self.connection.recv(65536)
        if not data:
            raise EOFError("the server closed the connection")
        self.buffer += data

    def line(self):
        while b"\n" not in self.buffer:
            self.fill()
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "backslashreplace")

    def skip(self, count):
        while len(self.buffer) < count:
            self.fill()
        self.buffer = self.buffer[count:]


def answer(reader, out):
    while True:
        line = reader.line()
        if line.startswith("binary: "):
            count = int(line.split()[1])
            reader.skip(count + 1)
            out.write(f"{line}\n<{count} bytes>\n")
            continue
        out.write(line + "\n")
        if line == "OK" or line.startswith("ACK "):
            return


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("lines", nargs="*")
    options = parser.parse_args()
    out = sys.stdout
    try:
        connection = socket.create_connection((options.host, options.port), timeout=options.timeout)
        reader = Reader(connection)
        out.write(reader.line() + "\n")
        lines = list(options.lines)
        if os.environ.get("MPD_PASSWORD"):
            connection.sendall(f'password "{os.environ["MPD_PASSWORD"]}"\n'.encode())
            reply = reader.line()
            if reply != "OK":
                out.write(reply + "\n")
                return 1
        in_list = False
        for line in lines:
            connection.sendall(line.encode() + b"\n")
            if line in ("command_list_begin", "command_list_ok_begin"):
                in_list = True
            elif line == "command_list_end":
                in_list = False
            if not in_list and line != "noidle":
                answer(reader, out)
        out.flush()
        connection.close()
    except (OSError, EOFError) as error:
        out.flush()
        print(f"mpd_raw.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
