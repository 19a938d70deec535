"""An internet-radio station for the live-stream tests: serves one audio file as an endless (or
once-through) live stream the way SHOUTcast and Icecast do, on 127.0.0.1 only, plus the ways
real stations go wrong. Python's standard library only.

The answer: `HTTP/1.0 200 OK` (or SHOUTcast's `ICY 200 OK`), no Content-Length (the stream ends
when the connection closes), Content-Type, icy-name / icy-genre / icy-url / icy-br / icy-pub.
A request with `Icy-MetaData: 1` gets `icy-metaint: N` and, after every N audio bytes, one
metadata block: a length byte L, then L x 16 bytes, `StreamTitle='...';` padded with NULs; L is
0 when the title did not change since the last block on this connection.

  icy_stream.py --port-file F --file AUDIO [options]

Options (offsets are bytes of the audio file; fault thresholds count this connection's audio bytes):
  --port P             listen on P (default 0: a free one); the port is written to --port-file,
                       complete (written to F.tmp, then renamed), once the socket listens
  --path /stream       serve only this path (others: 404 text/html); default: every path
  --content-type T     default audio/mpeg
  --name, --genre, --url, --bitrate KBPS    icy-name, icy-genre, icy-url, icy-br; the bitrate also paces
  --icy-status         answer `ICY 200 OK` instead of `HTTP/1.0 200 OK`
  --status LINE        this status line as it is (`ICY 401 Service Unavailable`, or garbage)
  --endless-head       after the status line, header lines without end (never the blank line)
  --plain              no icy- header and no metadata at all: a plain server sending a file without a length
  --metaint N          the icy-metaint header as given (default 16000); blocks are inserted every N
                       audio bytes when N is a whole number > 0, so "0", "-5", "abc" or
                       "99999999999" go out as they are and no block is ever reached
  --always-metadata    insert blocks (and send icy-metaint) even when the request did not ask
  --title OFFSET:TEXT  from audio byte OFFSET of the file on, the title is TEXT (repeatable)
  --title-hex OFFSET:HEX   the same with the title's raw bytes (invalid UTF-8, say)
  --title-encoding E   how --title text becomes bytes: utf-8 (default) or latin-1
  --header-encoding E  how the answer's head (icy-name, say) becomes bytes: utf-8 (default) or latin-1
  --overlong-at OFFSET the first block at or after OFFSET has a length byte of 255 (4080 bytes)
                       but only its StreamTitle follows; then the connection is closed, or, with
  --overlong-continues the audio goes on right after it (the client's block swallows audio)
  --pace realtime|fast|N   realtime by --bitrate (the default), as fast as the socket takes, or N x
  --burst BYTES        send this much audio at once before pacing starts (Icecast's burst-on-connect)
  --loop               start the file again at its end (endless); else close the connection there
  --stall-after K      after K audio bytes send nothing more, keep the connection open
  --trickle-after K --trickle-every S   after K audio bytes, send one byte every S seconds
  --never-answer       accept and read the request, answer nothing, keep the connection open
  --drop-after K       close the connection after K audio bytes; `--drops N` only the first N
  --drops N            connections so (default: every one)
  --drop-reset         drop with a TCP reset rather than an orderly close
  --resume             a connection after a dropped one starts where that one stopped, not at 0
  --log FILE           one JSON line per request, written before it is answered:
                       {"n": 1, "method": "GET", "path": "/", "headers": [[name, value], ...],
                        "start": audio offset it starts at}

It ends when its parent ends (PR_SET_PDEATHSIG; the tests start it under a watchdog shell that
stops it when the test process ends, however that ends) and on SIGTERM.
"""
import argparse, json, os, signal, socket, socketserver, struct, sys, threading, time

from parent_bound import end_with_parent

MAX_BLOCK = 255 * 16


