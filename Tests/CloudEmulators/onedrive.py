#!/usr/bin/env python3
"""A local Microsoft Graph (a OneDrive's files) and Microsoft identity platform, for tests (no
internet here).

Two listeners on 127.0.0.1: Graph + the identity platform on one port, and the "download host"
that /content redirects to on another. Files are a real folder (--root). Each behaviour notes the
public documentation page it follows. Tests steer it through /_control (JSON), which the real
service does not have.

Docs:
  [item]      https://learn.microsoft.com/graph/api/driveitem-get                (GET /me/drive/root:/{path})
  [address]   https://learn.microsoft.com/graph/onedrive-addressing-driveitems   (root:/path:/ addressing)
  [children]  https://learn.microsoft.com/graph/api/driveitem-list-children      (GET .../children, $top)
  [paging]    https://learn.microsoft.com/graph/paging                           (@odata.nextLink, $skiptoken)
  [content]   https://learn.microsoft.com/graph/api/driveitem-get-content        (302 Found to a pre-authenticated URL, valid a
                                                                                 few minutes, that needs no Authorization header;
                                                                                 Range on it → partial content)
  [resource]  https://learn.microsoft.com/graph/api/resources/driveitem          (id, name, size, cTag, eTag, file, folder,
                                                                                 @microsoft.graph.downloadUrl)
  [hashes]    https://learn.microsoft.com/graph/api/resources/hashes             (sha256Hash, sha1Hash, quickXorHash)
  [errors]    https://learn.microsoft.com/graph/errors                           ({"error": {"code", "message"}}: itemNotFound,
                                                                                 accessDenied, InvalidAuthenticationToken)
  [throttle]  https://learn.microsoft.com/graph/throttling                       (429 with Retry-After)
  [bearer]    https://learn.microsoft.com/graph/auth-v2-user                     (Authorization: Bearer <token>)
  [device]    https://learn.microsoft.com/entra/identity-platform/v2-oauth2-device-code
                                                                                (POST /{tenant}/oauth2/v2.0/devicecode; token with
                                                                                 grant_type=urn:ietf:params:oauth:grant-type:device_code)
  [code]      https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow  (authorize, PKCE)
  [refresh]   https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow#refresh-the-access-token
                                                                                (a refresh answers a new refresh token; use it)
  [rfc8628]   https://datatracker.ietf.org/doc/html/rfc8628#section-3.5       (authorization_pending, slow_down, expired_token)
  [rfc6749]   https://datatracker.ietf.org/doc/html/rfc6749#section-5         (token answers; invalid_grant)
  [rfc7636]   https://datatracker.ietf.org/doc/html/rfc7636#section-4.6       (S256 check of code_verifier)
  Shared: emulator_http.py (the handler, the log, /_control, Range serving).
"""
import base64, hashlib, os, secrets, sys, threading, time, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emulator_http import EmulatorHandler, apply_control, arguments, lock, new_link, serve
from microsoft_identity import Authority

state = {
    "log": [],
    "links": {},               # download id -> {path, expires}
    "link_ttl": 3600.0,
    "link_status": 401,        # what an expired pre-authenticated URL answers (401, 403 or 410)
    "busy": [],                # the next Graph calls answer 429 (retry_after) or [status, retry_after] [throttle]
    "bad_json": None,          # Graph answers about paths containing this are broken JSON
    "forbid": None,            # Graph calls about paths containing this answer 403 accessDenied [errors]
    "forbid_download": None,   # pre-authenticated URLs of paths containing this answer 403 [content]
    "hashes": True,            # files carry file.hashes.sha256Hash; False: only cTag (a version from cTag)
}
args = None
authority = None


def drive_path(text):
    """A path (URL-decoded, below the root) and the file it names; (None, None) outside the root."""
    norm = os.path.normpath("/" + (text or "").strip("/"))
    if norm.startswith("//"):
        norm = norm[1:]
    full = os.path.join(args.root, norm.lstrip("/"))
    if not os.path.realpath(full).startswith(os.path.realpath(args.root)):
        return None, None
    return norm, full


def item_id(path):
    """An opaque id [resource]: here the path, base64url."""
    return base64.urlsafe_b64encode(path.encode()).decode().rstrip("=") or "root"


def path_of_id(ident):
    if ident == "root":
        return "/"
    try:
        return base64.urlsafe_b64decode(ident + "=" * (-len(ident) % 4)).decode()
    except Exception:
        return None


hash_cache = {}


def sha256(full):
    st = os.stat(full)
    key = (full, st.st_mtime_ns, st.st_size)
    if key not in hash_cache:
        hash_cache[key] = hashlib.sha256(open(full, "rb").read()).hexdigest().upper()
    return hash_cache[key]


