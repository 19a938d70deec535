#!/usr/bin/env python3
"""A local Box API 2.0 (an account's files) with Box's OAuth 2.0 endpoints, for tests (no internet
here).

Two listeners on 127.0.0.1: the API, the token endpoint and the authorize page on one port, and the
download host (dl.boxcloud.com) that /files/ID/content redirects to on another — another origin,
so a client that sends its token there is caught (the download host refuses any Authorization
header). Files are a real folder (--root); NAME.weblink is a web link called NAME. Each behaviour
notes the public documentation page it follows. Tests steer it through /_control (JSON), which the
real service does not have.

Docs:
  [items]     https://developer.box.com/reference/get-folders-id-items       (GET /2.0/folders/{id}/items, fields, usemarker,
                                                                            marker, limit ≤ 1000; folder 0 is the root; entries
                                                                            are files, folders and web links)
  [marker]    https://developer.box.com/guides/api-calls/pagination/marker-based  (next_marker; null on the last page)
  [fields]    https://developer.box.com/guides/api-calls/request-extra-fields (with fields: the mini form + the fields asked)
  [file]      https://developer.box.com/reference/resources/file             (id, type, name, size, sha1, file_version, modified_at)
  [mini]      https://developer.box.com/reference/resources/file--mini       (id, type, etag, file_version, name, sequence_id, sha1)
  [get-file]  https://developer.box.com/reference/get-files-id               (GET /2.0/files/{id}; 404 not_found)
  [content]   https://developer.box.com/reference/get-files-id-content       (302 to a download URL; `version` names a file
                                                                            version; Range on the download)
  [download]  https://developer.box.com/guides/downloads/file                (Location: https://dl.boxcloud.com/d/1/…/download;
                                                                            the URL expires, then ask again)
  [domains]   https://developer.box.com/guides/api-calls/allowing-domain-access  (api.box.com asks, dl.boxcloud.com serves)
  [versions]  https://developer.box.com/guides/file-versions                 (a new upload keeps the previous version)
  [errors]    https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors
                                                                            ({"type": "error", "status", "code", "message",
                                                                            "request_id"}; 401 with WWW-Authenticate and no body;
                                                                            403 access_denied_insufficient_permissions; 404 not_found)
  [limits]    https://developer.box.com/guides/api-calls/permissions-and-errors/rate-limits  (429 rate_limit_exceeded, retry-after)
  [authorize] https://developer.box.com/reference/get-authorize              (account.box.com/api/oauth2/authorize: response_type,
                                                                            client_id, redirect_uri, state → redirect with code, state)
  [token]     https://developer.box.com/reference/post-oauth2-token          (api.box.com/oauth2/token: client_id and client_secret;
                                                                            authorization_code or refresh_token)
  [refresh]   https://developer.box.com/guides/authentication/tokens/refresh (a refresh token lasts 60 days and is single-use: each
                                                                            refresh answers a new one and the old one is dead)
  [revoke]    https://developer.box.com/reference/post-oauth2-revoke         (POST /oauth2/revoke: client_id, client_secret, token)
  [rfc6749]   https://datatracker.ietf.org/doc/html/rfc6749#section-5         (token answers; invalid_grant)
  Shared: emulator_http.py (the handler, the log, /_control, Range serving, tokens minted).
"""
import hashlib, os, re, shutil, sys, threading, time, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emulator_http import EmulatorHandler, apply_control, arguments, lock, mint, new_link, serve

FIELDS_MINI = {"file": ["id", "type", "etag", "file_version", "name", "sequence_id", "sha1"],
               "folder": ["id", "type", "etag", "name", "sequence_id"], "web_link": ["id", "type", "etag", "name", "url"]}
