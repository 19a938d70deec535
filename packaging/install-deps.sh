#!/usr/bin/env bash
# Installs what cloudplayerd needs from Debian 12's packages.
#   packaging/install-deps.sh           build and run (the C libraries)
#   packaging/install-deps.sh --test    also what the test suite runs: reference decoders, encoders
#                                       for fixtures, a PulseAudio server and its tools, WebDAV
#                                       servers (rclone, nginx with dav-ext, Apache httpd with mod_dav,
#                                       and WsgiDAV — not packaged for Debian 12, so from PyPI with pip),
#                                       PipeWire with WirePlumber and pipewire-pulse (the other
#                                       sound server); mutagen (PyPI) writes the tags taggers write;
#                                       for S3 the moto server with boto3 and botocore (the
#                                       reference signer), and a Subsonic server (Supysonic on
#                                       waitress), all from PyPI; for internet radio Icecast 2
#                                       and its source clients ezstream and ices2 (the tests start
#                                       Icecasts of their own: noninteractive, debconf leaves
#                                       icecast2's own service unconfigured and it is not started);
#                                       for HLS nginx (static files), ffmpeg (its HLS muxer and
#                                       demuxer), openssl (AES-128 segments) and mutagen, all above;
#                                       for secrets gnome-keyring (its daemon, started by the tests
#                                       on a private bus), secret-tool (libsecret-tools) and
#                                       python3-dbus (unlocks a locked test keyring, as only a
#                                       session's own connection can); for
#                                       proxies tinyproxy (HTTP and CONNECT; Debian enables its
#                                       service, which the tests never use), Squid (the tests run
#                                       their own with Debian's squid.conf; its service likewise
#                                       unused) and pproxy (PyPI, SOCKS5); for
#                                       the MPD server a real MPD with its clients: mpd and mpc,
#                                       python-mpd2 (PyPI), ncmpcpp in tmux, Cantata on Xvfb (xdotool
#                                       finds its window, imagemagick's `import` takes screenshots);
#                                       Debian's mpd enables a system service the tests never use
#                                       desktop-file-utils (the search providers' desktop files)
#   packaging/install-deps.sh --bench   also what bench/ compares against
#   packaging/install-deps.sh --speed   also the two time-stretch libraries bench/speed/libs compares
#                                       (SoundTouch, Rubber Band), gcc and espeak-ng
#   packaging/install-deps.sh --mpd     also MPD and mpc, for bench/library-local (Debian's package
#                                       enables an mpd system service: `systemctl disable --now mpd`)
#   packaging/install-deps.sh --package also what building and checking the .deb takes
#                                       (packaging/build-deb.sh, packaging/check-deb.sh)
# Uses sudo when not root. Installs nothing that is already there.
set -euo pipefail

packages=(pkg-config libmpg123-dev libopusfile-dev libopus-dev libflac-dev libvorbis-dev libpulse-dev libsystemd-dev libsqlite3-dev libpcre2-dev libcurl4-openssl-dev libavcodec-dev libsoundtouch-dev)
python_modules=()
for option in "$@"; do
    case "$option" in
        --test) packages+=(mpg123 opus-tools flac vorbis-tools lame sox pulseaudio pulseaudio-utils dbus-daemon systemd playerctl libglib2.0-bin rclone util-linux openssl eyed3 id3v2
                      nginx libnginx-mod-http-dav-ext apache2 python3 python3-pip pipewire pipewire-bin wireplumber pipewire-pulse strace ffmpeg
                      icecast2 ezstream ices2 gnome-keyring libsecret-tools python3-dbus tinyproxy squid desktop-file-utils groff-base man-db
                      mpd mpc ncmpcpp tmux cantata xvfb xdotool imagemagick)
                python_modules+=(wsgidav cheroot mutagen moto.server="moto[server]" boto3 supysonic waitress pproxy mpd=python-mpd2) ;;
        --bench) packages+=(mpg123 opus-tools flac vorbis-tools lame sox ffmpeg time dbus-daemon systemd playerctl mpv mpv-mpris rclone libglib2.0-bin gnuplot-nox python3 python3-pip)
                 python_modules+=(mutagen) ;;
        --mpd) packages+=(mpd mpc) ;;
        --speed) packages+=(gcc librubberband-dev espeak-ng python3-numpy) ;;
        --sample) packages+=(lame sox) ;;
        --package) packages+=(git dpkg-dev debhelper groff-base man-db desktop-file-utils systemd lintian) ;;
        *) echo "install-deps.sh: unknown option $option" >&2; exit 2 ;;
    esac
done

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
install_python_modules() {
    local absent=()
    # An entry is a module to import, or MODULE=REQUIREMENT when pip names it otherwise.
    for entry in "${python_modules[@]}"; do
        python3 -c "import ${entry%%=*}" 2>/dev/null || absent+=("${entry#*=}")
    done
    [[ ${#absent[@]} -eq 0 ]] && return 0
    echo "install-deps.sh: installing ${absent[*]} with pip" >&2
    "${sudo[@]}" python3 -m pip install -q --break-system-packages "${absent[@]}"
}
if [[ ${#missing[@]} -eq 0 ]]; then
    install_python_modules
    exit 0
fi

echo "install-deps.sh: installing ${missing[*]}" >&2
# An apt run killed half-way (a machine stopped mid-install) leaves dpkg "interrupted", and apt
# then refuses everything until it is finished; finishing it is what dpkg itself asks for.
if [[ -n $(dpkg --audit 2>/dev/null) ]]; then
    echo "install-deps.sh: finishing an interrupted dpkg run first (dpkg --configure -a)" >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" dpkg --configure -a >/dev/null
fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_python_modules
