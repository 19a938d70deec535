#!/usr/bin/env bash
# Installs what is needed, builds cloudplayerd and plays the given files or URLs — or, with
# none, a sample it makes. Any `cloudplayerd play` option may come first, e.g. `--output null`.
#   packaging/quickstart.sh ~/Music/a.mp3 ~/Music/b.opus
#   packaging/quickstart.sh https://cloud.example.org/remote.php/dav/files/anna/Music/x.mp3
#   packaging/quickstart.sh --output null
set -euo pipefail
cd "$(dirname "$0")/.."

has_file=false
for argument in "$@"; do [[ -f $argument || $argument == http://* || $argument == https://* ]] && has_file=true; done

if $has_file; then
    packaging/install-deps.sh
else
    packaging/install-deps.sh --sample
fi
swift build -c release --product cloudplayerd >&2

if $has_file; then
    exec .build/release/cloudplayerd play "$@"
fi
sample="${XDG_CACHE_HOME:-$HOME/.cache}/cloudplayerd/sample.mp3"
if [[ ! -s $sample ]]; then
    mkdir -p "$(dirname "$sample")"
    sox -V1 -q -n -r 44100 -c 2 -b 16 -t wav - synth 8 pluck C4 pluck E4 pluck G4 fade 0 8 2 \
        | lame --quiet -V 2 --tt "cloudplayerd sample" --ta "sox" - "$sample"
fi
exec .build/release/cloudplayerd play "$@" "$sample"
