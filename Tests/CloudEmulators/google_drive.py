#!/usr/bin/env python3
"""A local Google Drive API v3 and Google OAuth 2.0 for desktop apps, for tests (no internet here).

Two listeners on 127.0.0.1: the Drive API (www.googleapis.com/drive/v3) on one port, Google's
accounts (the authorization endpoint of accounts.google.com and the token endpoint of
oauth2.googleapis.com) on another. The drive is a real folder (--root), My Drive's root. Each
behaviour notes the public documentation page it follows. Tests steer it through /_control
(JSON), which the real service does not have. The log calls a request for a file's bytes
(`alt=media`) host "media", other Drive calls "api", the accounts' "accounts".

What a plain folder cannot hold is spelled in names: `NAME.gdoc` is a Google Docs file NAME (no
bytes); `NAME.gshortcut` is a shortcut NAME whose target is the path (from the root) the file
holds; `NAME~twinN` is another item called NAME in the same folder (Drive allows two of a name).

Docs:
  [files]      https://developers.google.com/drive/api/reference/rest/v3/files      (the file resource: id, name, mimeType,
                 size as an int64 string, md5Checksum for files with bytes only, modifiedTime, parents (one; none
                 for My Drive's root, whose id differs from its alias "root"), shortcutDetails)
  [list]       https://developers.google.com/drive/api/reference/rest/v3/files/list (q, pageSize 1..1000 (default 100),
                 pageToken, nextPageToken absent on the last page, fields; FileList {kind, incompleteSearch, files};
                 supportsAllDrives / includeItemsFromAllDrives for shared drives' items: accepted, this emulator has
                 only My Drive)
  [get]        https://developers.google.com/drive/api/reference/rest/v3/files/get  (GET files/{fileId}; alt=media for
                 the content; "root" as an alias of My Drive's id)
  [search]     https://developers.google.com/drive/api/guides/search-files and .../guides/ref-search-terms
                 ('ID' in parents, trashed = false, name = 'x', joined with and; \\' and \\\\ escapes in literals)
  [fields]     https://developers.google.com/drive/api/guides/fields-parameter      (only the fields asked for are
                 answered; files(a,b) selects in each file; without fields, a default set: kind, id, name, mimeType)
  [download]   https://developers.google.com/drive/api/guides/manage-downloads      (alt=media; Range for part of a file;
                 Docs editors files cannot be downloaded: 403 fileNotDownloadable, to be exported instead)
  [revisions]  https://developers.google.com/drive/api/reference/rest/v3/revisions/get and .../guides/manage-revisions
                 (GET files/{fileId}/revisions/{revisionId}, alt=media for a revision's content; headRevisionId on
                 files with bytes; a revision that no longer exists is 404. Drive keeps old revisions a while; this
                 emulator keeps the head revision only — the hardest case for a client: its revision gone mid-play)
  [mime]       https://developers.google.com/drive/api/guides/mime-types            (application/vnd.google-apps.folder,
                 .document, .shortcut…)
  [shortcuts]  https://developers.google.com/drive/api/guides/shortcuts             (mimeType application/vnd.google-apps
                 .shortcut, shortcutDetails {targetId, targetMimeType}; the name may differ from the target's)
  [errors]     https://developers.google.com/drive/api/guides/handle-errors         ({"error": {"code", "message",
                 "errors": [{"domain", "reason", "message", "locationType", "location"}]}}; 401 authError "Invalid
                 Credentials"; 403 userRateLimitExceeded / rateLimitExceeded (back off), 403 insufficientFilePermissions
                 (a refusal); 404 notFound "File not found: ID."; 429 rateLimitExceeded; 400 invalid for a bad q)
  [limits]     https://developers.google.com/drive/api/guides/limits               (over the quota: 403 User rate limit
                 exceeded; more checks may answer 429; exponential backoff)
  [bearer]     https://developers.google.com/identity/protocols/oauth2/native-app#callinganapi  (Authorization: Bearer;
                 the access_token query parameter is not used by this emulator's client and is logged when seen)
  [native]     https://developers.google.com/identity/protocols/oauth2/native-app   (desktop apps: authorization code +
                 PKCE, redirect_uri http://127.0.0.1:PORT/ on any port, access_type=offline for a refresh token,
                 prompt=consent to get one again; the token endpoint takes client_id and client_secret, answers
                 access_token, expires_in (seconds), refresh_token (on a code, when offline), scope, token_type
                 Bearer; a refresh answers no new refresh token; a revoked or expired refresh token: 400 invalid_grant
                 "Token has been expired or revoked."; testing-mode apps' refresh tokens end after 7 days)
  [capabilities] https://developers.google.com/drive/api/reference/rest/v3/files#capabilities  (capabilities.canReadRevisions:
                 "Whether the current user can read the revisions resource of this file" — false for a file shared
                 with the user as a viewer or commenter; asked as fields=capabilities(canReadRevisions))
  [viewer]     https://github.com/googleapis/google-api-python-client/issues/1743 (reading a file's revisions needs more
                 than viewer rights: 403 "The user does not have sufficient permissions for file", reason
                 insufficientFilePermissions) and .../guides/manage-downloads (files.get alt=media downloads the
                 file's current content, which a viewer may read)
  [rfc7636]    https://datatracker.ietf.org/doc/html/rfc7636#section-4.6          (S256 check of code_verifier)
  [rfc9110]    https://www.rfc-editor.org/rfc/rfc9110#section-14                  (Range, 206, Content-Range, 416)
  Shared: emulator_http.py (the handler, the log, /_control, Range serving).
"""
import base64, hashlib, json, os, re, secrets, sys, time, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emulator_http import EmulatorHandler, arguments, lock, mint, s256, serve
from google_drive_query import parse_q, select, split_fields