def describe(path, full):
    """A driveItem [resource]: folder {childCount} or file {mimeType, hashes}; cTag changes with the
    bytes, eTag also with the name."""
    name = os.path.basename(path.rstrip("/")) or "root"
    ident = item_id(path)
    parent = os.path.dirname(path.rstrip("/")) or "/"
    item = {"id": ident, "name": name, "parentReference": {"driveType": "personal", "path": "/drive/root:" + (parent if parent != "/" else "")}}
    st = os.stat(full)
    item["lastModifiedDateTime"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(st.st_mtime))
    if os.path.isdir(full):
        item["folder"] = {"childCount": len(os.listdir(full))}
        item["size"] = 0
        return item
    digest = sha256(full)
    item["size"] = st.st_size
    item["cTag"] = '"c:{%s},%s"' % (ident, digest[:12])
    item["eTag"] = '"{%s},%s"' % (ident, hashlib.sha1((name + digest).encode()).hexdigest()[:8])
    item["file"] = {"mimeType": "audio/mpeg"}
    with lock:
        if state["hashes"]:
            item["file"]["hashes"] = {"sha256Hash": digest}
    return item


def listed(full, path, start, count):
    """`count` items of a folder from `start` on, by name, described; and how many it holds."""
    names = sorted(os.listdir(full))
    return [describe(path.rstrip("/") + "/" + n, os.path.join(full, n)) for n in names[start:start + count]], len(names)