def parse_args(argv):
    parser = argparse.ArgumentParser(description="an ICY/SHOUTcast-style live stream on 127.0.0.1")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--path")
    parser.add_argument("--content-type", default="audio/mpeg")
    parser.add_argument("--name")
    parser.add_argument("--genre")
    parser.add_argument("--url")
    parser.add_argument("--bitrate", type=int, default=128)
    parser.add_argument("--icy-status", action="store_true")
    parser.add_argument("--status")
    parser.add_argument("--endless-head", action="store_true")
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--metaint", default="16000")
    parser.add_argument("--always-metadata", action="store_true")
    parser.add_argument("--title", action="append", default=[])
    parser.add_argument("--title-hex", action="append", default=[])
    parser.add_argument("--title-encoding", default="utf-8", choices=["utf-8", "latin-1"])
    parser.add_argument("--header-encoding", default="utf-8", choices=["utf-8", "latin-1"])
    parser.add_argument("--overlong-at", type=int)
    parser.add_argument("--overlong-continues", action="store_true")
    parser.add_argument("--pace", default="realtime")
    parser.add_argument("--burst", type=int, default=0)
    parser.add_argument("--loop", action="store_true")
    parser.add_argument("--stall-after", type=int)
    parser.add_argument("--trickle-after", type=int)
    parser.add_argument("--trickle-every", type=float, default=1.0)
    parser.add_argument("--never-answer", action="store_true")
    parser.add_argument("--drop-after", type=int)
    parser.add_argument("--drops", type=int, default=0)
    parser.add_argument("--drop-reset", action="store_true")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--log")
    args = parser.parse_args(argv)
    titles = []
    for entry in args.title:
        offset, _, text = entry.partition(":")
        titles.append((int(offset), text.encode(args.title_encoding)))
    for entry in args.title_hex:
        offset, _, hexbytes = entry.partition(":")
        titles.append((int(offset), bytes.fromhex(hexbytes)))
    args.titles = sorted(titles, key=lambda pair: pair[0])
    try:
        interval = int(args.metaint)
    except ValueError:
        interval = 0
    args.interval = interval if 0 < interval < 1 << 40 else 0
    if args.pace == "realtime":
        args.speed = 1.0
    elif args.pace == "fast":
        args.speed = None
    else:
        args.speed = float(args.pace)
    return args


class Station:
    """What the connections share: the file, the options, the log, and where a dropped
    connection stopped (for --resume)."""

    def __init__(self, args):
        self.args = args
        with open(args.file, "rb") as file:
            self.audio = file.read()
        if not self.audio:
            raise SystemExit("icy_stream.py: %s is empty" % args.file)
        self.lock = threading.Lock()
        self.requests = 0
        self.drops = 0
        self.resume_at = 0

    def title_at(self, offset):
        """The title scheduled for the audio from file offset `offset` on, or None."""
        title = None
        for start, text in self.args.titles:
            if start <= offset:
                title = text
        return title

    def log(self, entry):
        if not self.args.log:
            return
        with self.lock:
            with open(self.args.log, "a", encoding="utf-8") as file:
                file.write(json.dumps(entry) + "\n")
                file.flush()

    def take_drop(self):
        """Whether this connection is one that drops (`--drops` counts them)."""
        if self.args.drop_after is None:
            return False
        with self.lock:
            if self.args.drops and self.drops >= self.args.drops:
                return False
            self.drops += 1
            return True


def wait_for_close(sock):
    """Keeps a connection open, silent, until the client closes it."""
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass


class Closed(Exception):
    """The client went away, or this connection's fault closes it."""


