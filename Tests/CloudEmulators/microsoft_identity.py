"""The Microsoft identity platform's tokens, for onedrive.py: device codes, authorization codes
with PKCE, access and refresh tokens, revocation and expiry.

Docs:
  [device]    https://learn.microsoft.com/entra/identity-platform/v2-oauth2-device-code
  [code]      https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow  (authorize, PKCE)
  [refresh]   https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow#refresh-the-access-token
                (a refresh answers a new refresh token; use it)
  [rfc8628]   https://datatracker.ietf.org/doc/html/rfc8628#section-3.5  (authorization_pending, slow_down, expired_token)
  [rfc6749]   https://datatracker.ietf.org/doc/html/rfc6749#section-5    (token answers; invalid_grant)
  [rfc7636]   https://datatracker.ietf.org/doc/html/rfc7636#section-4.6  (S256 check of code_verifier)
"""
import base64, hashlib, secrets, threading, time, urllib.parse


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
