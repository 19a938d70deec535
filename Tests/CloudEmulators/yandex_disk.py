#!/usr/bin/env python3
"""A local Yandex.Disk REST API and Yandex OAuth, for tests (no internet here).

Two listeners on 127.0.0.1: the API + OAuth port, and the "download host" that the download
links (href) point at. Files are a real folder (--root). Each behaviour notes the public
documentation page it follows. Tests steer it through /_control (JSON), which the real
service does not have.

Docs:
  [meta]     https://yandex.com/dev/disk-api/doc/en/reference/meta          (GET /v1/disk/resources, _embedded, limit/offset)
  [content]  https://yandex.com/dev/disk-api/doc/en/reference/content       (GET /v1/disk/resources/download -> Link {href, method, templated};
                                                                              download "using the same OAuth token")
  [errors]   https://yandex.com/dev/disk-api/doc/en/reference/response-objects  (Error {message, description, error})
  [oauth]    https://yandex.com/dev/disk-api/doc/en/concepts/quickstart     (Authorization: OAuth <token>)
  [device]   https://yandex.com/dev/id/doc/en/codes/screen-code-oauth       (POST /device/code; POST /token grant_type=device_code)
  [code]     https://yandex.com/dev/id/doc/en/codes/code-url                (GET /authorize, PKCE code_challenge S256; POST /token
                                                                              grant_type=authorization_code)
  [refresh]  https://yandex.com/dev/id/doc/en/tokens/refresh-client         (POST /token grant_type=refresh_token)
  [rfc8628]  https://datatracker.ietf.org/doc/html/rfc8628#section-3.5      (authorization_pending, slow_down, expired_token, access_denied)
  [rfc7636]  https://datatracker.ietf.org/doc/html/rfc7636#section-4.6      (S256 check of code_verifier)
  [rfc9110]  https://www.rfc-editor.org/rfc/rfc9110#section-14              (Range, 206, Content-Range, 416; Retry-After §10.2.3)
"""
import hashlib, os, secrets, sys, time, urllib.parse
from emulator_http import EmulatorHandler, arguments, lock, mint, new_link, s256, serve

state = {
    "permanent": set(),        # tokens given in the config file: never expire
    "access": {},              # access token -> expiry (monotonic)
    "refresh": {},             # refresh token -> valid (False: revoked)
    "devices": {},             # device_code -> {user_code, approved, denied, expires, last_poll, interval}
    "codes": {},               # authorization code -> {challenge, redirect_uri}
    "links": {},               # link id -> {path, expires}
    "access_ttl": 3600.0,
    "link_ttl": 3600.0,
    "link_status": 410,        # what an expired link answers (410 Gone, or 403)
    "busy": [],                # pending 429s: [retry_after, ...] for the next API calls
    "bad_json": None,          # API answers about paths containing this are broken JSON
    "html_href": False,        # download links answer an HTML page
    "forbid": None,            # API calls about paths containing this answer 403 ForbiddenError [errors]
    "forbid_download": None,   # links to paths containing this answer 403 on the download host
    "rotate_refresh": False,   # a refresh answers with a new refresh token (Microsoft does; Yandex may)
    "log": [],
}
args = None


def disk_path(text):
    """A request's path ("disk:/a", "/a", "a") as the API spells it, and the file it names."""
    text = text or "/"
    if text.startswith("disk:"):
        text = text[5:]
    if not text.startswith("/"):
        text = "/" + text
    norm = os.path.normpath(text)
    if norm.startswith("//"):
        norm = norm[1:]
    full = os.path.join(args.root, norm.lstrip("/"))
    if not os.path.realpath(full).startswith(os.path.realpath(args.root)):
        return None, None
    return "disk:" + norm, full


hash_cache = {}


def hashes(full):
    st = os.stat(full)
    key = (full, st.st_mtime_ns, st.st_size)
    if key not in hash_cache:
        data = open(full, "rb").read()
        hash_cache[key] = (hashlib.md5(data).hexdigest(), hashlib.sha256(data).hexdigest())
    return hash_cache[key]


def describe(path, full):
    """A Resource object [meta]."""
    name = os.path.basename(full.rstrip("/")) or "disk"
    if os.path.isdir(full):
        return {"name": name, "path": path, "type": "dir", "resource_id": "1:" + path}
    md5, sha = hashes(full)
    st = os.stat(full)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(st.st_mtime))
    return {"name": name, "path": path, "type": "file", "size": st.st_size, "md5": md5, "sha256": sha,
            "mime_type": "audio/mpeg", "created": stamp, "modified": stamp, "resource_id": "1:" + path}


