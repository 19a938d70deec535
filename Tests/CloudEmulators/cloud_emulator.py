"""What the cloud emulators share (Tests/CloudEmulators/*.py import it): a request handler that
logs what it answered, an OAuth 2.0 authorization server's state — tokens that expire, refresh
tokens that rotate or are revoked, the device grant and the authorization code grant with PKCE —
and a file served with byte ranges. Each provider's emulator speaks its own paths and JSON around
these. No test talks to it directly.

Docs:
  [rfc6749]  https://datatracker.ietf.org/doc/html/rfc6749#section-5       (token answers; invalid_grant)
  [rfc8628]  https://datatracker.ietf.org/doc/html/rfc8628#section-3.5     (authorization_pending, slow_down, expired_token, access_denied)
  [rfc7636]  https://datatracker.ietf.org/doc/html/rfc7636#section-4.6     (S256 check of code_verifier)
  [rfc9110]  https://www.rfc-editor.org/rfc/rfc9110#section-14             (Range, 206, Content-Range, 416)
"""
import base64, hashlib, json, os, secrets, threading, time, urllib.parse
from http.server import BaseHTTPRequestHandler


class Handler(BaseHTTPRequestHandler):
    """Answers and logs each answer in `log` (host kind, method, path, status, body bytes, Range,
    whether an Authorization header came) for /_control/log."""
    protocol_version = "HTTP/1.1"
    server_kind = "api"
    log = []
    log_lock = threading.Lock()

    def log_message(self, *a):
        pass

    def record(self, status, sent, extra=None):
        entry = {"host": self.server_kind, "method": self.command, "path": self.path, "status": status, "bytes": sent,
                 "range": self.headers.get("Range"), "authorized": self.headers.get("Authorization") is not None}
        if extra:
            entry.update(extra)
        with self.log_lock:
            self.log.append(entry)

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

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        return {k: v[0] for k, v in urllib.parse.parse_qs(body).items()}

    def control(self, state, lock, authority, own=None):
        """POST /_control: a JSON object of changes — to the token authority (`revoke_refresh`,
        `expire_access`, `access_ttl`, `rotate_refresh`), the log (`clear_log`), pending 429s
        (`busy`), keys `own` takes (it returns True), else the emulator's `state`."""
        length = int(self.headers.get("Content-Length") or 0)
        for key, value in json.loads(self.rfile.read(length) or b"{}").items():
            with lock:
                if own and own(key, value):
                    continue
                if key == "busy":
                    state["busy"].extend(value)
                elif key == "revoke_refresh":
                    authority.revoke_all()
                elif key == "expire_access":
                    authority.expire_all()
                elif key == "access_ttl":
                    authority.access_ttl = value
                elif key == "rotate_refresh":
                    authority.rotate = value
                elif key == "clear_log":
                    self.clear_log()
                else:
                    state[key] = value
        self.send(200, {"ok": True})

    def do_GET(self):
        """The download host's `download()`; the API's log; else the emulator's `get(url, query)`."""
        if self.server_kind == "download":
            return self.download()
        url = urllib.parse.urlsplit(self.path)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        if url.path == "/_control/log":
            return self.send_log()
        return self.get(url, query)

    def send_log(self):
        with self.log_lock:
            entries = list(self.log)
        self.send(200, entries)

    def clear_log(self):
        with self.log_lock:
            self.log.clear()


