#!/usr/bin/env python3
"""Internet radio, cloudplayerd against mpv, one run (issue 25).

1. First audio of an Icecast 2 station (Debian's icecast2 on 127.0.0.1, fed in real time by ffmpeg
   with a 128 kbit/s MP3, Icecast's usual 64 KiB burst on connect): the time from launch to the
   line each player prints when its audio starts (cloudplayerd "Playing …", mpv --term-playing-msg),
   both into a null sink in real time; RUNS runs each, medians. Target: ≤ 0.5 × mpv.
2. A long listen, accelerated: the ICY test station (Tests/RadioServers/icy_stream.py) sends
   MINUTES minutes of the same MP3 looped, with a title every 30 s, at SPEED × real time;
   cloudplayerd plays it into a null sink unpaced (as fast as it comes); RSS and CPU sampled every
   second from /proc. Target: RSS flat within ±1 MiB over the last 80 %. mpv's on the same stream
   beside it.

    bench/radio                            3 runs, 30 minutes at 30 ×
    RUNS=5 MINUTES=60 SPEED=60 bench/radio
Needs the release build (built here) and packaging/install-deps.sh --bench --test.
"""
import os, pwd, grp, shutil, signal, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = int(os.environ.get("RUNS", "3"))
MINUTES = float(os.environ.get("MINUTES", "30"))
SPEED = float(os.environ.get("SPEED", "30"))
PLAYER = os.environ.get("PLAYER", os.path.join(ROOT, ".build/release/cloudplayerd"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, seconds, what):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    sys.exit(f"bench/radio: {what} did not happen in {seconds} s")


def icecast(work, mp3):
    """Icecast on a free port, ffmpeg feeding /live.mp3 in real time; returns (url, processes)."""
    port = free_port()
    owner = ""
    if os.getuid() == 0:
        user, group = ("icecast2", "icecast") if _exists_user("icecast2") else ("nobody", "nogroup")
        owner = f"<changeowner><user>{user}</user><group>{group}</group></changeowner>"
        shutil.chown(work, user, group)
    config = os.path.join(work, "icecast.xml")
    with open(config, "w") as f:
        f.write(f"""<icecast><location>bench</location><admin>bench@127.0.0.1</admin><hostname>127.0.0.1</hostname>
<limits><clients>10</clients><sources>2</sources><burst-on-connect>1</burst-on-connect><burst-size>65536</burst-size>
<source-timeout>10</source-timeout><header-timeout>15</header-timeout></limits>
<authentication><source-password>benchsource</source-password><admin-user>admin</admin-user><admin-password>benchadmin</admin-password></authentication>
<listen-socket><port>{port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
<paths><basedir>/usr/share/icecast2</basedir><logdir>{work}</logdir><webroot>/usr/share/icecast2/web</webroot>
<adminroot>/usr/share/icecast2/admin</adminroot><pidfile>{work}/icecast.pid</pidfile></paths>
<logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
<security><chroot>0</chroot>{owner}</security></icecast>""")
    os.chmod(config, 0o644)
    server = subprocess.Popen(["/usr/bin/icecast2", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: _answers(port), 30, "Icecast listening")
    source = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", mp3, "-c", "copy",
                               "-map_metadata", "-1", "-f", "mp3", "-write_xing", "0", "-id3v2_version", "0",
                               "-content_type", "audio/mpeg", "-ice_name", "Bench Radio",
                               f"icecast://source:benchsource@127.0.0.1:{port}/live.mp3"])
    wait_for(lambda: b"/live.mp3" in _get(port, "/status-json.xsl"), 30, "the mount going live")
    time.sleep(5)  # Icecast's burst fills: every run connects to a mount that has its 64 KiB ready
    return f"http://127.0.0.1:{port}/live.mp3", [source, server]


def _exists_user(name):
    try:
        pwd.getpwnam(name), grp.getgrnam("icecast")
        return True
    except KeyError:
        return False