def token_ok(header):
    """Authorization: OAuth <token> [oauth]; an issued token lasts access_ttl seconds."""
    if not header or not header.startswith("OAuth "):
        return False
    token = header[6:].strip()
    with lock:
        if token in state["permanent"]:
            return True
        expiry = state["access"].get(token)
        return expiry is not None and expiry > time.monotonic()


def issue(with_refresh=None):
    """A token answer [device], [code], [refresh]."""
    access, ttl, minted = mint(state, "AQ-acc-", None if with_refresh else "1:rt-")
    return {"token_type": "bearer", "access_token": access, "expires_in": ttl, "refresh_token": with_refresh or minted}

class Handler(EmulatorHandler):
    state = state

    def error(self, status, error, description, message=None, headers=None):
        """An Error object [errors]."""
        self.send(status, {"message": message or description, "description": description, "error": error}, headers)

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        return {k: v[0] for k, v in urllib.parse.parse_qs(body).items()}

    # ---- API + OAuth ----

    def on_get(self, url, query):
        if self.server_kind == "download":
            return self.download(url)
        if url.path == "/authorize":
            return self.authorize(query)
        if url.path == "/device":
            return self.approve_device(query)
        if not url.path.startswith("/v1/disk/"):
            return self.error(404, "NotFoundError", "Not found.")
        if not token_ok(self.headers.get("Authorization")):
            return self.error(401, "UnauthorizedError", "Unauthorized", "Не авторизован.")
        with lock:
            busy = state["busy"].pop(0) if state["busy"] else None
        if busy is not None:
            # 429 with Retry-After [errors] [rfc9110 §10.2.3]
            return self.error(429, "TooManyRequestsError", "Too Many Requests", headers={"Retry-After": str(busy)})
        path, full = disk_path(query.get("path"))
        if path is None or not os.path.exists(full):
            return self.error(404, "DiskNotFoundError", "Resource not found.", "Не удалось найти запрошенный ресурс.")
        with lock:
            bad = state["bad_json"]
            forbid = state["forbid"]
        if forbid and forbid in path:
            return self.error(403, "ForbiddenError", "Forbidden.", "Доступ запрещён.")
        if bad and bad in path:
            return self.send(200, '{"_embedded": {"items": [{"name": 42,')
        if url.path == "/v1/disk/resources":
            return self.meta(path, full, query)
        if url.path == "/v1/disk/resources/download":
            return self.download_link(path, full)
        return self.error(404, "NotFoundError", "Not found.")

    def meta(self, path, full, query):
        """A resource, and a folder's items one page at a time [meta]: limit (default 20), offset."""
        resource = describe(path, full)
        if resource["type"] == "dir":
            limit = int(query.get("limit", "20"))
            offset = int(query.get("offset", "0"))
            names = sorted(os.listdir(full))
            items = [describe(path.rstrip("/") + "/" + n, os.path.join(full, n)) for n in names[offset:offset + limit]]
            resource["_embedded"] = {"items": items, "limit": limit, "offset": offset, "total": len(names),
                                     "path": path, "sort": query.get("sort", "")}
        self.send(200, resource)

    def download_link(self, path, full):
        """A Link {href, method, templated} on the download host, valid for link_ttl seconds [content]."""
        if os.path.isdir(full):
            return self.error(400, "FieldValidationError", "Is a directory.")
        link = new_link(state, path)
        base = args.download_base or "http://127.0.0.1:%d" % args.download_port
        name = urllib.parse.quote(os.path.basename(full))
        self.send(200, {"href": "%s/disk/%s?filename=%s&disposition=attachment" % (base, link, name),
                        "method": "GET", "templated": False})

    def authorize(self, query):
        """The user approves at once: 302 to redirect_uri with code and state [code]; PKCE S256 kept [rfc7636]."""
        redirect = query.get("redirect_uri", "")
        if query.get("response_type") != "code" or query.get("client_id") != args.client_id:
            return self.send(400, "bad authorize request", content_type="text/plain")
        if not redirect.startswith("http://127.0.0.1:") or query.get("code_challenge_method") != "S256":
            return self.send(400, "loopback redirect_uri and S256 required", content_type="text/plain")
        code = secrets.token_hex(8)
        with lock:
            state["codes"][code] = {"challenge": query.get("code_challenge", ""), "redirect_uri": redirect}
        target = redirect + ("&" if "?" in redirect else "?") + urllib.parse.urlencode({"code": code, "state": query.get("state", "")})
        self.send(302, "", {"Location": target}, content_type="text/plain")

    def approve_device(self, query):
        """The user enters user_code on the verification page [device]; deny=1 refuses."""
        code = query.get("user_code", "")
        with lock:
            for device in state["devices"].values():
                if device["user_code"] == code:
                    device["denied" if query.get("deny") else "approved"] = True
                    found = True
                    break
            else:
                found = False
        self.send(200 if found else 404, "ok" if found else "no such code", content_type="text/plain")

    def on_post(self, url):
        form = self.form()
        if url.path == "/device/code":
            # [device]: device_code, user_code, verification_url, interval, expires_in
            if form.get("client_id") != args.client_id:
                return self.send(400, {"error": "invalid_client", "error_description": "Client not found"})
            device = secrets.token_hex(16)
            user = "%04d%04d" % (secrets.randbelow(10000), secrets.randbelow(10000))
            with lock:
                state["devices"][device] = {"user_code": user, "approved": False, "denied": False, "last_poll": 0.0,
                                            "expires": time.monotonic() + args.device_ttl, "interval": args.interval}
            base = "http://127.0.0.1:%d" % args.api_port
            return self.send(200, {"device_code": device, "user_code": user, "verification_url": base + "/device",
                                   "interval": args.interval, "expires_in": args.device_ttl})
        if url.path == "/token":
            return self.token(form)
        self.send(404, {"error": "not_found"})

    def token(self, form):
        if form.get("client_id") != args.client_id:
            return self.send(400, {"error": "invalid_client", "error_description": "Client not found"})
        grant = form.get("grant_type")
        if grant == "device_code":
            # [device] [rfc8628 §3.5]
            with lock:
                device = state["devices"].get(form.get("code") or form.get("device_code") or "")
                now = time.monotonic()
                if device is None:
                    answer = {"error": "invalid_grant", "error_description": "Invalid device code"}
                elif device["expires"] < now:
                    answer = {"error": "expired_token", "error_description": "Device code expired"}
                elif device["denied"]:
                    answer = {"error": "access_denied", "error_description": "The user refused"}
                elif now - device["last_poll"] < device["interval"] * 0.8:
                    device["last_poll"] = now
                    answer = {"error": "slow_down", "error_description": "Polling too often"}
                elif not device["approved"]:
                    device["last_poll"] = now
                    answer = {"error": "authorization_pending", "error_description": "User has not yet authorized your application"}
                else:
                    del state["devices"][form.get("code") or form.get("device_code")]
                    answer = None
            return self.send(400, answer) if answer else self.send(200, issue())
        if grant == "refresh_token":
            # [refresh]: a revoked refresh token is invalid_grant
            token = form.get("refresh_token", "")
            with lock:
                valid = state["refresh"].get(token, False)
                rotate = state["rotate_refresh"]
                if valid and rotate:
                    state["refresh"][token] = False
            if not valid:
                return self.send(400, {"error": "invalid_grant", "error_description": "Invalid refresh token"})
            return self.send(200, issue(None if rotate else token))
        if grant == "authorization_code":
            # [code] [rfc7636 §4.6]
            with lock:
                code = state["codes"].pop(form.get("code", ""), None)
            challenge = s256(form.get("code_verifier", ""))
            if code is None or code["challenge"] != challenge or code["redirect_uri"] != form.get("redirect_uri"):
                return self.send(400, {"error": "invalid_grant", "error_description": "Code has expired or is wrong"})
            return self.send(200, issue())
        self.send(400, {"error": "unsupported_grant_type", "error_description": "Unsupported grant type"})

    # ---- download host ----

    def download(self, url):
        """A link's file, with the OAuth token [content], Range → 206/Content-Range, 416 past the end [rfc9110]."""
        parts = url.path.split("/")
        with lock:
            link = state["links"].get(parts[-1]) if len(parts) == 3 and parts[1] == "disk" else None
            html = state["html_href"]
        if link is None:
            return self.error(404, "NotFoundError", "Not found.")
        if self.link_refused(link):
            return
        if not token_ok(self.headers.get("Authorization")):
            return self.error(401, "UnauthorizedError", "Unauthorized", "Не авторизован.")
        if html:
            return self.send(200, "<html><body>Please sign in</body></html>", content_type="text/html; charset=utf-8")
        _, full = disk_path(link["path"])
        if not os.path.isfile(full):
            return self.error(404, "DiskNotFoundError", "Resource not found.")
        self.send_file(full, os.path.getsize(full), {"ETag": '"%s"' % hashes(full)[0]}, "audio/mpeg")


class Download(Handler):
    server_kind = "download"


def main():
    global args
    parser = arguments("download", "test-client")
    parser.add_argument("--download-base", help="what hrefs start with (a proxy in front of the download host)")
    parser.add_argument("--interval", type=int, default=1)
    parser.add_argument("--device-ttl", type=int, default=600)
    args = parser.parse_args()
    state["permanent"].update(args.token)
    serve((Handler, args.api_port), (Download, args.download_port))


if __name__ == "__main__":
    main()
