#!/usr/bin/env python3
"""bench/library's WebDAV server: a synthetic library of FOLDERS x PER_FOLDER tagged MP3 files,
made up on the fly (nothing on disk). Each file is an ID3v2.3 tag (title, artist, album, track)
in front of a real LAME Info frame patched to say 4 minutes, then real 128 kbit/s frames, to
4 MB. It answers PROPFIND Depth 0/1 and ranged GETs with Basic auth, on 127.0.0.1 only, counts
the body bytes it sends (GET /__stats), and exits when its parent goes away.

usage: library-server.py TEMPLATE.mp3 FOLDERS PER_FOLDER USER PASSWORD PORTFILE
"""
import base64, json, os, struct, sys, threading

import library_tags
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, unquote

template, folders, per_folder, user, password, portfile = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
SIZE = 4_000_000
SECONDS = 240
auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

data = open(template, "rb").read()
first_len = 417 if data[2] & 0x02 == 0 else 418  # 128 kbit/s at 44.1 kHz, padding bit
info = bytearray(data[:first_len])
marker = info.find(b"Info") if info.find(b"Info") >= 0 else info.find(b"Xing")
assert marker > 0, "the template has no Info/Xing header"
frames = SECONDS * 44100 // 1152
struct.pack_into(">I", info, marker + 8, frames)           # frame count (flag bit 0)
struct.pack_into(">I", info, marker + 12, SIZE)            # byte count (flag bit 1)
audio = data[first_len:]
audio = audio[: len(audio) - len(audio) % 1] or b"\0"

def tag(n):
    return library_tags.id3v2(n, per_folder)

def content(n, start, end):
    head = tag(n) + bytes(info)
    out = bytearray()
    if start < len(head):
        out += head[start:min(end, len(head))]
        start = len(head)
    while start < end:
        offset = (start - len(head)) % len(audio)
        piece = audio[offset:offset + (end - start)]
        out += piece
        start += len(piece)
    return bytes(out)

stats = {"get_bytes": 0, "gets": 0, "propfinds": 0}
lock = threading.Lock()

def folder_path(a):
    return f"/music/{library_tags.folder(a * per_folder, per_folder)}/"

def response(href, folder, length=None, etag=None):
    props = "<d:resourcetype><d:collection/></d:resourcetype>" if folder else (
        f"<d:resourcetype/><d:getcontentlength>{length}</d:getcontentlength><d:getetag>{etag}</d:getetag>"
        "<d:getlastmodified>Sun, 01 Nov 2026 10:00:00 GMT</d:getlastmodified><d:getcontenttype>audio/mpeg</d:getcontenttype>")
    return f"<d:response><d:href>{quote(href)}</d:href><d:propstat><d:prop>{props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def authorized(self):
        if self.headers.get("Authorization") == auth:
            return True
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="bench"')
        self.send_header("Content-Length", "0")
        self.end_headers()
        return False

    def track(self, path):
        parts = [p for p in unquote(path).split("/") if p]
        if len(parts) != 4 or parts[0] != "music" or not parts[3].endswith(".mp3"):
            return None
        try:
            a, t = int(parts[2].split()[1]), int(parts[3][:3]) - 1
        except (ValueError, IndexError):
            return None
        if not (0 <= a < folders and 0 <= t < per_folder) or parts[1] != f"Artist {a // 10:03d}":
            return None
        return a * per_folder + t

    def do_PROPFIND(self):
        if not self.authorized():
            return
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with lock:
            stats["propfinds"] += 1
        path = unquote(self.path)
        depth = self.headers.get("Depth", "1")
        parts = [p for p in path.split("/") if p]
        items = []
        if parts == ["music"]:
            items.append(response("/music/", True))
            if depth != "0":
                items += [response(f"/music/Artist {b:03d}/", True) for b in range((folders + 9) // 10)]
        elif len(parts) == 2 and parts[0] == "music":
            items.append(response(path, True))
            b = int(parts[1].split()[1])
            if depth != "0":
                items += [response(folder_path(a), True) for a in range(b * 10, min(folders, b * 10 + 10))]
        elif len(parts) == 3 and parts[0] == "music":
            a = int(parts[2].split()[1])
            items.append(response(path, True))
            if depth != "0":
                items += [response(folder_path(a) + f"{t + 1:03d} Song.mp3", False, SIZE, f'"t{a * per_folder + t}"')
                          for t in range(per_folder)]
        else:
            n = self.track(path)
            if n is None:
                self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
            items.append(response(path, False, SIZE, f'"t{n}"'))
        body = ('<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">' + "".join(items) + "</d:multistatus>").encode()
        self.send_response(207)
        self.send_header("Content-Type", "application/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET(head=True)

    def do_GET(self, head=False):
        if self.path == "/__stats":
            body = json.dumps(stats).encode()
            self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
            return
        if not self.authorized():
            return
        n = self.track(self.path)
        if n is None:
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        start, end, status = 0, SIZE, 200
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            first, _, last = rng[6:].partition("-")
            if first:
                start, end = int(first), (int(last) + 1 if last else SIZE)
            else:
                start, end = SIZE - int(last), SIZE
            end = min(end, SIZE)
            status = 206
        body = b"" if head else content(n, start, end)
        self.send_response(status)
        self.send_header("Content-Length", str(end - start))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", f'"t{n}"')
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{SIZE}")
        self.end_headers()
        if not head:
            self.wfile.write(body)
            with lock:
                stats["get_bytes"] += len(body)
                stats["gets"] += 1

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(portfile, "w") as f:
    f.write(str(server.server_address[1]))
parent = os.getppid()
def watch():
    import time
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)
threading.Thread(target=watch, daemon=True).start()
server.serve_forever()
