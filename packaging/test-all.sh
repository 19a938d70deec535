#!/usr/bin/env bash
# The whole test suite, as the README's quick start and CI run it:
#   1. installs what the tests and the package need (packaging/install-deps.sh --test --package);
#   2. builds in release mode — the program with the flags debian/rules gives it, and the tests —
#      with the check that every target imports only what it depends on;
#   3. runs the suite against that build, at most 24 tests at once (with all of them at once, a
#      loaded two-core machine kept test servers from sending for a whole read timeout) and the
#      suites that run one test at a time in a process beside it (below), then the tests held
#      to a wall-clock second on their own, at most 8 at once (below);
#   4. links the program again with the Swift runtime inside it, as the package ships it, from the
#      objects the suite ran (link-static.py), and builds the Debian package around it, installs
#      it, checks it and removes it again (check-deb.sh --binary).
# One release build serves the suite and the package: a debug build for the tests and a release
# build for the package were two builds of every module, 680 s and 470 s on this two-core machine
# (the fresh-clone CI of e2ebf50 and the run of 72cfb4c, 2026-11-27) — over CI's limit with the
# suite. The test targets are built as one unoptimized module each, not file by file (Package.swift
# says why), and the tests of the lower modules split off to build early (BaseLayerTests): the
# release build with the tests went from 1112 s to 652 s in a fresh clone (2a6d90a), and to 244 s
# once libcurl replaced AsyncHTTPClient and NIOSSL, whose BoringSSL and HTTP/2 stack were a third
# of the build's CPU (247e8a4, 2026-11-28); 274 s in the fresh-clone CI of a8e1c36 (2026-12-03).
# `swift test` alone (a debug build) still runs the same suite for a developer.
# The package is linked, built and checked after the suite, never beside it. Run beside the suite
# (912766b) it saved no time (407 s instead of about 330: the suite leaves about one core idle,
# the package took it), and in CI a seek test then had a download's bytes in flight sent twice,
# most likely its read timeout fired while the loader's thread waited on the disk the package was
# writing (a 100 MB link, dh_strip, dpkg-deb; d4190e1). A second build beside the suite had done
# the same (e2ebf50).
set -uo pipefail
cd "$(dirname "$0")/.."
# How long each step took, said as it ends (CI's limit is for the whole run).
mark=$SECONDS
took() { echo "test-all.sh: $1 took $((SECONDS - mark)) s"; mark=$SECONDS; }
# debian/rules' flags (full RELRO): the same objects serve the tests and the package.
release=(-c release -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)

packaging/install-deps.sh --test --package || exit
took "installing the dependencies"
# Where python3 is a pyenv shim (this machine kind's), each python3 and each program pip installed
# (wsgidav, moto_server, pproxy) that a test starts first ran pyenv's bash scripts to find the
# interpreter: about 9 % of the suite's CPU (bash and pyenv-*, `perf record -a`, 2026-11-28 (e87f87d)),
# on a suite that keeps both cores busy. The interpreter's own folder goes first.
if [[ $(command -v python3) == */.pyenv/shims/python3 ]]; then
    PATH="$(dirname "$(python3 -c 'import sys; print(sys.executable)')"):$PATH"
    export PATH
fi
# (The test targets are indexed as they compile, 7 % of their compile time in the fresh-clone run of d4190e1
# measure; SwiftPM's test discovery on Linux reads that index, so it cannot be turned off.)
swift build "${release[@]}" --build-tests --explicit-target-dependency-import-check error || exit
took "the build"
# The tests that hold the daemon to a wall-clock second — Stop, Next, OpenUri, SIGTERM and
# Ctrl-C take effect within one whatever the network does — run after the rest, at most 8 at once
# (beside stress-ng --cpu 2 they pass): among 24 other tests on two cores a Next was once seen
# 1.38 s after its call, the time the machine took to run the bus call and playerctl, not the
# daemon (the first fresh-clone run of d4190e1, 2026-11-27).
timed='CloudPlayerdTests\.(StopTests|RadioStopTests)|HLSDaemonTests/stopWhileFrozen'
# The suites marked `.serialized` (sound servers of their own, a keyring daemon) run their tests
# one after another. In the suite's process each of their tests waited behind all the tests queued
# before it — Swift Testing's 24 places are one queue — so SleepAndWakeTests' three (12, 18 and
# 63 s alone) took 337 s and were the last to end. They run in a process of their own beside the
# suite (the test binary itself: `swift test` holds the build folder), its output said after the
# suite's: 106 s, the suite without them 315 s (e87f87d, 2026-11-28, both on the same two cores).
serialized=$(find Tests -name '*.swift' -exec awk '/@Suite\(\.serialized/ { wanted = 1 }
    wanted && match($0, /struct [A-Za-z0-9_]+/) { split(FILENAME, part, "/"); print part[2] "\\." substr($0, RSTART + 7, RLENGTH - 7); wanted = 0 }' {} + | paste -sd'|')
[[ -n $serialized ]] || { echo "test-all.sh: no .serialized suite found in Tests/ (the awk above no longer reads them)" >&2; exit 1; }
tests=$(swift build "${release[@]}" --show-bin-path)/cloudplayerdPackageTests.xctest
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8 "$tests" --testing-library swift-testing --filter "$serialized" \
    > .build/serialized-suites.log 2>&1 &
beside=$!
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=24 swift test "${release[@]}" --skip-build --skip "$timed|$serialized"
suite=$?
wait "$beside"
alone=$?
echo "test-all.sh: the suites run one test at a time ($serialized):"
cat .build/serialized-suites.log
[[ $suite -eq 0 && $alone -eq 0 ]] || exit 1
took "the test suite"
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8 swift test "${release[@]}" --skip-build --filter "$timed" || exit
took "the tests held to a second"
mkdir -p .build/package && packaging/link-static.py .build .build/package/cloudplayerd || exit
packaging/check-deb.sh --binary .build/package/cloudplayerd || exit
took "linking, building and checking the package"