state = {
    "log": [],
    "links": {},             # download link -> {path, expires, file (the version's copy)}
    "link_ttl": 900.0,
    "link_status": 403,      # what an expired download URL answers
    "access": {},            # access token -> expiry (monotonic)
    "refresh": {},           # refresh token -> valid (False: used, or revoked) [refresh]
    "permanent": set(),      # tokens accepted for ever (a config file's)
    "codes": {},             # authorization code -> redirect_uri
    "access_ttl": 3600.0,    # Box's access tokens last 60 minutes [refresh]
    "ids": {"/": "0"},       # path -> id; folder 0 is the root [items]
    "paths": {"0": "/"},
    "busy": [],              # the next API calls answer 429 with this retry-after [limits]
    "bad_json": None,        # folder listings of paths containing this are broken JSON
    "forbid": None,          # API calls about paths containing this answer 403 [errors]
    "forbid_download": None, # download URLs of paths containing this answer 403
    "hold_new_access": False,  # the first API call with an access token minted since this was set is never answered
    "fresh_access": set(),   # access tokens minted while hold_new_access was set
    "released": threading.Event(),
}
args = None


def id_of(path):
    """A path's id, numeric as Box's [file]: given on first sight, kept while the emulator runs."""
    with lock:
        if path not in state["ids"]:
            ident = str(1000 + len(state["ids"]))
            state["ids"][path], state["paths"][ident] = ident, path
        return state["ids"][path]


def full_path(path):
    """The file below --root of a path; None outside it."""
    full = os.path.realpath(os.path.join(args.root, path.lstrip("/")))
    root = os.path.realpath(args.root)
    return full if full == root or full.startswith(root + os.sep) else None


hash_cache = {}


def sha1(full):
    st = os.stat(full)
    key = (full, st.st_mtime_ns, st.st_size)
    if key not in hash_cache:
        hash_cache[key] = hashlib.sha1(open(full, "rb").read()).hexdigest()
    return hash_cache[key]


def version_of(full):
    """A file version's id [file] and the kept copy of its bytes [versions]: a new upload (new bytes)
    is a new version, and the old one's bytes stay downloadable by its id."""
    digest = sha1(full)
    version = str(int(digest[:12], 16))
    copy = os.path.join(args.root + ".versions", version)
    if not os.path.exists(copy):
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copyfile(full, copy + ".part")
        os.replace(copy + ".part", copy)
    return version, digest


def describe(path, full, fields=None):
    """An item [file] [mini]: with `fields`, the mini form plus the fields asked [fields]."""
    name = os.path.basename(path.rstrip("/"))
    st = os.stat(full)
    modified = time.strftime("%Y-%m-%dT%H:%M:%S-00:00", time.gmtime(st.st_mtime))
    if os.path.isdir(full):
        item = {"type": "folder", "id": id_of(path), "etag": "0", "sequence_id": "0", "name": name or "All Files",
                "size": 0, "modified_at": modified}
    elif name.endswith(".weblink"):
        item = {"type": "web_link", "id": id_of(path), "etag": "0", "name": name[:-len(".weblink")], "url": "https://example.com/"}
    else:
        version, digest = version_of(full)
        item = {"type": "file", "id": id_of(path), "etag": "1", "sequence_id": "1", "name": name, "size": st.st_size, "sha1": digest,
                "file_version": {"type": "file_version", "id": version, "sha1": digest}, "modified_at": modified}
    if fields is None:
        return item
    keep = set(FIELDS_MINI[item["type"]]) | set(fields)
    return {k: v for k, v in item.items() if k in keep}


