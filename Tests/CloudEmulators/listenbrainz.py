"""A local ListenBrainz API server for the scrobbling tests, written from the public API
documentation (no internet here). Each behaviour names the page it follows:

  [core]  https://listenbrainz.readthedocs.io/en/latest/users/api/core.html
          POST /1/submit-listens (200 accepted, 400 invalid JSON, 401 invalid authorization),
          GET /1/validate-token, GET /1/user/<name>/listens, GET /1/user/<name>/playing-now,
          and the constants MAX_LISTENS_PER_REQUEST, MAX_LISTEN_SIZE, MAX_LISTEN_PAYLOAD_SIZE,
          LISTEN_MINIMUM_TS.
  [json]  https://listenbrainz.readthedocs.io/en/latest/users/json.html
          listen_type single / playing_now / import; payload sizes; no timestamp in playing_now;
          artist_name and track_name required; duration or duration_ms, not both.
  [auth]  https://listenbrainz.readthedocs.io/en/latest/users/api/index.html ("Authentication")
          "Authorization: Token <user token>".
  [rate]  the same page, "Rate limiting": X-RateLimit-Limit, -Remaining, -Reset-In, -Reset on
          every answer; 429 when the window's requests are used up.

A listen is stored once per user, listened_at and recording (here: artist and track name): the
service names a listen by its time and recording ([core], POST /1/delete-listen), so one sent
twice — a client that crashed before it heard "ok" — is recorded once.

Test-only controls (not part of the API) live under /_emulator/:
  GET  /_emulator/state      -> {"listens": [...], "playing_now": [...], "answers": [[type, count, status], ...]}
  POST /_emulator/configure  {"tokens": {"TOKEN": "user"}, "limit": N, "window": S,
                              "fail": N (answer N submissions with 503), "rate_limit": N (answer N with 429),
                              "hang_after_store": S (store, then wait S seconds before answering)}

  listenbrainz.py PORT_FILE TOKEN=USER...   serves on a free port of 127.0.0.1 and writes it to PORT_FILE
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# [core] constants.
MAX_LISTENS_PER_REQUEST = 1000
MAX_LISTEN_SIZE = 10240
MAX_LISTEN_PAYLOAD_SIZE = MAX_LISTENS_PER_REQUEST * MAX_LISTEN_SIZE
LISTEN_MINIMUM_TS = 1033430400

lock = threading.RLock()
state = {
    "tokens": {},
    "limit": 60,
    "window": 10.0,
    "fail": 0,
    "rate_limit": 0,
    "hang_after_store": 0.0,
    "listens": [],          # as stored: {"user", "listened_at", "track_metadata"}
    "keys": set(),
    "playing_now": [],
    "answers": [],          # [listen_type, count, status] per submission, in order
    "window_start": 0.0,
    "used": 0,
}


class InvalidListen(Exception):
    pass


def check_listen(listen, listen_type):
    """[json]: the shape of one listen; InvalidListen with the service's kind of message."""
    if not isinstance(listen, dict):
        raise InvalidListen("Listen is not a JSON object.")
    if len(json.dumps(listen).encode()) > MAX_LISTEN_SIZE:
        raise InvalidListen("Listen size exceeds max size %d bytes." % MAX_LISTEN_SIZE)
    if listen_type == "playing_now":
        if "listened_at" in listen:
            raise InvalidListen("Listen type playing_now must not contain listened_at.")
    else:
        at = listen.get("listened_at")
        if not isinstance(at, int) or isinstance(at, bool):
            raise InvalidListen("Listen must contain an integer listened_at.")
        if at < LISTEN_MINIMUM_TS:
            raise InvalidListen("Value for key listened_at is too low. listened_at timestamp should be greater than 1033410600 (2002-10-01 00:00:00 UTC).")
    metadata = listen.get("track_metadata")
    if not isinstance(metadata, dict):
        raise InvalidListen("JSON document must contain the key track_metadata at the top level.")
    for key in ("artist_name", "track_name"):
        value = metadata.get(key)
        if not isinstance(value, str) or not value.strip():
            raise InvalidListen("JSON document does not contain required track_metadata.%s." % key)
    info = metadata.get("additional_info", {})
    if not isinstance(info, dict):
        raise InvalidListen("track_metadata.additional_info must be a JSON object.")
    if "duration" in info and "duration_ms" in info:
        raise InvalidListen("JSON document should not contain both duration and duration_ms.")
    for key in ("duration", "duration_ms"):
        if key in info and (not isinstance(info[key], int) or info[key] <= 0):
            raise InvalidListen("Value for %s is invalid, should be a positive integer." % key)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, rate=True):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if rate:
            with lock:
                remaining = max(state["limit"] - state["used"], 0)
                reset_in = max(state["window_start"] + state["window"] - time.time(), 0)
            # [rate] on every answer.
            self.send_header("X-RateLimit-Limit", str(state["limit"]))
            self.send_header("X-RateLimit-Remaining", str(remaining))
            self.send_header("X-RateLimit-Reset-In", str(int(reset_in + 0.999)))
            self.send_header("X-RateLimit-Reset", str(int(time.time() + reset_in)))
        self.end_headers()
        self.wfile.write(data)

    def user(self):
        """[auth]: the user a `Token` header names, or None."""
        header = self.headers.get("Authorization", "")
        if not header.startswith("Token "):
            return None
        return state["tokens"].get(header[len("Token "):].strip())

    def spend(self):
        """[rate]: counts a request in the window; False when the window has none left."""
        with lock:
            now = time.time()
            if now >= state["window_start"] + state["window"]:
                state["window_start"], state["used"] = now, 0
            if state["used"] >= state["limit"]:
                return False
            state["used"] += 1
            return True

    def body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/_emulator/state":
            with lock:
                return self.answer(200, {"listens": state["listens"], "playing_now": state["playing_now"],
                                         "answers": state["answers"]}, rate=False)
        if not self.spend():
            return self.answer(429, {"code": 429, "error": "Too many requests."})
        if path == "/1/validate-token":
            user = self.user()
            # [core] validate-token: 200 either way, "valid" says which.
            if user is None:
                return self.answer(200, {"code": 200, "message": "Token invalid.", "valid": False})
            return self.answer(200, {"code": 200, "message": "Token valid.", "valid": True, "user_name": user})
        parts = path.strip("/").split("/")
        if len(parts) == 4 and parts[:2] == ["1", "user"] and parts[3] in ("listens", "playing-now"):
            name = parts[2]
            with lock:
                if parts[3] == "listens":
                    # [core] newest first.
                    listens = sorted((l for l in state["listens"] if l["user"] == name), key=lambda l: -l["listened_at"])
                    shown = [{"listened_at": l["listened_at"], "track_metadata": l["track_metadata"], "user_name": name} for l in listens]
                    return self.answer(200, {"payload": {"count": len(shown), "listens": shown, "user_id": name}})
                now = [p for p in state["playing_now"] if p["user"] == name][-1:]
                shown = [{"playing_now": True, "track_metadata": p["track_metadata"]} for p in now]
                return self.answer(200, {"payload": {"count": len(shown), "listens": shown, "playing_now": True, "user_id": name}})
        return self.answer(404, {"code": 404, "error": "Not found"})

    def do_POST(self):
        path = self.path.split("?")[0]
        raw = self.body()
        if path == "/_emulator/configure":
            changes = json.loads(raw or b"{}")
            with lock:
                for key, value in changes.items():
                    state[key] = value
                if "limit" in changes or "window" in changes:
                    state["window_start"], state["used"] = time.time(), 0  # a new window from now
            return self.answer(200, {"status": "ok"}, rate=False)
        if path != "/1/submit-listens":
            return self.answer(404, {"code": 404, "error": "Not found"})
        if not self.spend():
            self.record("?", 0, 429)
            return self.answer(429, {"code": 429, "error": "Too many requests."})
        user = self.user()
        if user is None:
            self.record("?", 0, 401)
            # [core] 401 invalid authorization.
            return self.answer(401, {"code": 401, "error": "Invalid authorization token."})
        with lock:
            forced = "rate_limit" if state["rate_limit"] > 0 else "fail" if state["fail"] > 0 else None
            if forced:
                state[forced] -= 1
        if forced == "rate_limit":
            self.record("?", 0, 429)
            return self.answer(429, {"code": 429, "error": "Too many requests."})
        if forced == "fail":
            self.record("?", 0, 503)
            return self.answer(503, {"code": 503, "error": "Service unavailable."})
        listen_type = "?"
        try:
            if len(raw) > MAX_LISTEN_PAYLOAD_SIZE:
                raise InvalidListen("Payload too large.")
            document = json.loads(raw)
            listen_type = document.get("listen_type") if isinstance(document, dict) else None
            if listen_type not in ("single", "playing_now", "import"):
                listen_type = "?"
                raise InvalidListen("JSON document must contain listen_type: single, playing_now or import.")
            payload = document.get("payload")
            if not isinstance(payload, list) or not payload:
                raise InvalidListen("JSON document must contain a non-empty payload.")
            if listen_type in ("single", "playing_now") and len(payload) != 1:
                raise InvalidListen("JSON document should contain exactly one listen for %s." % listen_type)
            if len(payload) > MAX_LISTENS_PER_REQUEST:
                raise InvalidListen("Too many listens. You may not submit more than %d listens at once." % MAX_LISTENS_PER_REQUEST)
            for listen in payload:
                check_listen(listen, listen_type)
        except (ValueError, InvalidListen) as error:
            self.record(listen_type, 0, 400)
            return self.answer(400, {"code": 400, "error": str(error)})
        with lock:
            if listen_type == "playing_now":
                state["playing_now"].append({"user": user, "track_metadata": payload[0]["track_metadata"]})
            else:
                for listen in payload:
                    meta = listen["track_metadata"]
                    key = (user, listen["listened_at"], meta["artist_name"], meta["track_name"])
                    if key in state["keys"]:
                        continue
                    state["keys"].add(key)
                    state["listens"].append({"user": user, "listened_at": listen["listened_at"], "track_metadata": meta})
            hang = state["hang_after_store"]
        self.record(listen_type, len(payload), 200)
        if hang:
            time.sleep(hang)
        return self.answer(200, {"status": "ok"})

    def record(self, listen_type, count, status):
        with lock:
            state["answers"].append([listen_type, count, status])


def main():
    port_file = sys.argv[1]
    for pair in sys.argv[2:]:
        token, _, user = pair.partition("=")
        state["tokens"][token] = user
    state["window_start"] = time.time()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(port_file + ".tmp", "w") as file:
        file.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