class Handler(EmulatorHandler):
    state = state

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        return {k: v[0] for k, v in urllib.parse.parse_qs(body).items()}

    def control(self, change):
        """A /_control change: the token authority's keys (`revoke_refresh`, `expire_access`,
        `access_ttl`, `rotate_refresh`) go to it, the rest to the state (`apply_control`)."""
        with lock:
            for key in ("revoke_refresh", "expire_access", "access_ttl", "rotate_refresh"):
                if key in change:
                    value = change.pop(key)
                    if key == "revoke_refresh":
                        authority.revoke_all()
                    elif key == "expire_access":
                        authority.expire_all()
                    elif key == "access_ttl":
                        authority.access_ttl = value
                    else:
                        authority.rotate = value
        apply_control(state, change)

    def on_get(self, url, query):
        """The download host's `download()`; else Graph and the identity platform."""
        if self.server_kind == "download":
            return self.download(url, query)
        return self.get(url, query)

    def error(self, status, code, message, headers=None):
        """An error body [errors]."""
        self.send(status, {"error": {"code": code, "message": message, "innerError": {"date": "2026-01-01T00:00:00"}}}, headers)

    def get(self, url, query):
        if url.path.endswith("/oauth2/v2.0/authorize"):
            problem, target = authority.authorize(query)
            if problem:
                return self.send(400, problem, content_type="text/plain")
            return self.send(302, "", {"Location": target}, content_type="text/plain")
        if url.path == "/device":
            found = authority.enter(query.get("user_code", ""), bool(query.get("deny")))
            return self.send(200 if found else 404, "ok" if found else "no such code", content_type="text/plain")
        if not url.path.startswith("/v1.0/me/drive/"):
            return self.error(400, "invalidRequest", "Invalid request")
        header = self.headers.get("Authorization") or ""
        if not header.startswith("Bearer ") or not authority.valid(header[7:].strip()):
            # [errors] [bearer]
            return self.error(401, "InvalidAuthenticationToken", "Access token has expired or is not yet valid.")
        with lock:
            busy = state["busy"].pop(0) if state["busy"] else None
        if busy is not None:
            # [throttle]: 429 activityLimitReached, or 503 serviceNotAvailable, each with Retry-After
            status, wait = busy if isinstance(busy, list) else (429, busy)
            code = "activityLimitReached" if status == 429 else "serviceNotAvailable"
            return self.error(status, code, "The request has been throttled", {"Retry-After": str(wait)})
        route = url.path[len("/v1.0/me/drive/"):]
        suffix = ""
        if route == "root" or route == "root/children":
            path, suffix = "/", route[4:]
        elif route.startswith("root:/"):
            # [address]: root:/a/b or root:/a/b:/children
            rest = route[6:]
            if ":/" in rest:
                rest, suffix = rest.split(":/", 1)
                suffix = "/" + suffix
            path = "/" + urllib.parse.unquote(rest.rstrip(":"))
        elif route.startswith("items/"):
            ident, _, suffix = route[6:].partition("/")
            path = path_of_id(ident)
            suffix = "/" + suffix if suffix else ""
        else:
            return self.error(400, "invalidRequest", "Invalid request")
        path, full = drive_path(path) if path is not None else (None, None)
        if path is None or not os.path.exists(full):
            return self.error(404, "itemNotFound", "The resource could not be found.")
        with lock:
            bad, forbid = state["bad_json"], state["forbid"]
        if forbid and forbid in path:
            return self.error(403, "accessDenied", "Access denied")
        if bad and bad in path:
            return self.send(200, '{"value": [{"id": 42, "name":')
        if suffix == "":
            return self.send(200, describe(path, full))
        if suffix == "/children":
            return self.children(path, full, query)
        if suffix == "/content":
            return self.content(path, full)
        return self.error(400, "invalidRequest", "Invalid request")

    def children(self, path, full, query):
        """One page of $top children; @odata.nextLink with a $skiptoken while there are more [children] [paging]."""
        if not os.path.isdir(full):
            return self.error(400, "invalidRequest", "The item is not a folder")
        top = int(query.get("$top", "200"))
        skip = int(query.get("$skiptoken", "0"))
        items, total = listed(full, path, skip, top)
        page = {"@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users('me')/drive/root/children", "value": items}
        if skip + top < total:
            base = "http://127.0.0.1:%d/v1.0/me/drive/items/%s/children" % (args.api_port, item_id(path))
            page["@odata.nextLink"] = base + "?" + urllib.parse.urlencode({"$top": top, "$skiptoken": skip + top})
        self.send(200, page)

    def content(self, path, full):
        """302 Found to a pre-authenticated URL on the download host, valid link_ttl seconds [content]."""
        if os.path.isdir(full):
            return self.error(400, "invalidRequest", "Only files can be downloaded")
        link = new_link(state, path)
        base = "http://127.0.0.1:%d" % args.download_port
        self.send(302, "", {"Location": "%s/download/%s?tempauth=%s" % (base, item_id(path), link)}, content_type="text/plain")

    def on_post(self, url):
        form = self.form()
        if url.path.endswith("/oauth2/v2.0/devicecode"):
            # [device]: device_code, user_code, verification_uri, expires_in, interval, message
            if form.get("client_id") != authority.client_id:
                return self.send(400, {"error": "invalid_client", "error_description": "AADSTS700016: Application not found"})
            if "Files.Read" not in form.get("scope", "").split() or "offline_access" not in form.get("scope", "").split():
                return self.send(400, {"error": "invalid_scope", "error_description": "AADSTS70011: expected Files.Read offline_access"})
            device, user = authority.new_device()
            page = "http://127.0.0.1:%d/device" % args.api_port
            return self.send(200, {"device_code": device, "user_code": user, "verification_uri": page,
                                   "expires_in": authority.device_ttl, "interval": authority.interval,
                                   "message": "To sign in, use a web browser to open the page %s and enter the code %s" % (page, user)})
        if url.path.endswith("/oauth2/v2.0/token"):
            grant = form.get("grant_type")
            if grant == "urn:ietf:params:oauth:grant-type:device_code":
                form["_grant"], form["_device_code"] = "device", form.get("device_code", "")
            else:
                form["_grant"] = grant
            status, answer = authority.grant(form)
            if status == 200:
                # [refresh]: the identity platform answers with a scope and a new refresh token each time
                answer["scope"] = "Files.Read offline_access"
            return self.send(status, answer)
        self.error(404, "itemNotFound", "Not found")

    # ---- download host ----

    def download(self, url, query):
        """A pre-authenticated URL: no Authorization header wanted (one is refused, as a URL that
        is its own credential must be used without it), expires, Range [content]."""
        with lock:
            link = state["links"].get(query.get("tempauth", ""))
        if self.headers.get("Authorization") is not None:
            return self.send(401, "<html><body>Unexpected Authorization header</body></html>", content_type="text/html")
        if link is None:
            return self.send(401, "<html><body>Invalid tempauth</body></html>", content_type="text/html")
        if self.link_refused(link):
            return
        _, full = drive_path(link["path"])
        if not os.path.isfile(full):
            return self.send(404, "<html><body>Not found</body></html>", content_type="text/html")
        self.send_file(full, os.path.getsize(full), {"ETag": '"%s"' % sha256(full)[:16]}, "audio/mpeg")


class Download(Handler):
    server_kind = "download"


def main():
    global args, authority
    parser = arguments("download", "test-client")
    parser.add_argument("--interval", type=int, default=1)
    parser.add_argument("--device-ttl", type=int, default=600)
    args = parser.parse_args()
    authority = Authority(args.client_id, "EwB-acc-", "M.C5-rt-", args.interval, args.device_ttl)
    authority.permanent.update(args.token)
    # [refresh]: Microsoft answers every refresh with a new refresh token
    authority.rotate = True
    serve((Handler, args.api_port), (Download, args.download_port))


if __name__ == "__main__":
    main()
