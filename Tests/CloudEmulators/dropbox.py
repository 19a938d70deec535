#!/usr/bin/env python3
"""A local Dropbox API v2 and Dropbox OAuth, for tests (no internet here).

Two listeners on 127.0.0.1: the API host (RPC endpoints, OAuth) and the content host
(files/download). Files are a real folder (--root). Each behaviour notes the public documentation
page it follows. Tests steer it through /_control (JSON), which the real service does not have.

Docs:
  [http]      https://www.dropbox.com/developers/documentation/http/documentation   (RPC endpoints: POST + JSON body on
                api.dropboxapi.com; content-download endpoints on content.dropboxapi.com, argument in Dropbox-API-Arg,
                result in Dropbox-API-Result, HTTP range requests; Authorization: Bearer)
  [list]      ...documentation#files-list_folder            (path "" = root, recursive, limit, include_deleted;
                ListFolderResult {entries, cursor, has_more}; Metadata with .tag file/folder/deleted)
  [continue]  ...documentation#files-list_folder-continue   (cursor; ListFolderContinueError reset: "Indicates that the
                cursor has been invalidated. Call list_folder to obtain a new cursor.")
  [metadata]  ...documentation#files-get_metadata           (FileMetadata: name, path_lower, path_display, id, rev, size,
                content_hash)
  [download]  ...documentation#files-download               (DownloadError path/not_found as 409)
  [errors]    ...documentation#error-handling               (400 plain text bad input; 401 {error_summary, error}
                expired_access_token / invalid_access_token; 409 endpoint errors; 429 too_many_requests + Retry-After)
  [json]      https://www.dropbox.com/developers/reference/json-encoding   (Dropbox-API-Arg must be "HTTP header safe":
                0x7F and all non-ASCII characters as \\uXXXX escapes)
  [hash]      https://www.dropbox.com/developers/reference/content-hash    (SHA-256 of the concatenated SHA-256 of each
                4 MiB block)
  [oauth]     https://developers.dropbox.com/oauth-guide   (GET /oauth2/authorize: response_type=code, client_id,
                redirect_uri optional but registered exactly — without it the code is shown to the user to copy;
                PKCE code_challenge S256; POST /oauth2/token grant_type=authorization_code / refresh_token)
  [offline]   https://dropbox.tech/developers/using-oauth-2-0-with-offline-access   (token_access_type=offline: a
                refresh_token besides the short-lived access_token; a refresh answers no new refresh token)
  [rfc7636]   https://datatracker.ietf.org/doc/html/rfc7636#section-4.6    (S256 check of code_verifier)
  [rfc9110]   https://www.rfc-editor.org/rfc/rfc9110#section-14            (Range, 206, Content-Range, 416)
"""
import hashlib, json, os, secrets, time, urllib.parse
from emulator_http import EmulatorHandler, arguments, lock, mint, s256, serve

state = {
    "permanent": set(),        # tokens given in the config file (long-lived): never expire
    "access": {},              # access token -> expiry (monotonic)
    "refresh": {},             # refresh token -> valid (False: revoked)
    "codes": {},               # authorization code -> {challenge, redirect_uri, offline}
    "cursors": {},             # cursor -> {path, offset}
    "access_ttl": 14400.0,
    "busy": [],                # pending 429s: [retry_after, ...] for the next API calls
    "busy_download": [],       # pending 429s of the content host
    "reset_cursors": 0,        # the next N list_folder/continue calls answer 409 reset
    "bad_json": None,          # list_folder of paths containing this answers broken JSON
    "log": [],
}
args = None


def lookup(path):
    """An API path ("" = root, else "/a/b", case-insensitive [http]) and the file it names."""
    if path == "":
        return "", args.root
    if not isinstance(path, str) or not path.startswith("/"):
        return None, None
    full = args.root
    for part in path.strip("/").split("/"):
        if part in ("", ".", "..") or not os.path.isdir(full):
            return None, None
        match = [n for n in os.listdir(full) if n.lower() == part.lower()]
        if not match:
            return path, os.path.join(full, part)
        full = os.path.join(full, match[0])
    return path, full


def display(full):
    rel = os.path.relpath(full, args.root)
    return "" if rel == "." else "/" + rel


hash_cache = {}


def content_hash(full):
    """[hash]"""
    st = os.stat(full)
    key = (full, st.st_mtime_ns, st.st_size)
    if key not in hash_cache:
        blocks = b""
        with open(full, "rb") as f:
            while True:
                block = f.read(4 << 20)
                if not block:
                    break
                blocks += hashlib.sha256(block).digest()
        hash_cache[key] = (hashlib.sha256(blocks).hexdigest(), "%09x" % (st.st_mtime_ns // 1000 & 0xfffffffff))
    return hash_cache[key]


def metadata(full):
    """Metadata with .tag [list] [metadata]."""
    shown = display(full)
    base = {"name": os.path.basename(full), "path_lower": shown.lower(), "path_display": shown, "id": "id:" + shown}
    if os.path.isdir(full):
        return dict(base, **{".tag": "folder"})
    digest, rev = content_hash(full)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(full)))
    return dict(base, **{".tag": "file", "size": os.path.getsize(full), "rev": rev, "content_hash": digest,
                         "client_modified": stamp, "server_modified": stamp, "is_downloadable": True})