def _answers(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def _get(port, path):
    try:
        return subprocess.run(["curl", "-sf", "-m", "5", f"http://127.0.0.1:{port}{path}"], capture_output=True).stdout
    except OSError:
        return b""


def first_audio(command, marker, env=None):
    """Milliseconds from launch to the first line containing `marker`; the player is then stopped."""
    start = time.monotonic()
    player = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        for line in player.stdout:
            if marker in line:
                return (time.monotonic() - start) * 1000
        sys.exit(f"bench/radio: {command[0]} ended without audio")
    finally:
        player.send_signal(signal.SIGTERM)
        try:
            player.wait(5)
        except subprocess.TimeoutExpired:
            player.kill()


def floor_ms(url):
    """What Icecast itself takes: from connecting to the first 4 KiB of audio (a few MPEG frames)
    on a bare socket — no player can start sooner."""
    host, rest = url.split("//")[1].split("/", 1)
    address, port = host.split(":")
    start = time.monotonic()
    with socket.create_connection((address, int(port))) as s:
        s.sendall(f"GET /{rest} HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
        got = b""
        while b"\r\n\r\n" not in got or len(got.split(b"\r\n\r\n", 1)[1]) < 4096:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    return (time.monotonic() - start) * 1000


def ours(url, unpaced=False):
    return [PLAYER, "play", "--no-mpris", "--output", "null"] + (["--unpaced"] if unpaced else []) + [url]


def theirs(url):
    return ["mpv", "--no-config", "--no-video", "--term-playing-msg=STARTED", "--ao=null", url]


def sample(pid):
    """RSS (KiB) and CPU seconds of a process."""
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return rss, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def long_listen(name, command, seconds):
    player = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples = []
    start = time.monotonic()
    try:
        while time.monotonic() - start < seconds and player.poll() is None:
            time.sleep(1)
            samples.append((time.monotonic() - start,) + sample(player.pid))
    finally:
        player.send_signal(signal.SIGTERM)
        player.wait(10)
    tail = [rss for at, rss, _ in samples if at >= seconds * 0.2]
    cpu = samples[-1][2] / samples[-1][0] * 100 if samples else 0
    return {"name": name, "rss_first": samples[0][1] / 1024 if samples else 0, "rss_20": tail[0] / 1024 if tail else 0,
            "rss_min": min(tail) / 1024 if tail else 0, "rss_max": max(tail) / 1024 if tail else 0,
            "rss_end": samples[-1][1] / 1024 if samples else 0, "cpu": cpu, "ran": samples[-1][0] if samples else 0}


def hls_first_audio(work, processes):
    """First audio of an HLS stream on demand (MPEG-TS, AAC, 2 s segments) served over HTTP: each
    run of cloudplayerd with an empty cache of its own, so nothing comes from an earlier run."""
    folder = os.path.join(work, "hls")
    os.makedirs(folder)
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=60", "-ac", "2", "-ar", "44100", "-c:a", "aac",
                    "-b:a", "128k", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                    "-hls_segment_filename", os.path.join(folder, "seg%d.ts"), os.path.join(folder, "index.m3u8")], check=True)
    port = free_port()
    server = subprocess.Popen(["python3", "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", folder],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.append(server)
    wait_for(lambda: _answers(port), 30, "the HLS server answering")
    url = f"http://127.0.0.1:{port}/index.m3u8"
    rows = {"cloudplayerd": [], "mpv": []}
    for run in range(RUNS):
        cache = os.path.join(work, f"hls-cache-{run}")
        rows["cloudplayerd"].append(first_audio(ours(url), "Playing", env=dict(os.environ, XDG_CACHE_HOME=cache)))
        rows["mpv"].append(first_audio(theirs(url), "STARTED"))
    ours_ms, mpv_ms = (statistics.median(rows[k]) for k in ("cloudplayerd", "mpv"))
    runs = {k: ", ".join(f"{v:.0f}" for v in rows[k]) for k in rows}
    print(f"## First audio of an HLS stream on demand (TS, AAC 128 kbit/s, 2 s segments; {RUNS} runs, medians, ms)\n")
    print("| | cloudplayerd | mpv | ratio |")
    print("|---|---|---|---|")
    print(f"| first audio | {ours_ms:.0f} ({runs['cloudplayerd']}) | {mpv_ms:.0f} ({runs['mpv']}) | {ours_ms / mpv_ms:.2f} |\n")


def main():
    if "PLAYER" not in os.environ:
        subprocess.run(["swift", "build", "-c", "release", "--product", "cloudplayerd"], cwd=ROOT, check=True, stdout=sys.stderr)
    work = tempfile.mkdtemp(prefix="cloudplayerd-radio-")
    os.chmod(work, 0o755)
    mp3 = os.path.join(work, "station.mp3")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "anoisesrc=c=pink:d=120:a=0.2", "-f", "lavfi", "-i", "sine=f=330:d=120",
                    "-filter_complex", "amix=inputs=2", "-ac", "2", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k",
                    "-write_xing", "0", "-id3v2_version", "0", mp3], check=True)
    processes = []
    try:
        url, processes = icecast(work, mp3)
        rows = {"floor": [], "cloudplayerd": [], "mpv": []}
        for _ in range(RUNS):
            rows["floor"].append(floor_ms(url))
            rows["cloudplayerd"].append(first_audio(ours(url), "Playing"))
            rows["mpv"].append(first_audio(theirs(url), "STARTED"))
        floor, ours_ms, mpv_ms = (statistics.median(rows[k]) for k in ("floor", "cloudplayerd", "mpv"))
        runs = {k: ", ".join(f"{v:.0f}" for v in rows[k]) for k in rows}
        print(f"## First audio of an Icecast station (128 kbit/s MP3, 64 KiB burst; {RUNS} runs, medians, ms)\n")
        print("Icecast's floor: a bare socket's time to the first 4 KiB of audio — no player starts sooner.\n")
        print("| | floor | cloudplayerd | mpv | ratio | above the floor: ours / mpv | target ≤ 0.5 × mpv |")
        print("|---|---|---|---|---|---|---|")
        print(f"| first audio | {floor:.0f} ({runs['floor']}) | {ours_ms:.0f} ({runs['cloudplayerd']}) | {mpv_ms:.0f} ({runs['mpv']}) "
              f"| {ours_ms / mpv_ms:.2f} | {ours_ms - floor:.0f} / {mpv_ms - floor:.0f} ms "
              f"| {'met' if ours_ms <= 0.5 * mpv_ms else 'NOT met: the floor is ' + f'{floor / mpv_ms:.2f}' + ' × mpv'} |\n")

        hls_first_audio(work, processes)

        seconds = MINUTES * 60 / SPEED
        station = os.path.join(work, "icy.port")
        titles = [f"--title={int(i * 16000 * 30)}:Artist {i} - Song {i}" for i in range(int(MINUTES * 2) + 1)]
        fast = subprocess.Popen(["python3", os.path.join(ROOT, "Tests/RadioServers/icy_stream.py"), "--port-file", station,
                                 "--file", mp3, "--loop", f"--pace={SPEED}", "--name=Long Radio"] + titles,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(fast)
        wait_for(lambda: os.path.exists(station), 30, "the ICY station listening")
        with open(station) as f:
            long_url = f"http://127.0.0.1:{f.read().strip()}/stream"
        results = [long_listen("cloudplayerd", ours(long_url, unpaced=True), seconds),
                   long_listen("mpv", ["mpv", "--no-config", "--no-video", "--ao=pcm", "--ao-pcm-file=/dev/null", "--untimed", long_url], seconds)]
        print(f"## {MINUTES:.0f} minutes of a station at {SPEED:.0f} × real time ({seconds:.0f} s), a title every 30 s of audio\n")
        print("| | RSS at start | RSS at 20 % | RSS min–max over the last 80 % | RSS at the end | CPU % | flat within ±1 MiB |")
        print("|---|---|---|---|---|---|---|")
        for r in results:
            flat = "yes" if r["rss_max"] - r["rss_min"] <= 2 else "no"
            print(f"| {r['name']} | {r['rss_first']:.1f} MiB | {r['rss_20']:.1f} MiB | {r['rss_min']:.1f}–{r['rss_max']:.1f} MiB "
                  f"| {r['rss_end']:.1f} MiB | {r['cpu']:.0f} | {flat} |")
    finally:
        for process in processes:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