class Handler(EmulatorHandler):
    state = state

    def details(self):
        return {"body": getattr(self, "body_text", None)}

    def control(self, change):
        """A /_control change: `hold_new_access` also forgets the tokens held before; `release` lets held calls go."""
        with lock:
            if change.pop("release", False):
                state["released"].set()
            if change.get("hold_new_access"):
                state["fresh_access"].clear()
                state["released"].clear()
        apply_control(state, change)

    def error(self, status, code, message, headers=None):
        """A client error [errors]."""
        self.send(status, {"type": "error", "status": status, "code": code, "message": message, "request_id": "0123abcd",
                           "help_url": "https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors/"}, headers)

    def authorized(self):
        """Authorization: Bearer; 401 with WWW-Authenticate and no body [errors]. An access token minted
        while `hold_new_access` is set is held at its first use: logged with status 0, never answered."""
        header = self.headers.get("Authorization") or ""
        token = header[7:].strip() if header.startswith("Bearer ") else ""
        with lock:
            good = token in state["permanent"] or state["access"].get(token, 0) > time.monotonic()
            held = good and state["hold_new_access"] and token in state["fresh_access"]
        if not good:
            self.send(401, "", {"WWW-Authenticate": 'Bearer realm="Service", error="invalid_token", error_description="The access token provided is invalid."'})
            return False
        if held:
            self.record(0, 0)
            state["released"].wait()
            self.close_connection = True
            return False
        return True

    def on_get(self, url, query):
        if self.server_kind == "download":
            return self.download(url)
        if url.path == "/api/oauth2/authorize":
            return self.authorize(query)
        if url.path == "/_control/tokens":
            # For the tests: the refresh tokens Box would still take.
            with lock:
                return self.send(200, sorted(t for t, valid in state["refresh"].items() if valid))
        if not url.path.startswith("/2.0/"):
            return self.error(404, "not_found", "Not Found")
        if not self.authorized():
            return
        with lock:
            wait = state["busy"].pop(0) if state["busy"] else None
        if wait is not None:
            return self.error(429, "rate_limit_exceeded", "Request rate limit exceeded, please try again later", {"retry-after": str(wait)})
        m = re.fullmatch(r"/2\.0/(folders|files)/(\d+)(/items|/content)?", url.path)
        if not m:
            return self.error(400, "bad_request", "Bad Request")
        kind, ident, suffix = m.groups()
        with lock:
            path = state["paths"].get(ident)
        full = full_path(path) if path else None
        if full is None or not os.path.exists(full) or os.path.isdir(full) != (kind == "folders"):
            return self.error(404, "not_found", "Not Found")
        with lock:
            forbid, bad = state["forbid"], state["bad_json"]
        if forbid and forbid in path:
            return self.error(403, "access_denied_insufficient_permissions", "Access denied - insufficient permission")
        fields = query["fields"].split(",") if "fields" in query else None
        if suffix == "/items":
            if bad and bad in path:
                return self.send(200, '{"entries": [{"type": "file", "id": 42, "name":')
            return self.items(path, full, query, fields)
        if suffix == "/content":
            return self.content(path, full, query)
        return self.send(200, describe(path, full, fields))

    def items(self, path, full, query, fields):
        """A page of a folder's items by name [items]; marker paging: next_marker while there are more [marker]."""
        names = sorted(os.listdir(full))
        limit = min(int(query.get("limit", "100")), 1000)
        if query.get("usemarker") != "true":
            start = int(query.get("offset", "0"))
            entries = [describe(path.rstrip("/") + "/" + n, os.path.join(full, n), fields) for n in names[start:start + limit]]
            return self.send(200, {"total_count": len(names), "offset": start, "limit": limit, "entries": entries, "order": []})
        start = int(query.get("marker") or "0", 36) if re.fullmatch(r"[0-9a-z]*", query.get("marker", "")) else -1
        if start < 0:
            return self.error(400, "invalid_parameter", "Invalid value for 'marker'")
        entries = [describe(path.rstrip("/") + "/" + n, os.path.join(full, n), fields) for n in names[start:start + limit]]
        nxt = start + limit
        self.send(200, {"entries": entries, "limit": limit, "next_marker": base36(nxt) if nxt < len(names) else None})

    def content(self, path, full, query):
        """302 to a download URL on the download host, of the version asked (else the current) [content] [download]."""
        version, _ = version_of(full)
        wanted = query.get("version", version)
        copy = os.path.join(args.root + ".versions", wanted)
        if not re.fullmatch(r"\d+", wanted) or not os.path.exists(copy):
            return self.error(404, "not_found", "Not Found")
        link = new_link(state, path)
        with lock:
            state["links"][link]["file"] = copy
        self.send(302, "", {"Location": "http://127.0.0.1:%d/d/1/%s/download" % (args.download_port, link)}, content_type="text/plain")

    def download(self, url):
        """A download URL [download]: its own credential, so an Authorization header is refused (401);
        expires (link_status); Range."""
        m = re.fullmatch(r"/d/1/([A-Za-z0-9_-]+)/download", url.path)
        with lock:
            link = state["links"].get(m.group(1)) if m else None
        if self.headers.get("Authorization") is not None:
            return self.send(401, "<html><body>Unexpected Authorization header</body></html>", content_type="text/html")
        if link is None:
            return self.send(404, "<html><body>Not found</body></html>", content_type="text/html")
        if self.link_refused(link):
            return
        if not os.path.isfile(full_path(link["path"]) or ""):
            # The file deleted (trashed) since: its versions are no longer served [file] (item_status).
            return self.send(404, "<html><body>Not found</body></html>", content_type="text/html")
        self.send_file(link["file"], os.path.getsize(link["file"]), {}, "audio/mpeg")

    def authorize(self, query):
        """The user approves at once [authorize]: 302 to the app's redirect URI with code and state."""
        redirect = query.get("redirect_uri", "")
        if query.get("response_type") != "code" or query.get("client_id") != args.client_id:
            return self.send(400, "invalid_client", content_type="text/plain")
        if not re.fullmatch(r"http://127\.0\.0\.1:\d+/", redirect):
            return self.send(400, "redirect_uri_mismatch", content_type="text/plain")
        code = os.urandom(16).hex()
        with lock:
            state["codes"][code] = redirect
        target = redirect + "?" + urllib.parse.urlencode({"code": code, "state": query.get("state", "")})
        self.send(302, "", {"Location": target}, content_type="text/plain")

    def on_post(self, url):
        length = int(self.headers.get("Content-Length") or 0)
        form = {k: v[0] for k, v in urllib.parse.parse_qs(self.rfile.read(length).decode() if length else "").items()}
        self.body_text = "grant_type=%s" % form.get("grant_type")
        if self.server_kind != "api" or url.path not in ("/oauth2/token", "/oauth2/revoke"):
            return self.error(404, "not_found", "Not Found")
        if form.get("client_id") != args.client_id or form.get("client_secret") != args.client_secret:
            return self.send(400, {"error": "invalid_client", "error_description": "The client credentials are invalid"})
        if url.path == "/oauth2/revoke":
            # [revoke]: the token and its pair die
            with lock:
                if form.get("token") in state["refresh"]:
                    state["refresh"][form["token"]] = False
            return self.send(200, "")
        grant = form.get("grant_type")
        if grant == "refresh_token":
            with lock:
                token = form.get("refresh_token", "")
                valid = state["refresh"].get(token, False)
                state["refresh"][token] = False  # [refresh]: single-use
            if not valid:
                return self.send(400, {"error": "invalid_grant", "error_description": "Invalid refresh token"})
            return self.issue()
        if grant == "authorization_code":
            with lock:
                redirect = state["codes"].pop(form.get("code", ""), None)
            if redirect is None or form.get("redirect_uri", redirect) != redirect:
                return self.send(400, {"error": "invalid_grant", "error_description": "Auth code doesn't exist or is invalid for the client"})
            return self.issue()
        self.send(400, {"error": "unsupported_grant_type", "error_description": "Invalid grant_type parameter or parameter missing"})

    def issue(self):
        """A token answer [token]: a new access token and a new refresh token, every time [refresh]."""
        access, ttl, refresh = mint(state, "box-acc-", "box-rt-")
        with lock:
            if state["hold_new_access"]:
                state["fresh_access"].add(access)
        self.send(200, {"access_token": access, "expires_in": ttl, "restricted_to": [], "refresh_token": refresh, "token_type": "bearer"})


def base36(n):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        n, r = divmod(n, 36)
        text = digits[r] + text
        if n == 0:
            return text


class Download(Handler):
    server_kind = "download"


def main():
    global args
    parser = arguments("download", "test-box-client")
    parser.add_argument("--client-secret", default="test-box-secret")
    args = parser.parse_args()
    state["permanent"].update(args.token)
    serve((Handler, args.api_port), (Download, args.download_port))


if __name__ == "__main__":
    main()