class Authority:
    """Tokens issued and known. `permanent` tokens (a config file's) never expire."""

    def __init__(self, client_id, access_prefix, refresh_prefix, interval, device_ttl):
        self.lock = threading.RLock()
        self.client_id = client_id
        self.access_prefix, self.refresh_prefix = access_prefix, refresh_prefix
        self.interval, self.device_ttl = interval, device_ttl
        self.permanent = set()
        self.access = {}          # access token -> expiry (monotonic)
        self.refresh = {}         # refresh token -> valid (False: revoked or used)
        self.devices = {}         # device_code -> {user_code, approved, denied, expires, last_poll, interval}
        self.codes = {}           # authorization code -> {challenge, redirect_uri}
        self.access_ttl = 3600.0
        self.rotate = False       # a refresh answers with a new refresh token, the old one spent

    def valid(self, token):
        with self.lock:
            if token in self.permanent:
                return True
            expiry = self.access.get(token)
            return expiry is not None and expiry > time.monotonic()

    def issue(self, refresh=None):
        """A token answer [rfc6749 §5.1]."""
        access = self.access_prefix + secrets.token_urlsafe(18)
        refresh = refresh or (self.refresh_prefix + secrets.token_urlsafe(18))
        with self.lock:
            self.access[access] = time.monotonic() + self.access_ttl
            self.refresh[refresh] = True
            ttl = self.access_ttl
        return {"token_type": "Bearer", "access_token": access, "expires_in": int(ttl), "refresh_token": refresh}

    def revoke_all(self):
        with self.lock:
            for token in self.refresh:
                self.refresh[token] = False

    def expire_all(self):
        with self.lock:
            for token in self.access:
                self.access[token] = 0

    def new_device(self):
        """A device code and its user code [rfc8628 §3.2]."""
        device = secrets.token_hex(16)
        user = "%04d%04d" % (secrets.randbelow(10000), secrets.randbelow(10000))
        with self.lock:
            self.devices[device] = {"user_code": user, "approved": False, "denied": False, "last_poll": 0.0,
                                    "expires": time.monotonic() + self.device_ttl, "interval": self.interval}
        return device, user

    def enter(self, user_code, deny):
        """The user typed `user_code` on the verification page; whether it was known."""
        with self.lock:
            for device in self.devices.values():
                if device["user_code"] == user_code:
                    device["denied" if deny else "approved"] = True
                    return True
        return False

    def grant(self, form):
        """A token request's (status, JSON answer) for one of the three grants, as `grant_type`
        is spelled in `form["_grant"]` ('device', 'refresh_token', 'authorization_code')."""
        if form.get("client_id") != self.client_id:
            return 400, {"error": "invalid_client", "error_description": "Client not found"}
        grant = form.get("_grant")
        if grant == "device":
            return self.redeem_device(form.get("_device_code", ""))
        if grant == "refresh_token":
            token = form.get("refresh_token", "")
            with self.lock:
                valid = self.refresh.get(token, False)
                if valid and self.rotate:
                    self.refresh[token] = False
            if not valid:
                return 400, {"error": "invalid_grant", "error_description": "The refresh token is revoked or expired"}
            return 200, self.issue(None if self.rotate else token)
        if grant == "authorization_code":
            with self.lock:
                code = self.codes.pop(form.get("code", ""), None)
            verifier = form.get("code_verifier", "")
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
            if code is None or code["challenge"] != challenge or code["redirect_uri"] != form.get("redirect_uri"):
                return 400, {"error": "invalid_grant", "error_description": "Code has expired or is wrong"}
            return 200, self.issue()
        return 400, {"error": "unsupported_grant_type", "error_description": "Unsupported grant type"}

    def redeem_device(self, code):
        """[rfc8628 §3.5]: pending until approved, slow_down when polled too often."""
        with self.lock:
            device = self.devices.get(code)
            now = time.monotonic()
            if device is None:
                return 400, {"error": "invalid_grant", "error_description": "Invalid device code"}
            if device["expires"] < now:
                return 400, {"error": "expired_token", "error_description": "Device code expired"}
            if device["denied"]:
                return 400, {"error": "access_denied", "error_description": "The user refused"}
            if now - device["last_poll"] < device["interval"] * 0.8:
                device["last_poll"] = now
                return 400, {"error": "slow_down", "error_description": "Polling too often"}
            if not device["approved"]:
                device["last_poll"] = now
                return 400, {"error": "authorization_pending", "error_description": "The user has not yet entered the code"}
            del self.devices[code]
        return 200, self.issue()

    def authorize(self, query):
        """The user approves at once: (None, redirect target), or (problem, None) [rfc7636]."""
        redirect = query.get("redirect_uri", "")
        if query.get("response_type") != "code" or query.get("client_id") != self.client_id:
            return "bad authorize request", None
        if not redirect.startswith("http://127.0.0.1:") or query.get("code_challenge_method") != "S256":
            return "loopback redirect_uri and S256 required", None
        code = secrets.token_hex(8)
        with self.lock:
            self.codes[code] = {"challenge": query.get("code_challenge", ""), "redirect_uri": redirect}
        return None, redirect + ("&" if "?" in redirect else "?") + urllib.parse.urlencode({"code": code, "state": query.get("state", "")})


def serve_file(handler, full, etag, content_type="audio/mpeg"):
    """A file with Range → 206/Content-Range, 416 past the end [rfc9110]; logged."""
    size = os.path.getsize(full)
    start, end, status = 0, size - 1, 200
    wanted = handler.headers.get("Range")
    if wanted and wanted.startswith("bytes="):
        first, _, last = wanted[6:].split(",")[0].partition("-")
        if first == "":
            start = max(0, size - int(last))
        else:
            start = int(first)
            end = min(size - 1, int(last)) if last else size - 1
        if start >= size:
            return handler.send(416, "", {"Content-Range": "bytes */%d" % size}, content_type="text/plain")
        status = 206
    length = end - start + 1
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(length))
    handler.send_header("Accept-Ranges", "bytes")
    handler.send_header("ETag", etag)
    if status == 206:
        handler.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
    handler.end_headers()
    sent = 0
    try:
        with open(full, "rb") as f:
            f.seek(start)
            while sent < length:
                chunk = f.read(min(65536, length - sent))
                if not chunk:
                    break
                handler.wfile.write(chunk)
                sent += len(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass
    handler.record(status, sent)


def arguments():
    """The command line every emulator takes; an emulator adds its own before parsing."""
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--api-port", type=int, required=True)
    parser.add_argument("--download-port", type=int, required=True)
    parser.add_argument("--token", action="append", default=[])
    parser.add_argument("--client-id", default="test-client")
    parser.add_argument("--interval", type=int, default=1)
    parser.add_argument("--device-ttl", type=int, default=600)
    return parser


def authority_for(args, access_prefix, refresh_prefix):
    """The token authority of the command line's client id, device timings and permanent tokens."""
    authority = Authority(args.client_id, access_prefix, refresh_prefix, args.interval, args.device_ttl)
    authority.permanent.update(args.token)
    return authority


def serve(args, api_handler, download_handler):
    """Both listeners on 127.0.0.1, until the process is stopped."""
    from http.server import ThreadingHTTPServer
    ThreadingHTTPServer.daemon_threads = True
    api = ThreadingHTTPServer(("127.0.0.1", args.api_port), api_handler)
    download = ThreadingHTTPServer(("127.0.0.1", args.download_port), download_handler)
    threading.Thread(target=download.serve_forever, daemon=True).start()
    api.serve_forever()


def new_link(state, lock, path):
    """A download link's secret part for `path`, valid `state["link_ttl"]` seconds from now."""
    link = secrets.token_urlsafe(18)
    with lock:
        state["links"][link] = {"path": path, "expires": time.monotonic() + state["link_ttl"]}
    return link


def listed(full, path, start, count, describe):
    """`count` items of a folder from `start` on, by name, described; and how many it holds."""
    names = sorted(os.listdir(full))
    return [describe(path.rstrip("/") + "/" + n, os.path.join(full, n)) for n in names[start:start + count]], len(names)
