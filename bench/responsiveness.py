#!/usr/bin/env python3
"""How fast the player answers, judged from what a null sink records: the delay from a playerctl
command (pause, play, volume, seek) to its effect in the sound, and after the sound server restarts
under a playing player, the time from the server being back (with its sink) to sound, and where the
sound goes on compared with where it stopped. cloudplayerd's daemon and mpv + mpv-mpris, each on a
private PulseAudio and a private PipeWire (pipewire-pulse), one run. Called by bench/responsiveness.

The recording's clock is mapped to the wall clock by watching the recording file grow, so every
delay includes the recorder's own fragment (50 ms): a constant bias, the same for every player.
"""
import array, math, os, shutil, signal, subprocess, sys, tempfile, threading, time

RATE, CHANNELS = 44100, 2


def run(*args, env=None, check=True):
    return subprocess.run(args, env=env, check=check, capture_output=True, text=True)


class Recorder:
    """parec of a sink's monitor into a file, with (wall time, bytes) samples of its growth."""

    def __init__(self, env, sink, path):
        self.path, self.samples, self.stopping = path, [], False
        self.process = subprocess.Popen(["parec", "-d", f"{sink}.monitor", "--latency-msec=50", "--raw", "--format=s16le",
                                         f"--rate={RATE}", f"--channels={CHANNELS}", path], env=env)
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self):
        while not self.stopping:
            try:
                self.samples.append((time.monotonic(), os.path.getsize(self.path)))
            except OSError:
                pass
            time.sleep(0.005)

    def stop(self):
        time.sleep(0.3)
        self.stopping = True
        self.process.terminate()
        self.process.wait()
        self.thread.join()
        self.audio = array.array("h", open(self.path, "rb").read())

    def wall_time(self, frame):
        """When `frame` reached the file (the first growth sample past it)."""
        byte = frame * 2 * CHANNELS
        for moment, size in self.samples:
            if size > byte:
                return moment
        return math.inf

    def frame_at(self, moment):
        """The frame the file had reached at `moment`."""
        reached = 0
        for when, size in self.samples:
            if when > moment:
                break
            reached = size
        return reached // (2 * CHANNELS)

    def frames(self):
        return len(self.audio) // CHANNELS

    def rms(self, start, count):
        chunk = self.audio[start * CHANNELS:(start + count) * CHANNELS]
        return math.sqrt(sum(x * x for x in chunk) / len(chunk)) if chunk else 0.0

    def first_window(self, start, test, window=441):
        """The first 10 ms window from `start` on whose RMS passes `test`."""
        frame = start
        while frame + window <= self.frames():
            if test(self.rms(frame, window)):
                return frame
            frame += window
        return None


class Server:
    """A private PulseAudio or PipeWire (+ WirePlumber + pipewire-pulse) in `folder`."""

    def __init__(self, kind, folder):
        self.kind, self.folder, self.processes = kind, folder, []
        os.makedirs(folder, mode=0o700, exist_ok=True)
        self.env = dict(os.environ, XDG_RUNTIME_DIR=folder, HOME=folder, XDG_CONFIG_HOME=f"{folder}/config")
        if kind == "pipewire":
            os.makedirs(f"{folder}/config/pipewire/pipewire.conf.d", exist_ok=True)
            with open(f"{folder}/config/pipewire/pipewire.conf.d/rates.conf", "w") as conf:
                conf.write("context.properties = { default.clock.allowed-rates = [ 44100 48000 ] }\n")
            self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address=unix:path={folder}/bus"],
                                        stderr=subprocess.DEVNULL)
            self.env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={folder}/bus"
            self.env["PULSE_SERVER"] = f"unix:{folder}/pulse/native"
        else:
            self.env["PULSE_SERVER"] = f"unix:{folder}/native"

    def start(self):
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.env)
        if self.kind == "pipewire":
            self.processes = [subprocess.Popen(["pipewire"], **quiet)]
            for _ in range(100):
                if os.path.exists(f"{self.folder}/pipewire-0"):
                    break
                time.sleep(0.05)
            self.processes += [subprocess.Popen(["wireplumber"], **quiet), subprocess.Popen(["pipewire-pulse"], **quiet)]
        else:
            self.processes = [subprocess.Popen(["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1",
                                                f"--load=module-native-protocol-unix auth-anonymous=1 socket={self.folder}/native"],
                                               **quiet)]
        for _ in range(200):
            if run("pactl", "info", env=self.env, check=False).returncode == 0:
                break
            time.sleep(0.05)
        run("pactl", "load-module", "module-null-sink", "sink_name=bench", f"rate={RATE}", f"channels={CHANNELS}",
            "format=s16le", env=self.env)
        run("pactl", "set-default-sink", "bench", env=self.env)
        return time.monotonic()

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            process.wait()
        self.processes = []

    def close(self):
        self.stop()
        if self.kind == "pipewire":
            self.bus.terminate()
            self.bus.wait()


def playerctl(name, env, *args):
    return run("playerctl", "-p", name, *args, env=env, check=False).stdout.strip()