def issue(offline, refresh=None):
    """A token answer [oauth] [offline]."""
    access, ttl, minted = mint(state, "sl.acc-", "rt-" if offline and refresh is None else None)
    answer = {"access_token": access, "token_type": "bearer", "expires_in": ttl, "scope": "files.content.read files.metadata.read",
              "uid": "12345", "account_id": "dbid:test"}
    if minted:
        answer["refresh_token"] = minted
    return answer

class Handler(EmulatorHandler):
    state = state
    control_queues = ("busy", "busy_download")

    def details(self):
        return {"arg": self.headers.get("Dropbox-API-Arg"), "body": getattr(self, "body_text", None)}

    def send(self, status, body=b"", headers=None, content_type="application/json"):
        EmulatorHandler.send(self, status, body, headers, content_type)

    def fault(self, status, summary, error, headers=None):
        """{error_summary, error} [errors]."""
        self.send(status, {"error_summary": summary + "/..", "error": error}, headers)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.body_text = self.rfile.read(length).decode() if length else ""
        return self.body_text

    def authorized(self):
        """Authorization: Bearer [http]; 401 expired_access_token / invalid_access_token [errors]."""
        header = self.headers.get("Authorization") or ""
        token = header[7:].strip() if header.startswith("Bearer ") else ""
        with lock:
            if token in state["permanent"]:
                return True
            expiry = state["access"].get(token)
        if expiry is not None and expiry > time.monotonic():
            return True
        if expiry is not None:
            self.fault(401, "expired_access_token", {".tag": "expired_access_token"})
        else:
            self.fault(401, "invalid_access_token", {".tag": "invalid_access_token"})
        return False

    def busy(self, key):
        """429 too_many_requests with Retry-After [errors]."""
        with lock:
            wait = state[key].pop(0) if state[key] else None
        if wait is None:
            return False
        self.fault(429, "too_many_requests", {"reason": {".tag": "too_many_requests"}, "retry_after": wait}, {"Retry-After": str(wait)})
        return True

    # ---- API host ----

    def on_get(self, url, query):
        if url.path == "/oauth2/authorize" and self.server_kind == "api":
            return self.authorize(query)
        self.send(404, "Not found", content_type="text/plain")

    def authorize(self, query):
        """The user approves at once [oauth]: with a registered redirect_uri, 302 there with code and state;
        without one, a page that shows the code to copy. PKCE S256 kept [rfc7636]."""
        redirect = query.get("redirect_uri")
        if query.get("response_type") != "code" or query.get("client_id") != args.client_id:
            return self.send(400, "Invalid client_id or response_type", content_type="text/plain")
        if redirect is not None and redirect not in args.redirect_uri:
            return self.send(400, "Invalid redirect_uri. It must exactly match one of the redirect URIs you've pre-configured for your app.",
                             content_type="text/plain")
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return self.send(400, "PKCE S256 required by this emulator", content_type="text/plain")
        code = secrets.token_urlsafe(12)
        with lock:
            state["codes"][code] = {"challenge": query["code_challenge"], "redirect_uri": redirect,
                                    "offline": query.get("token_access_type") == "offline"}
        if redirect is None:
            page = "<html><body><p>Enter this code into cloudplayerd to finish the process.</p><code id=\"auth-code\">%s</code></body></html>" % code
            return self.send(200, page, content_type="text/html; charset=utf-8")
        target = redirect + ("&" if "?" in redirect else "?") + urllib.parse.urlencode({"code": code, "state": query.get("state", "")})
        self.send(302, "", {"Location": target}, content_type="text/plain")

    def on_post(self, url):
        if self.server_kind == "content":
            return self.download() if url.path == "/2/files/download" else self.send(404, "Not found", content_type="text/plain")
        if url.path == "/oauth2/token":
            return self.token({k: v[0] for k, v in urllib.parse.parse_qs(self.read_body()).items()})
        body = self.read_body()
        if not url.path.startswith("/2/files/"):
            return self.send(404, "Not found", content_type="text/plain")
        if not self.authorized() or self.busy("busy"):
            return
        try:
            arg = json.loads(body)
        except ValueError:
            # [errors]: bad input is a 400 with a plain-text body
            return self.send(400, 'Error in call to API function "%s": request body: could not decode input as JSON' % url.path[3:],
                             content_type="text/plain; charset=utf-8")
        if url.path == "/2/files/list_folder":
            return self.list_folder(arg)
        if url.path == "/2/files/list_folder/continue":
            return self.list_continue(arg)
        if url.path == "/2/files/get_metadata":
            path, full = lookup(arg.get("path"))
            if path is None or not os.path.exists(full):
                return self.fault(409, "path/not_found", {".tag": "path", "path": {".tag": "not_found"}})
            return self.send(200, metadata(full))
        self.send(404, "Unknown API function", content_type="text/plain")

    def page(self, cursor):
        """One page of limit entries from the cursor's offset, and the next cursor [list] [continue]."""
        with lock:
            at = state["cursors"].pop(cursor)
        names = sorted(os.listdir(at["full"]))
        chosen = names[at["offset"]:at["offset"] + at["limit"]]
        offset = at["offset"] + len(chosen)
        after = secrets.token_urlsafe(24)
        with lock:
            state["cursors"][after] = dict(at, offset=offset)
            bad = state["bad_json"]
        if bad and bad in at["path"]:
            return self.send(200, '{"entries": [{".tag": "file", "name": 42,')
        self.send(200, {"entries": [metadata(os.path.join(at["full"], n)) for n in chosen], "cursor": after,
                        "has_more": offset < len(names)})

    def list_folder(self, arg):
        path, full = lookup(arg.get("path"))
        if path is None:
            return self.send(400, 'Error in call to API function "files/list_folder": request body: path: did not match pattern',
                             content_type="text/plain; charset=utf-8")
        if not os.path.exists(full):
            return self.fault(409, "path/not_found", {".tag": "path", "path": {".tag": "not_found"}})
        if not os.path.isdir(full):
            return self.fault(409, "path/not_folder", {".tag": "path", "path": {".tag": "not_folder"}})
        cursor = secrets.token_urlsafe(24)
        with lock:
            state["cursors"][cursor] = {"path": path, "full": full, "offset": 0, "limit": int(arg.get("limit") or 2000)}
        self.page(cursor)

    def list_continue(self, arg):
        cursor = arg.get("cursor", "")
        with lock:
            reset = state["reset_cursors"] > 0
            if reset:
                state["reset_cursors"] -= 1
                state["cursors"].pop(cursor, None)
            known = cursor in state["cursors"]
        if reset:
            return self.fault(409, "reset", {".tag": "reset"})
        if not known:
            return self.send(400, 'Error in call to API function "files/list_folder/continue": Invalid "cursor" parameter',
                             content_type="text/plain; charset=utf-8")
        self.page(cursor)

    def token(self, form):
        """[oauth] [offline] [rfc7636]"""
        if form.get("client_id") != args.client_id:
            return self.send(400, {"error": "invalid_client", "error_description": "Invalid client_id or client_secret"})
        grant = form.get("grant_type")
        if grant == "refresh_token":
            token = form.get("refresh_token", "")
            with lock:
                valid = state["refresh"].get(token, False)
            if not valid:
                return self.send(400, {"error": "invalid_grant", "error_description": "refresh token is invalid or revoked"})
            return self.send(200, issue(True, refresh=token))
        if grant == "authorization_code":
            with lock:
                code = state["codes"].pop(form.get("code", ""), None)
            challenge = s256(form.get("code_verifier", ""))
            if code is None or code["challenge"] != challenge or code["redirect_uri"] != form.get("redirect_uri"):
                return self.send(400, {"error": "invalid_grant", "error_description": "code doesn't exist or has expired"})
            return self.send(200, issue(code["offline"]))
        self.send(400, {"error": "unsupported_grant_type", "error_description": "grant_type is not supported"})

    # ---- content host ----

    def download(self):
        """files/download [download]: Dropbox-API-Arg header-safe JSON [json], Range -> 206 [rfc9110],
        Dropbox-API-Result with the metadata of what is sent [http]."""
        self.read_body()
        if not self.authorized() or self.busy("busy_download"):
            return
        raw = self.headers.get("Dropbox-API-Arg")
        if raw is None:
            return self.send(400, 'Error in call to API function "files/download": Must provide HTTP header "Dropbox-API-Arg" or URL parameter "arg".',
                             content_type="text/plain; charset=utf-8")
        # http.server decodes header bytes as ISO-8859-1: a byte above 0x7E is one unescaped.
        if any(ord(c) > 0x7E for c in raw):
            return self.send(400, 'Error in call to API function "files/download": HTTP header "Dropbox-API-Arg": could not decode input as JSON',
                             content_type="text/plain; charset=utf-8")
        try:
            arg = json.loads(raw)
        except ValueError:
            return self.send(400, 'Error in call to API function "files/download": HTTP header "Dropbox-API-Arg": could not decode input as JSON',
                             content_type="text/plain; charset=utf-8")
        path, full = lookup(arg.get("path"))
        if path is None or not os.path.isfile(full):
            return self.fault(409, "path/not_found", {".tag": "path", "path": {".tag": "not_found"}})
        described = metadata(full)
        # Dropbox-API-Result: json.dumps escapes non-ASCII, header safe as [json] asks.
        self.send_file(full, described["size"], {"Dropbox-API-Result": json.dumps(described), "ETag": 'W/"%s"' % described["rev"]},
                       "application/octet-stream")


class Content(Handler):
    server_kind = "content"


def main():
    global args
    parser = arguments("content", "test-app-key")
    parser.add_argument("--redirect-uri", action="append", default=[], help="a registered redirect URI [oauth]")
    args = parser.parse_args()
    state["permanent"].update(args.token)
    serve((Handler, args.api_port), (Content, args.content_port))


if __name__ == "__main__":
    main()