FOLDER = "application/vnd.google-apps.folder"
SHORTCUT = "application/vnd.google-apps.shortcut"
DOCUMENT = "application/vnd.google-apps.document"
SCOPE = "https://www.googleapis.com/auth/drive.readonly"

state = {
    "permanent": set(),        # tokens given in the config file: never expire
    "access": {},              # access token -> expiry (monotonic)
    "refresh": {},             # refresh token -> valid (False: revoked)
    "codes": {},               # authorization code -> {challenge, redirect_uri, offline}
    "consented": set(),        # clients the user has approved once (a refresh token only then, or on prompt=consent)
    "access_ttl": 3599.0,      # [native]: expires_in of Google's access tokens
    "busy": [],                # pending 429 rateLimitExceeded: [retry_after, ...] [errors]
    "rate_limit": 0,           # the next N Drive requests answer 403 userRateLimitExceeded [limits]
    "forbid": None,            # Drive requests about paths containing this answer 403 insufficientFilePermissions
    "viewer": None,            # files whose paths contain this are shared with the user as a viewer [capabilities] [viewer]
    "bad_json": None,          # listings of folders whose path contains this answer broken JSON
    "log": [],
}
ROOT = "0AExampleMyDriveRootUk9PVA"
ids = {"": ROOT}               # path below the root -> id ("" is My Drive's root, known as "root" too) [get]
paths = {ROOT: "", "root": ""}
args = None


# ---- the drive ----

def id_of(path):
    """An opaque id, stable while the emulator runs (a file's new content keeps its id) [files]."""
    with lock:
        if path not in ids:
            ident = "1" + secrets.token_urlsafe(24).replace("-", "A").replace("_", "B")
            ids[path], paths[ident] = ident, path
        return ids[path]


def shown_name(entry):
    """The item's name in Drive: the file name less .gdoc/.gshortcut and ~twinN."""
    for suffix in (".gdoc", ".gshortcut"):
        if entry.endswith(suffix):
            entry = entry[:-len(suffix)]
    return re.sub(r"~twin\d*$", "", entry)


hash_cache = {}