def measure(kind, player, command, sample, work):
    """One row: (pause, play, volume, seek delays in ms, time to sound in s, resumed - kept in s)."""
    folder = tempfile.mkdtemp(dir=work)
    server = Server(kind, f"{folder}/run")
    server.start()
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address=unix:path={folder}/session"],
                           stderr=subprocess.DEVNULL)
    env = dict(server.env, DBUS_SESSION_BUS_ADDRESS=f"unix:path={folder}/session", XDG_DATA_HOME=f"{folder}/data",
               XDG_CACHE_HOME=f"{folder}/cache")
    time.sleep(0.3)
    recorder = Recorder(env, "bench", f"{folder}/a.raw")
    daemon = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if player in run("busctl", "--user", "list", "--acquired", env=env, check=False).stdout:
                break
            time.sleep(0.05)
        playerctl(player, env, "open", f"file://{sample}")
        time.sleep(4)

        def timed(args, settle=1.5):
            moment = time.monotonic()
            playerctl(player, env, *args)
            time.sleep(settle)
            return moment

        t_pause = timed(["pause"])
        t_play = timed(["play"], 2)
        t_seek = timed(["position", "30"], 2)
        t_volume = timed(["volume", "0.5"], 2)
        timed(["volume", "1.0"], 2)  # the samples unscaled again, to find the place after the restart
        kept = float(playerctl(player, env, "position") or "nan")
        server.stop()
        recorder.stop()
        time.sleep(1)
        back = server.start()
        second = Recorder(env, "bench", f"{folder}/b.raw")
        time.sleep(6)
        second.stop()

        loud = recorder.rms(recorder.frame_at(t_pause) - 4410, 4410)
        silent = recorder.first_window(recorder.frame_at(t_pause) - 441, lambda level: level < 1)
        sounding = recorder.first_window(recorder.frame_at(t_play) - 441, lambda level: level > loud / 4)
        halved = recorder.first_window(recorder.frame_at(t_volume) - 441, lambda level: level < loud * 0.6)
        delays = [recorder.wall_time(frame) - moment if frame is not None else math.inf
                  for frame, moment in ((silent, t_pause), (sounding, t_play), (halved, t_volume))]
        # The seek: a stretch heard well after the command, found in the sample, says where the
        # seek landed and so which recorded frame was its first (a player may land near 30 s,
        # not on it).
        reference = array.array("h", run_bytes(["mpg123", "-q", "-s", sample]))
        later = recorder.frame_at(t_seek + 1)
        probe = recorder.audio[later * CHANNELS:(later + 256) * CHANNELS].tobytes()
        found = reference.tobytes().find(probe) // (2 * CHANNELS)
        landed = later - (found - 30 * RATE)
        delays.append(recorder.wall_time(landed) - t_seek if found >= 0 and abs(found - 31 * RATE) < RATE else math.inf)

        first = second.first_window(0, lambda level: level > 1)
        if first is None:
            return [d * 1000 for d in delays] + [math.inf, math.nan]
        to_sound = second.wall_time(first) - back
        heard = second.audio[(first + 4410) * CHANNELS:(first + 4410 + 1024) * CHANNELS].tobytes()
        at = reference.tobytes().find(heard)
        resumed = ((at // (2 * CHANNELS)) - 4410) / RATE if at >= 0 else math.nan
        return [d * 1000 for d in delays] + [to_sound, resumed - kept]
    finally:
        daemon.terminate()
        daemon.wait()
        bus.terminate()
        bus.wait()
        server.close()


def run_bytes(args):
    return subprocess.run(args, check=True, capture_output=True).stdout


def main():
    player_binary, sample = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp()
    players = [("cloudplayerd", "cloudplayerd", [player_binary, "daemon", "--output", "pulse"]),
               ("mpv + mpv-mpris", "mpv", ["mpv", "--no-config", "--idle=yes", "--no-video", "--ao=pulse",
                                          "--script=/usr/lib/mpv-mpris/mpris.so"])]
    rows = []
    try:
        for kind in ("pulseaudio", "pipewire"):
            for label, name, command in players:
                rows.append((kind, label, measure(kind, name, command, sample, work)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print("Command to effect in the sound (ms; each includes the recorder's ~50 ms fragment), and a sound")
    print("server restart under a playing player: time to sound once it is back (s), resumed minus kept place (s)")
    print(f"{'':11} {'':16} | {'pause':>6} {'play':>6} {'volume':>7} {'seek':>6} | {'to sound':>8} {'resumed':>8}")
    for kind, label, values in rows:
        pause, play, volume, seek, to_sound, offset = values
        cell = lambda value, digits=0: "never" if value == math.inf else ("-" if value != value else f"{value:.{digits}f}")
        print(f"{kind:11} {label:16} | {cell(pause):>6} {cell(play):>6} {cell(volume):>7} {cell(seek):>6} | "
              f"{cell(to_sound, 2):>8} {cell(offset, 2):>8}")


if __name__ == "__main__":
    main()
