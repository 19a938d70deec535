#!/usr/bin/env bash
# Builds the Debian package (packaging/build-deb.sh), installs it, and checks what it installed:
# every file in place with a sane owner and mode, both programs run from /usr/bin without the
# Swift toolchain (cloudplayerctl is a link to cloudplayerd, one program for both), the user unit
# passes `systemd-analyze --user verify` (its man page included), the desktop file passes
# desktop-file-validate, the man pages format without a warning, lintian has no error to report,
# and the installed package weighs at most 45 MB (dpkg's Installed-Size and the installed files'
# `du`, both printed; checked last, so the other checks report first). Then it removes the
# package again if it was not installed before, so the machine is left as it was.
#   packaging/check-deb.sh              build, install, check, remove
#   packaging/check-deb.sh --no-build   check the .deb already in .build-deb/
#   packaging/check-deb.sh --keep       leave the package installed
#   packaging/check-deb.sh --binary P   build the package around the program P (build-deb.sh --binary)
# Needs root or sudo, and `packaging/install-deps.sh --package`. Exits non-zero, saying which
# check failed, on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

build=true keep=false binary=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=false ;;
        --keep) keep=true ;;
        --binary) binary=(--binary "${2:?--binary needs a program}"); shift ;;
        *) echo "check-deb.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

failures=0
fail() { echo "check-deb.sh: FAIL: $*" >&2; exit 1; }
note() { echo "check-deb.sh: $*" >&2; }
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)

for tool in dpkg-deb apt-get systemd-analyze man desktop-file-validate ldd; do
    command -v "$tool" >/dev/null || fail "$tool is missing: run packaging/install-deps.sh --package"
done
if grep -qsE '^path-exclude[= ]+/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
    fail "dpkg on this machine drops manual pages at install (path-exclude in /etc/dpkg/dpkg.cfg.d/): the man pages cannot be checked"
fi

# The commands the package ships: one program, and links to it named after the other commands.
programs=(cloudplayerd cloudplayerctl)
links=(cloudplayerctl)
# The most the installed package may weigh (issue 24), in bytes: 45 MB.
size_limit=45000000

if $build; then
    packaging/build-deb.sh "${binary[@]}" || fail "packaging/build-deb.sh failed"
