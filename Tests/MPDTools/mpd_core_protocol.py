#!/usr/bin/env python3
"""Protocol details of cloudplayerd's MPD server, through python-mpd2 and a raw socket.

Usage: mpd_core_protocol.py PORT TRACK_URL [PASSWORD]
Prints one line per failed check and exits 1 if any failed; prints "ok" otherwise.
"""
import socket
import sys

import mpd

port = int(sys.argv[1])
track = sys.argv[2]
password = sys.argv[3] if len(sys.argv) > 3 else None
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def client():
    c = mpd.MPDClient()
    c.timeout = 30
    c.idletimeout = 30
    c.connect("127.0.0.1", port)
    if password:
        c.password(password)
    return c


def raw(lines):
    """Sends lines on a fresh connection; returns the answer lines up to OK/ACK of the last."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    f = s.makefile("rb")
    f.readline()
    if password:
        s.sendall(b"password %s\n" % password.encode())
        f.readline()
    s.sendall(("\n".join(lines) + "\n").encode())
    answer = []
    while True:
        line = f.readline()
        if not line:
            break
        text = line.decode().rstrip("\n")
        answer.append(text)
        if text == "OK" or text.startswith("ACK "):
            break
    s.close()
    return answer


c = client()
check(c.mpd_version == "0.23.5", "version %r" % c.mpd_version)

# Command lists: list_OK after each, one result per command.
c.command_list_ok_begin()
c.ping()
c.status()
c.currentsong()
results = c.command_list_end()
check(len(results) == 3, "command_list_ok_begin gave %r" % (results,))
check(raw(["command_list_ok_begin", "ping", "ping", "command_list_end"]) == ["list_OK", "list_OK", "OK"],
      "raw command list")
check(raw(["command_list_begin", "ping", "frobnicate", "ping", "command_list_end"]) == ['ACK [5@1] {} unknown command "frobnicate"'],
      "an unknown command in a list: %r" % raw(["command_list_begin", "ping", "frobnicate", "ping", "command_list_end"]))

# ACK formats.
check(raw(["status extra"]) == ['ACK [2@0] {status} wrong number of arguments for "status"'], "argument count: %r" % raw(["status extra"]))
check(raw(["play abc"]) == ["ACK [2@0] {play} Integer expected: abc"], "play abc: %r" % raw(["play abc"]))
check(raw(["playid 99999"]) == ["ACK [50@0] {playid} No such song"], "playid: %r" % raw(["playid 99999"]))
check(raw(["consume 1"])[0].startswith("ACK [52@0] {consume} "), "consume 1: %r" % raw(["consume 1"]))
check(raw(["consume 0"]) == ["OK"], "consume 0")
quoted = raw(['add "unterminated'])
check(len(quoted) == 1 and quoted[0].startswith("ACK [") and "Missing closing" in quoted[0], "quote: %r" % quoted)
check(raw(["binarylimit 10"]) == ["ACK [2@0] {binarylimit} Value too small"], "binarylimit 10: %r" % raw(["binarylimit 10"]))
check(raw(["binarylimit 128"]) == ["OK"], "binarylimit 128")
check(raw(["idle bogus"]) == ["ACK [2@0] {idle} Unrecognized idle event: bogus"], "idle bogus: %r" % raw(["idle bogus"]))

# Idle: each subsystem a command changes, seen by another client (a raw one: python-mpd2 3
# idles only in blocking calls).
class Watcher:
    def __init__(self):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.f = self.s.makefile("rb")
        self.f.readline()
        if password:
            self.s.sendall(b"password %s\n" % password.encode())
            self.f.readline()

    def send(self, line):
        self.s.sendall((line + "\n").encode())

    def answer(self):
        lines = []
        while True:
            text = self.f.readline().decode().rstrip("\n")
            if text == "OK" or text.startswith("ACK") or not text:
                return lines
            lines.append(text)


watcher = Watcher()
for subsystem, act in [
    ("mixer", lambda: c.setvol(30)),
    ("options", lambda: c.repeat(1)),
    ("playlist", lambda: c.add(track)),
    ("player", lambda: c.play(0)),
    ("output", lambda: c.disableoutput(0)),
]:
    watcher.send("idle " + subsystem)
    act()
    changed = watcher.answer()
    check(changed == ["changed: " + subsystem], "idle %s gave %r" % (subsystem, changed))
c.enableoutput(0)
watcher.send("idle stored_playlist")
watcher.send("noidle")
check(watcher.answer() == [], "noidle")
# A change while not idle is kept for the next idle.
c.setvol(40)
watcher.send("idle mixer")
check(watcher.answer() == ["changed: mixer"], "a change before idle")
check(raw(["getvol"]) == ["volume: 40", "OK"], "getvol: %r" % raw(["getvol"]))

# ReplayGain: what Cantata asks at every track change, and sets (idle options, as MPD).
check(c.replay_gain_status() == "off", "replay_gain_status: %r" % c.replay_gain_status())
watcher.send("idle options")
c.replay_gain_mode("album")
check(watcher.answer() == ["changed: options"], "idle options after replay_gain_mode")
check(c.replay_gain_status() == "album", "replay_gain_status after album: %r" % c.replay_gain_status())
try:
    c.replay_gain_mode("loud")
    check(False, "replay_gain_mode loud was taken")
except mpd.CommandError as error:
    check("Unrecognized replay gain mode" in str(error), "replay_gain_mode loud: %s" % error)
c.replay_gain_mode("off")

# Password and permissions.
if password:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    f = s.makefile("rb")
    f.readline()
    for line, expected in [
        ("status", 'ACK [4@0] {status} you don\'t have permission for "status"'),
        ("ping", "OK"),
        ("password wrong", "ACK [3@0] {password} incorrect password"),
        ("password " + password, "OK"),
    ]:
        s.sendall((line + "\n").encode())
        got = f.readline().decode().rstrip("\n")
        check(got == expected, "%s: %r" % (line.split()[0], got))
    s.sendall(b"status\n")
    answer = []
    while True:
        got = f.readline().decode().rstrip("\n")
        answer.append(got)
        if got == "OK" or got.startswith("ACK") or not got:
            break
    check(answer[-1] == "OK" and answer[0].startswith("volume:"), "status after the password: %r" % answer[:2])
    s.close()

for failure in failures:
    print(failure)
print("ok" if not failures else "%d failed" % len(failures))
sys.exit(1 if failures else 0)