def md5(full):
    st = os.stat(full)
    key = (full, st.st_mtime_ns, st.st_size)
    if key not in hash_cache:
        hash_cache[key] = hashlib.md5(open(full, "rb").read()).hexdigest()
    return hash_cache[key]


def resource(path):
    """The file resource of `path` [files] [mime] [shortcuts], every field (the fields parameter picks)."""
    full = os.path.join(args.root, path)
    entry = os.path.basename(path)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(os.path.getmtime(full)))
    item = {"kind": "drive#file", "id": id_of(path), "name": shown_name(entry) if path else "My Drive", "modifiedTime": stamp,
            "parents": [id_of(os.path.dirname(path))] if path else [], "trashed": False}
    if os.path.isdir(full):
        item["mimeType"] = FOLDER
    elif entry.endswith(".gdoc"):
        item["mimeType"] = DOCUMENT
    elif entry.endswith(".gshortcut"):
        target = open(full).read().strip().strip("/")
        target_full = os.path.join(args.root, target)
        item["mimeType"] = SHORTCUT
        item["shortcutDetails"] = {"targetId": id_of(target),
                                   "targetMimeType": FOLDER if os.path.isdir(target_full) else "audio/mpeg"}
    else:
        item["mimeType"] = "audio/mpeg"
        item["size"] = str(os.path.getsize(full))
        item["md5Checksum"] = md5(full)
        item["headRevisionId"] = "0B" + item["md5Checksum"][:20]  # [revisions]: a new one for new content
    item["capabilities"] = {"canReadRevisions": not viewer(path), "canDownload": True}  # [capabilities]
    return item


def viewer(path):
    """Whether `path` is shared with the user as a viewer (`viewer` control) [viewer]."""
    with lock:
        mark = state["viewer"]
    return bool(mark) and mark in path


def children(path):
    full = os.path.join(args.root, path)
    return [os.path.join(path, e) if path else e for e in sorted(os.listdir(full))]


def issue(offline):
    """A token answer [native]: a refresh token on a code only when offline access was asked."""
    access, ttl, refresh = mint(state, "ya29.acc-", "1//rt-" if offline else None)
    answer = {"access_token": access, "expires_in": ttl, "scope": SCOPE, "token_type": "Bearer"}
    if refresh:
        answer["refresh_token"] = refresh
    return answer