fi
debs=("$root"/.build-deb/cloudplayerd_*.deb)
[[ -f ${debs[0]} ]] || fail "no .build-deb/cloudplayerd_*.deb: run packaging/build-deb.sh"
[[ ${#debs[@]} -eq 1 ]] || fail "more than one package in .build-deb/: ${debs[*]}"
deb=${debs[0]}
note "checking ${deb#"$root"/}"

# The package's contents, before installing it: owners and modes.
dpkg-deb --contents "$deb" | awk '$2 != "root/root" { bad = 1; print "  not root/root: " $0 } END { exit bad }' >&2 \
    || fail "files in the package not owned by root"
dpkg-deb --contents "$deb" | awk '$1 ~ /^.{8}w/ { bad = 1; print "  world-writable: " $0 } END { exit bad }' >&2 \
    || fail "world-writable files in the package"

was_installed=false
dpkg-query -W -f='${Status}' cloudplayerd 2>/dev/null | grep -q "install ok installed" && was_installed=true
remove() {
    if ! $keep && ! $was_installed; then
        note "removing the package again"
        "${sudo[@]}" dpkg --purge cloudplayerd >/dev/null || note "WARNING: could not remove cloudplayerd"
    fi
}
trap remove EXIT

# apt-get, not dpkg -i, so that what the package depends on is installed too (and checked to exist).
apt_log=$(mktemp)
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends --reinstall "$deb" >"$apt_log" 2>&1 \
    || { cat "$apt_log" >&2; rm -f "$apt_log"; fail "the package does not install"; }
rm -f "$apt_log"

# Every file in place, with the right mode.
installed=$(dpkg -L cloudplayerd)
expect() {  # MODE PATH
    local mode=$1 path=$2
    grep -qxF "$path" <<<"$installed" || { note "  not in the package: $path"; failures=$((failures + 1)); return; }
    [[ -f $path ]] || { note "  not installed: $path"; failures=$((failures + 1)); return; }
    local actual
    actual=$(stat -c '%a %U:%G' "$path")
    [[ $actual == "$mode root:root" ]] || { note "  $path is $actual, expected $mode root:root"; failures=$((failures + 1)); }
}
for program in "${programs[@]}"; do
    if [[ " ${links[*]} " == *" $program "* ]]; then
        [[ $(readlink "/usr/bin/$program") == cloudplayerd ]] \
            || { note "  /usr/bin/$program is not a link to cloudplayerd"; failures=$((failures + 1)); }
    else
        expect 755 "/usr/bin/$program"
    fi
    expect 644 "/usr/share/man/man1/$program.1.gz"
    expect 644 "/usr/share/bash-completion/completions/$program"
    expect 644 "/usr/share/zsh/vendor-completions/_$program"
    expect 644 "/usr/share/fish/vendor_completions.d/$program.fish"
done
expect 644 /usr/lib/systemd/user/cloudplayerd.service
expect 644 /usr/share/dbus-1/services/org.mpris.MediaPlayer2.cloudplayerd.service
expect 644 /usr/share/applications/cloudplayerd.desktop
expect 644 /usr/share/gnome-shell/search-providers/cloudplayerd-search-provider.ini
expect 644 /usr/share/krunner/dbusplugins/cloudplayerd.desktop
for interface in dbus/*.xml; do
    expect 644 "/usr/share/dbus-1/interfaces/${interface#dbus/}"
done
expect 644 /usr/share/doc/cloudplayerd/copyright
# The documentation the man pages point to, as the README links it: the user's pages; the
# developers' (architecture, testing, benchmarks, contributing) stay in the source tree.
for page in README.md docs/*.md docs/sources/*.md; do
    case "$page" in
        docs/architecture.md|docs/testing.md|docs/benchmarks.md|docs/contributing.md)
            if grep -qx "/usr/share/doc/cloudplayerd/$page" <<<"$installed"; then
                echo "check-deb.sh: a developer page is installed as user documentation: $page" >&2
                failures=$((failures + 1))
            fi ;;
        *) expect 644 "/usr/share/doc/cloudplayerd/$page" ;;
    esac
done
[[ $failures -eq 0 ]] || fail "$failures installed file(s) missing or wrong (above)"
note "files in place: $(grep -c . <<<"$installed") paths"

# What the package weighs installed: dpkg's estimate (KiB) and the installed files themselves.
declared=$(( $(dpkg-query -W -f='${Installed-Size}' cloudplayerd) * 1024 ))
on_disk=$(while IFS= read -r path; do if [[ -f $path && ! -L $path ]]; then printf '%s\0' "$path"; fi; done <<<"$installed" \
    | du -c -B1 --files0-from=- | tail -n 1 | cut -f1)
megabytes() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }
note "installed size: $(megabytes "$declared") (dpkg's Installed-Size), $(megabytes "$on_disk") (du of the installed files); limit $(megabytes "$size_limit")"
too_big=false
(( declared <= size_limit && on_disk <= size_limit )) || too_big=true

# The programs run, on their own: no Swift toolchain, no library that is not there.
for program in "${programs[@]}"; do
    libraries=$(ldd "/usr/bin/$program") || fail "ldd /usr/bin/$program failed"
    if grep -E 'not found|/opt/swift|libswift|libFoundation|libdispatch' <<<"$libraries" >&2; then
        fail "/usr/bin/$program needs the Swift toolchain's or missing libraries (above)"
    fi
    help=$(env -i PATH=/usr/bin:/bin HOME=/nonexistent "/usr/bin/$program" --help 2>&1) \
        || { echo "$help" >&2; fail "/usr/bin/$program --help failed"; }
    grep -q "USAGE: $program" <<<"$help" || { echo "$help" >&2; fail "/usr/bin/$program --help printed no usage"; }
    version=$(env -i PATH=/usr/bin:/bin HOME=/nonexistent "/usr/bin/$program" --version 2>&1) \
        || { echo "$version" >&2; fail "/usr/bin/$program --version failed"; }
    [[ $(head -n 1 <<<"$version") == "$program $(dpkg-query -W -f='${Version}' cloudplayerd)" ]] \
        || { echo "$version" >&2; fail "/usr/bin/$program --version does not name the package's version"; }
    # The bash completion loads and completes the first word.
    bash -c "source /usr/share/bash-completion/completions/$program && complete -p $program" >/dev/null \
        || fail "the bash completion of $program does not load"
done
note "the programs run: ${programs[*]} --help and --version; completions load"

# FFmpeg's libavcodec is loaded when an AAC track plays, not linked (ldd cannot see it): the
# package's Depends must bring it. Half a second of AAC, made by ffmpeg, plays to its end.
if command -v ffmpeg >/dev/null; then
    home=$(mktemp -d)
    ffmpeg -nostdin -loglevel error -f lavfi -i sine=440:d=0.5 -c:a aac "$home/tone.m4a" || fail "ffmpeg could not make a test AAC file"
    played=$(env -i PATH=/usr/bin:/bin HOME="$home" /usr/bin/cloudplayerd play --no-mpris --output null --unpaced "$home/tone.m4a" 2>&1) \
        || { echo "$played" >&2; fail "/usr/bin/cloudplayerd does not play AAC (libavcodec not loaded?)"; }
    rm -rf "$home"
    note "an AAC file plays (libavcodec loaded at run time)"
fi

# The user unit, as installed, as a user manager reads it. systemd-analyze needs a runtime folder
# for --user (none in a container without a login session); it also runs `man cloudplayerd(1)`
# for Documentation=.
runtime=$(mktemp -d)
verify=$(XDG_RUNTIME_DIR=$runtime systemd-analyze --user verify /usr/lib/systemd/user/cloudplayerd.service 2>&1) \
    || { echo "$verify" >&2; rm -rf "$runtime"; fail "systemd-analyze --user verify failed"; }
rm -rf "$runtime"
[[ -z $verify ]] || { echo "$verify" >&2; fail "systemd-analyze --user verify warned"; }
note "systemd-analyze --user verify: clean"

# The D-Bus activation file names the bus name, the program and the unit that are installed.
service=/usr/share/dbus-1/services/org.mpris.MediaPlayer2.cloudplayerd.service
grep -qx 'Name=org.mpris.MediaPlayer2.cloudplayerd' "$service" || fail "$service: Name= is not its bus name"
exec_path=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$service")
[[ -x $exec_path ]] || fail "$service: Exec= $exec_path is not installed"
unit=$(sed -n 's/^SystemdService=//p' "$service")
[[ -f /usr/lib/systemd/user/$unit ]] || fail "$service: SystemdService=$unit is not installed"
grep -qx 'BusName=org.mpris.MediaPlayer2.cloudplayerd' "/usr/lib/systemd/user/$unit" || fail "$unit: BusName= differs from the activation file's Name="

for file in /usr/share/applications/cloudplayerd.desktop /usr/share/krunner/dbusplugins/cloudplayerd.desktop; do
    desktop=$(desktop-file-validate "$file" 2>&1) && [[ -z $desktop ]] || { echo "$desktop" >&2; fail "desktop-file-validate $file"; }
done
note "desktop-file-validate: clean"

# The desktop's search finds the daemon: GNOME Shell's provider names the app (shown: the
# shell skips a provider whose app has NoDisplay=true), the activatable name and the object;
# KRunner's runner the same name and its object.
provider=/usr/share/gnome-shell/search-providers/cloudplayerd-search-provider.ini
for line in '[Shell Search Provider]' 'DesktopId=cloudplayerd.desktop' 'BusName=org.mpris.MediaPlayer2.cloudplayerd' \
            'ObjectPath=/org/cloudplayerd/SearchProvider' 'Version=2'; do
    grep -qxF "$line" "$provider" || fail "$provider: no line $line"
done
! grep -qx 'NoDisplay=true' /usr/share/applications/cloudplayerd.desktop || fail "cloudplayerd.desktop is hidden: GNOME Shell would skip the search provider"
runner=/usr/share/krunner/dbusplugins/cloudplayerd.desktop
for line in 'X-Plasma-API=DBus' 'X-Plasma-DBusRunner-Service=org.mpris.MediaPlayer2.cloudplayerd' \
            'X-Plasma-DBusRunner-Path=/org/cloudplayerd/KRunner' 'X-KDE-PluginInfo-Name=cloudplayerd'; do
    grep -qxF "$line" "$runner" || fail "$runner: no line $line"
done
note "search provider and runner: in place"

for program in "${programs[@]}"; do
    [[ $(man -w "$program") == "/usr/share/man/man1/$program.1.gz" ]] || fail "man -w $program does not find the installed page"
    warnings=$(LC_ALL=C.UTF-8 man --warnings -l "/usr/share/man/man1/$program.1.gz" 2>&1 >/dev/null)
    [[ -z $warnings ]] || { echo "$warnings" >&2; fail "man --warnings $program"; }
done
note "man pages: clean"

# lintian: an error fails the check (the justified ones are overridden in
# packaging/debian/cloudplayerd.lintian-overrides); warnings are printed, not failed on.
if command -v lintian >/dev/null; then
    report=$(lintian --tag-display-limit 0 "$deb" 2>&1 | grep -v '^running with root privileges') || true
    [[ -z $report ]] || echo "$report" >&2
    ! grep -q '^E: ' <<<"$report" || fail "lintian reports errors (above)"
    note "lintian: no error"
else
    note "lintian is not installed: skipped"
fi

! $too_big || fail "the installed package weighs $(megabytes "$(( declared > on_disk ? declared : on_disk ))"), over the $(megabytes "$size_limit") limit"
note "OK: ${deb#"$root"/} installs and checks clean"
