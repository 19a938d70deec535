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
  [rfc9110]  https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3        (Retry-After)
  Shared: cloud_emulator.py (the token authority: RFC 8628 errors, PKCE; Range serving).
"""
import hashlib, os, sys, threading, time, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cloud_emulator

lock = threading.RLock()
state = {
    "links": {},               # link id -> {path, expires}
    "link_ttl": 3600.0,
    "link_status": 410,        # what an expired link answers (410 Gone, or 403)
    "busy": [],                # pending 429s: [retry_after, ...] for the next API calls
    "bad_json": None,          # API answers about paths containing this are broken JSON
    "html_href": False,        # download links answer an HTML page
    "forbid": None,            # API calls about paths containing this answer 403 ForbiddenError [errors]
    "forbid_download": None,   # links to paths containing this answer 403 on the download host
}
args = None
authority = None


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
    return bool(header) and header.startswith("OAuth ") and authority.valid(header[6:].strip())


class Handler(cloud_emulator.Handler):
    def error(self, status, error, description, message=None, headers=None):
        """An Error object [errors]."""
        self.send(status, {"message": message or description, "description": description, "error": error}, headers)

    # ---- API + OAuth ----

    def get(self, url, query):
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
            items, total = cloud_emulator.listed(full, path, offset, limit, describe)
            resource["_embedded"] = {"items": items, "limit": limit, "offset": offset, "total": total,
                                     "path": path, "sort": query.get("sort", "")}
        self.send(200, resource)

    def download_link(self, path, full):
        """A Link {href, method, templated} on the download host, valid for link_ttl seconds [content]."""
        if os.path.isdir(full):
            return self.error(400, "FieldValidationError", "Is a directory.")
        link = cloud_emulator.new_link(state, lock, path)
        base = args.download_base or "http://127.0.0.1:%d" % args.download_port
        name = urllib.parse.quote(os.path.basename(full))
        self.send(200, {"href": "%s/disk/%s?filename=%s&disposition=attachment" % (base, link, name),
                        "method": "GET", "templated": False})

    def authorize(self, query):
        """The user approves at once: 302 to redirect_uri with code and state [code]; PKCE S256 kept."""
        problem, target = authority.authorize(query)
        if problem:
            return self.send(400, problem, content_type="text/plain")
        self.send(302, "", {"Location": target}, content_type="text/plain")

    def approve_device(self, query):
        """The user enters user_code on the verification page [device]; deny=1 refuses."""
        found = authority.enter(query.get("user_code", ""), bool(query.get("deny")))
        self.send(200 if found else 404, "ok" if found else "no such code", content_type="text/plain")

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/_control":
            return self.control(state, lock, authority)
        form = self.form()
        if url.path == "/device/code":
            # [device]: device_code, user_code, verification_url, interval, expires_in
            if form.get("client_id") != args.client_id:
                return self.send(400, {"error": "invalid_client", "error_description": "Client not found"})
            device, user = authority.new_device()
            base = "http://127.0.0.1:%d" % args.api_port
            return self.send(200, {"device_code": device, "user_code": user, "verification_url": base + "/device",
                                   "interval": args.interval, "expires_in": args.device_ttl})
        if url.path == "/token":
            return self.token(form)
        self.send(404, {"error": "not_found"})

    def token(self, form):
        """[device] (grant_type=device_code with code), [refresh] (a revoked refresh token is
        invalid_grant), [code] (PKCE)."""
        grant = form.get("grant_type")
        if grant == "device_code":
            form["_grant"], form["_device_code"] = "device", form.get("code") or form.get("device_code") or ""
        else:
            form["_grant"] = grant
        self.send(*authority.grant(form))

    # ---- download host ----

    def download(self):
        """A link's file, with the OAuth token [content], Range → 206/Content-Range, 416 past the end [rfc9110]."""
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/")
        with lock:
            link = state["links"].get(parts[-1]) if len(parts) == 3 and parts[1] == "disk" else None
            html = state["html_href"]
            expired_status = state["link_status"]
        if link is None:
            return self.error(404, "NotFoundError", "Not found.")
        with lock:
            forbid = state["forbid_download"]
        if forbid and forbid in link["path"]:
            return self.send(403, "<html><body>Forbidden</body></html>", content_type="text/html")
        if link["expires"] < time.monotonic():
            return self.send(expired_status, "<html><body>link expired</body></html>", content_type="text/html")
        if not token_ok(self.headers.get("Authorization")):
            return self.error(401, "UnauthorizedError", "Unauthorized", "Не авторизован.")
        if html:
            return self.send(200, "<html><body>Please sign in</body></html>", content_type="text/html; charset=utf-8")
        _, full = disk_path(link["path"])
        if not os.path.isfile(full):
            return self.error(404, "DiskNotFoundError", "Resource not found.")
        cloud_emulator.serve_file(self, full, '"%s"' % hashes(full)[0])


class Download(Handler):
    server_kind = "download"


def main():
    global args, authority
    parser = cloud_emulator.arguments()
    parser.add_argument("--download-base", help="what hrefs start with (a proxy in front of the download host)")
    args = parser.parse_args()
    authority = cloud_emulator.authority_for(args, "AQ-acc-", "1:rt-")
    cloud_emulator.serve(args, Handler, Download)


if __name__ == "__main__":
    main()
