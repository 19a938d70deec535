#!/usr/bin/env python3
"""A logging TCP proxy for the MPD protocol: it listens on 127.0.0.1, forwards every connection to
an MPD server, and writes each line a client sends to a log, one line per client line:

    <seconds since start> <connection number> C: <line>
    <seconds since start> <connection number> S: <first line of an answer> (+N lines, M bytes)

so a client's traffic can be read in order, per connection. Answers are summarised (their first
line and their size): the point is what clients *send*. Binary answers (albumart, readpicture)
are counted, not decoded.

    mpd_log_proxy.py --listen PORT --to HOST:PORT --log FILE [--ready FILE] [--answers]

--listen 0 picks a free port; the port taken is written to --ready (a file that appears only once
the proxy listens, so a test waits for that file, not for a duration). --answers logs every answer
line too. The proxy stops by itself when its parent process ends (it polls its parent pid, whose
change means the parent is gone) or when its standard input closes if --stdin-lifeline is given.
"""
import argparse
import os
import selectors
import socket
import sys
import threading
import time

START = time.monotonic()
log_lock = threading.Lock()


def write_log(handle, connection, direction, text):
    with log_lock:
        handle.write(f"{time.monotonic() - START:9.3f} {connection} {direction}: {text}\n")
        handle.flush()


def printable(raw):
    return raw.decode("utf-8", "backslashreplace")


class Session(threading.Thread):
    """One client connection and its connection to the server, forwarded both ways."""

    def __init__(self, number, client, target, log, answers):
        super().__init__(daemon=True)
        self.number, self.client, self.target, self.log, self.answers = number, client, target, log, answers

    def run(self):
        try:
            server = socket.create_connection(self.target)
        except OSError as error:
            write_log(self.log, self.number, "!", f"cannot reach the server: {error}")
            self.client.close()
            return
        write_log(self.log, self.number, "+", "connected")
        from_client, from_server = b"", b""
        pending_binary = 0          # bytes of a binary answer still to pass through unlogged
        answer_lines, answer_bytes, answer_first = 0, 0, None
        selector = selectors.DefaultSelector()
        selector.register(self.client, selectors.EVENT_READ, "client")
        selector.register(server, selectors.EVENT_READ, "server")
        try:
            while True:
                for key, _ in selector.select():
                    data = key.fileobj.recv(65536)
                    if not data:
                        write_log(self.log, self.number, "-", f"closed by the {key.data}")
                        return
                    if key.data == "client":
                        server.sendall(data)
                        from_client += data
                        while b"\n" in from_client:
                            line, from_client = from_client.split(b"\n", 1)
                            write_log(self.log, self.number, "C", printable(line))
                        continue
                    self.client.sendall(data)
                    from_server += data
                    while from_server:
                        if pending_binary:
                            taken = min(pending_binary, len(from_server))
                            from_server, pending_binary = from_server[taken:], pending_binary - taken
                            answer_bytes += taken
                            continue
                        if b"\n" not in from_server:
                            break
                        line, from_server = from_server.split(b"\n", 1)
                        text = printable(line)
                        answer_lines += 1
                        answer_bytes += len(line) + 1
                        if answer_first is None:
                            answer_first = text
                        if self.answers:
                            write_log(self.log, self.number, "s", text)
                        if text.startswith("binary: "):
                            pending_binary = int(text.split()[1]) + 1   # the data and its newline
                        if text == "OK" or text.startswith("ACK ") or text.startswith("OK MPD "):
                            more = f" (+{answer_lines - 1} lines, {answer_bytes} bytes)" if answer_lines > 1 else ""
                            write_log(self.log, self.number, "S", answer_first + more)
                            answer_lines, answer_bytes, answer_first = 0, 0, None
        except OSError as error:
            write_log(self.log, self.number, "!", str(error))
        finally:
            selector.close()
            server.close()
            self.client.close()


def watch_parent(listener):
    """Ends the process once its parent is gone (it is then re-parented, so its parent pid changes)."""
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


def watch_stdin():
    """Ends the process once standard input reaches its end (the parent closed or died)."""
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", type=int, default=0)
    parser.add_argument("--to", required=True, help="HOST:PORT of the MPD server")
    parser.add_argument("--log", required=True)
    parser.add_argument("--ready")
    parser.add_argument("--answers", action="store_true", help="log every answer line too")
    parser.add_argument("--stdin-lifeline", action="store_true")
    options = parser.parse_args()
    host, _, port = options.to.rpartition(":")
    target = (host, int(port))

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", options.listen))
    listener.listen(16)
    threading.Thread(target=watch_parent, args=(listener,), daemon=True).start()
    if options.stdin_lifeline:
        threading.Thread(target=watch_stdin, daemon=True).start()
    log = open(options.log, "a", encoding="utf-8")
    if options.ready:
        temporary = options.ready + ".part"
        with open(temporary, "w") as handle:
            handle.write(f"{listener.getsockname()[1]}\n")
        os.rename(temporary, options.ready)
    number = 0
    while True:
        client, _ = listener.accept()
        number += 1
        Session(number, client, target, log, options.answers).start()


if __name__ == "__main__":
    main()