class Handler(EmulatorHandler):
    state = state

    def details(self):
        return {"body": getattr(self, "body_text", None)}

    def error(self, status, reason, message, domain="global", headers=None, location=None):
        """An error body [errors]."""
        item = {"domain": domain, "reason": reason, "message": message}
        if location:
            item.update({"locationType": location[0], "location": location[1]})
        self.send(status, {"error": {"code": status, "message": message, "errors": [item]}}, headers)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length).decode() if length else ""

    def authorized(self):
        """Authorization: Bearer [bearer]; 401 authError [errors] with WWW-Authenticate."""
        header = self.headers.get("Authorization") or ""
        token = header[7:].strip() if header.startswith("Bearer ") else ""
        with lock:
            good = token in state["permanent"] or state["access"].get(token, 0) > time.monotonic()
        if not good:
            self.error(401, "authError", "Invalid Credentials", headers={"WWW-Authenticate": 'Bearer realm="https://accounts.google.com/"'},
                       location=("header", "Authorization"))
        return good

    def limited(self):
        """[limits] 403 userRateLimitExceeded for the next `rate_limit` requests; [errors] 429 with Retry-After."""
        with lock:
            limited = state["rate_limit"] > 0
            if limited:
                state["rate_limit"] -= 1
            wait = state["busy"].pop(0) if state["busy"] and not limited else None
        if limited:
            self.error(403, "userRateLimitExceeded", "User Rate Limit Exceeded. Rate of requests for user exceed configured project quota.",
                       domain="usageLimits")
            return True
        if wait is not None:
            self.error(429, "rateLimitExceeded", "Rate Limit Exceeded", domain="usageLimits", headers={"Retry-After": str(wait)})
            return True
        return False

    def forbidden(self, path):
        """[errors] 403 insufficientFilePermissions: a refusal, not a rate limit."""
        with lock:
            forbid = state["forbid"]
        if forbid and forbid in path:
            self.error(403, "insufficientFilePermissions", "The user does not have sufficient permissions for file %s." % id_of(path))
            return True
        return False

    def on_get(self, url, query):
        if url.path == "/_control/id":
            # For the tests: the id of a path (what a user reads in a folder's address in Drive).
            return self.send(200, {"id": id_of(query.get("path", "").strip("/"))})
        if self.server_kind == "accounts":
            if url.path == "/o/oauth2/v2/auth":
                return self.authorize(query)
            return self.send(404, "Not found", content_type="text/plain")
        if query.get("alt") == "media":
            self.server_kind = "media"
        else:
            self.server_kind = "api"
        if not url.path.startswith("/drive/v3/files"):
            return self.error(404, "notFound", "Not Found")
        if not self.authorized() or self.limited():
            return
        rest = url.path[len("/drive/v3/files"):]
        if rest == "":
            return self.list(query)
        ident, _, revision = rest.lstrip("/").partition("/revisions/")
        ident, revision = urllib.parse.unquote(ident), urllib.parse.unquote(revision)
        with lock:
            path = paths.get(ident)
        if path is None or not os.path.lexists(os.path.join(args.root, path)):
            return self.error(404, "notFound", "File not found: %s." % ident, location=("parameter", "fileId"))
        if self.forbidden(path):
            return
        item = resource(path)
        if revision and viewer(path):
            # [viewer]: a viewer cannot read revisions, not even the head one
            return self.error(403, "insufficientFilePermissions", "The user does not have sufficient permissions for file %s." % ident)
        if revision and revision != item.get("headRevisionId"):
            return self.error(404, "notFound", "Revision not found: %s." % revision, location=("parameter", "revisionId"))
        if query.get("alt") == "media":
            return self.media(path, item)
        fields = query.get("fields", "kind,id,name,mimeType")
        self.send(200, select(item, fields))

    def list(self, query):
        """files.list [list] [search] [fields]: what the q names, by name, a page at a time."""
        q = query.get("q", "")
        parsed = parse_q(q)
        if parsed is None:
            return self.error(400, "invalid", "Invalid Value", location=("parameter", "q"))
        parent, name = parsed
        with lock:
            folder = paths.get(parent)
        if folder is None or not os.path.isdir(os.path.join(args.root, folder)):
            # [search]: a parent that is not a folder matches nothing
            entries = []
        else:
            if self.forbidden(folder):
                return
            with lock:
                bad = state["bad_json"]
            if bad and bad in "/" + folder:
                return self.send(200, '{"files": [{"id": 42, "name":')
            entries = [resource(p) for p in children(folder)]
        if name is not None:
            entries = [e for e in entries if e["name"] == name]
        size = int(query.get("pageSize", "100"))
        if not 1 <= size <= 1000:
            return self.error(400, "invalid", "Invalid value for pageSize", location=("parameter", "pageSize"))
        start = 0
        if "pageToken" in query:
            try:
                token = json.loads(base64.urlsafe_b64decode(query["pageToken"].encode()))
                assert token["q"] == q
                start = int(token["offset"])
            except Exception:
                return self.error(400, "invalid", "Invalid Value", location=("parameter", "pageToken"))
        page = entries[start:start + size]
        answer = {"kind": "drive#fileList", "incompleteSearch": False}
        if start + size < len(entries):
            answer["nextPageToken"] = base64.urlsafe_b64encode(json.dumps({"q": q, "offset": start + size}).encode()).decode()
        fields = query.get("fields")
        if fields is None:
            answer["files"] = [select(e, "kind,id,name,mimeType") for e in page]
        else:
            chosen = split_fields(fields)
            answer = {k: v for k, v in answer.items() if k in chosen}
            if "files" in chosen:
                answer["files"] = [select(e, chosen["files"]) if chosen["files"] else e for e in page]
        self.send(200, answer)

    def media(self, path, item):
        """alt=media [download]: the bytes with Range [rfc9110]; a Docs file, a folder or a shortcut has none."""
        if item["mimeType"].startswith("application/vnd.google-apps."):
            return self.error(403, "fileNotDownloadable", "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
                              location=("parameter", "alt"))
        full = os.path.join(args.root, path)
        self.send_file(full, os.path.getsize(full), {}, "audio/mpeg")

    # ---- accounts ----

    def authorize(self, query):
        """The user approves at once [native]: 302 to the loopback redirect_uri with code and state; PKCE S256 [rfc7636]."""
        redirect = query.get("redirect_uri", "")
        if query.get("response_type") != "code" or query.get("client_id") != args.client_id:
            return self.send(400, "Error 401: invalid_client", content_type="text/plain")
        if not re.fullmatch(r"http://(127\.0\.0\.1|\[::1\]|localhost):\d+/?.*", redirect):
            return self.send(400, "Error 400: redirect_uri_mismatch", content_type="text/plain")
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return self.send(400, "Error 400: invalid_request (PKCE S256 required by this emulator)", content_type="text/plain")
        if SCOPE not in query.get("scope", "").split():
            return self.send(400, "Error 400: invalid_scope", content_type="text/plain")
        offline = query.get("access_type") == "offline"
        with lock:
            # [native]: a refresh token comes with the first consent, or with prompt=consent
            fresh = args.client_id not in state["consented"] or query.get("prompt") == "consent"
            state["consented"].add(args.client_id)
            code = "4/0A" + secrets.token_urlsafe(24)
            state["codes"][code] = {"challenge": query["code_challenge"], "redirect_uri": redirect, "offline": offline and fresh}
        target = redirect + ("&" if "?" in redirect else "?") + urllib.parse.urlencode({"code": code, "scope": SCOPE, "state": query.get("state", "")})
        self.send(302, "", {"Location": target}, content_type="text/plain")

    def on_post(self, url):
        body = self.read_body()
        if self.server_kind == "accounts" and url.path == "/token":
            form = {k: v[0] for k, v in urllib.parse.parse_qs(body).items()}
            self.body_text = "grant_type=%s" % form.get("grant_type")
            return self.token(form)
        self.send(404, "Not found", content_type="text/plain")

    def token(self, form):
        """[native] [rfc7636]: a desktop app's client_id and client_secret; a code with its verifier, or a refresh token."""
        if form.get("client_id") != args.client_id or form.get("client_secret") != args.client_secret:
            return self.send(401, {"error": "invalid_client", "error_description": "Unauthorized"})
        grant = form.get("grant_type")
        if grant == "refresh_token":
            with lock:
                valid = state["refresh"].get(form.get("refresh_token", ""), False)
            if not valid:
                return self.send(400, {"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
            return self.send(200, issue(False))
        if grant == "authorization_code":
            with lock:
                code = state["codes"].pop(form.get("code", ""), None)
            if code is None or code["challenge"] != s256(form.get("code_verifier", "")) or code["redirect_uri"] != form.get("redirect_uri"):
                return self.send(400, {"error": "invalid_grant", "error_description": "Bad Request"})
            return self.send(200, issue(code["offline"]))
        self.send(400, {"error": "unsupported_grant_type", "error_description": "Invalid grant_type: %s" % grant})


class Accounts(Handler):
    server_kind = "accounts"


def main():
    global args
    parser = arguments("accounts", "test-client.apps.googleusercontent.com")
    parser.add_argument("--client-secret", default="GOCSPX-test-secret")
    args = parser.parse_args()
    state["permanent"].update(args.token)
    serve((Handler, args.api_port), (Accounts, args.accounts_port))


if __name__ == "__main__":
    main()
