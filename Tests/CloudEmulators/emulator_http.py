"""What the cloud emulators share (yandex_disk.py, dropbox.py, onedrive.py, google_drive.py): a request
handler that answers JSON or text, records every exchange for the tests' /_control/log, applies
the tests' POST /_control changes to the emulator's state, hands out short-lived download links
and serves a file's bytes with Range as RFC 9110 §14 says (206 + Content-Range, 416 past the end)."""
import json, secrets, threading, time, urllib.parse
from http.server import BaseHTTPRequestHandler

lock = threading.RLock()


class EmulatorHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: with Nagle's algorithm the body would wait for the
    # client's delayed ACK of the headers (40 ms on Linux) — a delay no real service has.
    disable_nagle_algorithm = True
    server_kind = "api"
    state = {"log": []}  # each emulator sets its own (with a "log" list)
    control_queues = ("busy",)  # the /_control keys whose lists are appended to

    def log_message(self, *a):
        pass

    def do_GET(self):
        """GET /_control/log: the exchanges so far; else the emulator's `on_get(url, query)`."""
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/_control/log":
            return self.send_log()
        self.on_get(url, {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()})

    def do_POST(self):
        """POST /_control: a JSON object of changes (`control`); else the emulator's `on_post(url)`."""
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/_control":
            length = int(self.headers.get("Content-Length") or 0)
            self.control(json.loads(self.rfile.read(length) or b"{}"))
            return self.send(200, {"ok": True})
        self.on_post(url)

    def control(self, change):
        apply_control(self.state, change, self.control_queues)

    def details(self):
        """More fields of a logged exchange (an emulator's own)."""
        return {}

    def record(self, status, sent):
        entry = {"host": self.server_kind, "method": self.command, "path": self.path, "status": status, "bytes": sent,
                 "range": self.headers.get("Range"), "authorized": self.headers.get("Authorization") is not None}
        entry.update(self.details())
        with lock:
            self.state["log"].append(entry)

    def send(self, status, body=b"", headers=None, content_type="application/json; charset=utf-8"):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.record(status, len(body) if self.command != "HEAD" else 0)

    def send_log(self):
        with lock:
            entries = list(self.state["log"])
        self.send(200, entries)

    def link_refused(self, link):
        """Whether a download link was answered already, as its host answers before the bytes: 403
        where the test forbids its path (`forbid_download`), `link_status` once it has expired."""
        with lock:
            forbid, expired_status = self.state["forbid_download"], self.state["link_status"]
        if forbid and forbid in link["path"]:
            self.send(403, "<html><body>Forbidden</body></html>", content_type="text/html")
            return True
        if link["expires"] < time.monotonic():
            self.send(expired_status, "<html><body>Link expired</body></html>", content_type="text/html")
            return True
        return False

    def send_file(self, full, size, headers, content_type):
        """The file's bytes, a Range of them (206) or all (200); 416 for a range past the end [RFC 9110 §14]."""
        start, end, status = 0, size - 1, 200
        wanted = self.headers.get("Range")
        if wanted and wanted.startswith("bytes="):
            first, _, last = wanted[6:].split(",")[0].partition("-")
            if first == "":
                start = max(0, size - int(last))
            else:
                start = int(first)
                end = min(size - 1, int(last)) if last else size - 1
            if start >= size:
                return self.send(416, "", {"Content-Range": "bytes */%d" % size}, content_type="text/plain")
            status = 206
        length = end - start + 1
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(length))
        self.send_header("Accept-Ranges", "bytes")
        for k, v in headers.items():
            self.send_header(k, v)
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        sent = 0
        rate = self.state.get("download_rate")  # bytes/s: a test's slow network (a control)
        try:
            with open(full, "rb") as f:
                f.seek(start)
                while sent < length:
                    chunk = f.read(min(16384 if rate else 65536, length - sent))
                    if not chunk:
                        break
                    self.wfile.write(chunk)
                    sent += len(chunk)
                    if rate:
                        self.wfile.flush()
                        time.sleep(len(chunk) / rate)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.record(status, sent)


def apply_control(state, change, queues=("busy",)):
    """A test's /_control change: `queues` are appended to, `revoke_refresh` revokes every refresh
    token, `expire_access` ends every access token, `expire_links` ends every download link given
    so far, `clear_log` empties the log, any other key is set."""
    with lock:
        for key, value in change.items():
            if key in queues:
                state[key].extend(value)
            elif key == "revoke_refresh":
                for token in state["refresh"]:
                    state["refresh"][token] = False
            elif key == "clear_log":
                state["log"].clear()
            elif key == "expire_access":
                for token in state["access"]:
                    state["access"][token] = 0
            elif key == "expire_links":
                for link in state["links"].values():
                    link["expires"] = 0
            else:
                state[key] = value


def new_link(state, path):
    """A download link's secret part for `path`, valid `state["link_ttl"]` seconds from now."""
    link = secrets.token_urlsafe(18)
    with lock:
        state["links"][link] = {"path": path, "expires": time.monotonic() + state["link_ttl"]}
    return link


def serve(first, *others):
    """Serves each (handler class, port) on 127.0.0.1, each in a thread of its own; the first in this one."""
    from http.server import ThreadingHTTPServer
    ThreadingHTTPServer.daemon_threads = True
    servers = [ThreadingHTTPServer(("127.0.0.1", port), handler) for handler, port in (first,) + others]
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    servers[0].serve_forever()


def arguments(second_port, client_id):
    """The options every emulator takes: its folder, its two ports (the API's and `second_port`'s),
    the tokens accepted for ever (a config file's), the OAuth client id."""
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--api-port", type=int, required=True)
    parser.add_argument("--%s-port" % second_port, type=int, required=True)
    parser.add_argument("--token", action="append", default=[])
    parser.add_argument("--client-id", default=client_id)
    return parser


def s256(verifier):
    """A PKCE verifier's S256 challenge [RFC 7636 §4.2], to check the verifier against [§4.6]."""
    import base64, hashlib
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def mint(state, access_prefix, refresh_prefix=None):
    """A new access token, valid `state["access_ttl"]` seconds from now, and with `refresh_prefix` a
    new refresh token [RFC 6749 §5.1]: (access token, expires_in, refresh token or None)."""
    access = access_prefix + secrets.token_urlsafe(18)
    refresh = refresh_prefix + secrets.token_urlsafe(18) if refresh_prefix else None
    with lock:
        state["access"][access] = time.monotonic() + state["access_ttl"]
        if refresh:
            state["refresh"][refresh] = True
        ttl = state["access_ttl"]
    return access, int(ttl), refresh