class Connection(socketserver.BaseRequestHandler):
    station = None  # set by main

    def handle(self):
        station, args = self.station, self.station.args
        sock = self.request
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        head = self.read_head(sock)
        if head is None:
            return
        method, path, headers = head
        with station.lock:
            station.requests += 1
            number = station.requests
            start = station.resume_at if args.resume else 0
        station.log({"n": number, "method": method, "path": path, "headers": headers, "start": start})
        if args.never_answer:
            return wait_for_close(sock)
        if args.path and path.split("?")[0] != args.path:
            body = b"<html><body>Not found</body></html>"
            sock.sendall(b"HTTP/1.0 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            return
        if args.endless_head:
            return self.endless_head(sock)
        asked = any(name.lower() == "icy-metadata" and value.strip() == "1" for name, value in headers)
        with_metadata = (asked or args.always_metadata) and not args.plain
        sock.sendall(self.answer_head(with_metadata))
        if method == "HEAD":
            return
        drops = station.take_drop()
        sender = Sender(sock, args)
        try:
            self.stream(sender, start, with_metadata, drops)
        except Closed:
            pass
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            pass
        finally:
            if drops and args.resume:
                with station.lock:
                    station.resume_at = sender.position
        if sender.stalled:
            wait_for_close(sock)
        elif drops and args.drop_reset:
            # l_onoff 1, l_linger 0: close sends a reset. Closed here, before socketserver's own
            # shutdown(SHUT_WR) would send an orderly FIN first.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()

    def read_head(self, sock):
        """The request line and headers (as sent, in order), or None if the client left first."""
        data = b""
        while b"\r\n\r\n" not in data and b"\n\n" not in data:
            try:
                chunk = sock.recv(4096)
            except OSError:
                return None
            if not chunk:
                return None
            data += chunk
            if len(data) > 65536:
                return None
        lines = data.replace(b"\r\n", b"\n").split(b"\n\n")[0].split(b"\n")
        request = lines[0].decode("latin-1").split()
        method, path = (request + ["", ""])[:2]
        headers = []
        for line in lines[1:]:
            name, _, value = line.decode("latin-1").partition(":")
            headers.append([name.strip(), value.strip()])
        return method, path, headers

    def status_line(self):
        args = self.station.args
        return args.status or ("ICY 200 OK" if args.icy_status else "HTTP/1.0 200 OK")

    def endless_head(self, sock):
        """The status line, then header lines until the client leaves."""
        try:
            sock.sendall((self.status_line() + "\r\n").encode())
            number = 0
            while True:
                number += 1
                sock.sendall(b"icy-notice%d: %s\r\n" % (number, b"x" * 100))
        except OSError:
            pass

    def answer_head(self, with_metadata):
        args = self.station.args
        lines = [self.status_line(), "Content-Type: " + args.content_type]
        if args.plain:
            return ("\r\n".join(lines) + "\r\n\r\n").encode(args.header_encoding)
        for name, value in (("icy-name", args.name), ("icy-genre", args.genre), ("icy-url", args.url)):
            if value is not None:
                lines.append("%s: %s" % (name, value))
        lines += ["icy-br: %d" % args.bitrate, "icy-pub: 0", "Cache-Control: no-cache"]
        if with_metadata:
            lines.append("icy-metaint: " + args.metaint)
        return ("\r\n".join(lines) + "\r\n\r\n").encode(args.header_encoding)

    def stream(self, sender, start, with_metadata, drops):
        """The audio from file offset `start`, with metadata blocks every `interval` bytes."""
        station, args = self.station, self.station.args
        audio = station.audio
        interval = args.interval if with_metadata else 0
        sender.position = start
        until_block = interval
        last_title = None
        overlong_sent = False
        while True:
            if sender.position >= len(audio):
                if not args.loop:
                    return
                sender.position = 0
            limit = len(audio) - sender.position
            if interval:
                limit = min(limit, until_block)
            for threshold in (args.stall_after, args.trickle_after, args.drop_after if drops else None):
                if threshold is not None and sender.sent < threshold:
                    limit = min(limit, threshold - sender.sent)
            sender.audio(audio[sender.position:sender.position + limit])
            if drops and sender.sent >= args.drop_after:
                raise Closed()
            if interval:
                until_block -= limit
                if until_block == 0:
                    until_block = interval
                    title = station.title_at(sender.position % len(audio))
                    if args.overlong_at is not None and not overlong_sent and sender.position >= args.overlong_at:
                        overlong_sent = True
                        text = b"StreamTitle='" + (title or b"") + b"';"
                        sender.metadata(bytes([255]) + text[:MAX_BLOCK])
                        if not args.overlong_continues:
                            raise Closed()
                        last_title = title
                        continue
                    if title is None or title == last_title:
                        sender.metadata(b"\x00")
                    else:
                        last_title = title
                        text = (b"StreamTitle='" + title + b"';")[:MAX_BLOCK]
                        blocks = (len(text) + 15) // 16
                        sender.metadata(bytes([blocks]) + text + b"\x00" * (blocks * 16 - len(text)))


class Sender:
    """Writes a connection's bytes: audio paced by the bitrate (after the burst), metadata as it
    comes, and the stall and trickle faults. `position` is the file offset of the next audio
    byte, `sent` the audio bytes this connection sent."""

    def __init__(self, sock, args):
        self.sock, self.args = sock, args
        self.position = 0
        self.sent = 0
        self.stalled = False
        self.began = time.monotonic()
        self.rate = args.bitrate * 1000 / 8 * args.speed if args.speed else None

    def audio(self, data):
        offset = 0
        while offset < len(data):
            size = len(data) - offset
            if self.rate is not None and self.sent >= self.args.burst:
                size = min(size, max(1, int(self.rate / 20)))
            elif self.rate is not None:
                size = min(size, self.args.burst - self.sent)
            self.write(data[offset:offset + size])
            offset += size
            self.position += size
            self.sent += size
            self.pace()

    def metadata(self, data):
        self.write(data)

    def write(self, data):
        args = self.args
        if args.stall_after is not None and self.sent >= args.stall_after:
            self.stalled = True
            raise Closed()
        if args.trickle_after is not None and self.sent >= args.trickle_after:
            for index in range(len(data)):
                self.sock.sendall(data[index:index + 1])
                time.sleep(args.trickle_every)
            return
        self.sock.sendall(data)

    def pace(self):
        """Sleeps until the audio sent so far is due (real time, or N x) after the burst."""
        if self.rate is None or self.sent <= self.args.burst:
            return
        due = self.began + (self.sent - self.args.burst) / self.rate
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def main():
    args = parse_args(sys.argv[1:])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    end_with_parent()
    Connection.station = Station(args)
    server = Server(("127.0.0.1", args.port), Connection)
    with open(args.port_file + ".tmp", "w") as file:
        file.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
