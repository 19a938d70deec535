#!/usr/bin/env bash
# The whole test suite, as the README's quick start and CI run it:
#   1. installs what the tests and the package need (packaging/install-deps.sh --test --package);
#   2. builds, with the check that every target imports only what it depends on;
#   3. runs the suite (at most 24 tests at once: with all of them at once, a loaded two-core
#      machine kept test servers from sending for a whole read timeout) and, beside it at the
#      lowest CPU priority (nice 19), builds the Debian package (packaging/build-deb.sh, a release
#      build). The suite mostly waits — real-time audio, servers, timeouts: it used 97 % of one
#      core of two (`/usr/bin/time`, 745 tests) — and the package build takes the CPU it leaves.
#      The build writes to memory (/dev/shm, when it has room), never to the disk the tests'
#      caches sync to: tried on the disk, the build's writes slowed those syncs enough that
#      tests checking the cache right after a stop found the last range not yet recorded (the
#      disk's scheduler here is `none`, so ionice could not have helped);
#   4. installs the package, checks it and removes it again (packaging/check-deb.sh --no-build).
# Exits non-zero when any step failed; the package build's output is printed when it failed.
set -uo pipefail
cd "$(dirname "$0")/.."
# How long each step took, said as it ends (CI's limit is for the whole run).
mark=$SECONDS
took() { echo "test-all.sh: $1 took $((SECONDS - mark)) s"; mark=$SECONDS; }

packaging/install-deps.sh --test --package || exit
took "installing the dependencies"
swift build --build-tests --explicit-target-dependency-import-check error || exit
took "the build"

# Memory for the release build (about 2 GB; 6 GB asked, to be safe), else the usual .build-deb/.
memory=
if [[ -z ${CLOUDPLAYERD_DEB_DIR:-} ]] && (( $(df --output=avail -k /dev/shm 2>/dev/null | tail -n 1 || echo 0) > 6 * 1024 * 1024 )); then
    memory=$(mktemp -d /dev/shm/cloudplayerd-deb.XXXXXX)
    export CLOUDPLAYERD_DEB_DIR=$memory/out
    mkdir -p "$CLOUDPLAYERD_DEB_DIR"
fi
log=$(mktemp)
# A session of its own (setsid), so that an interrupted run stops the whole build with it.
TMPDIR=${memory:-${TMPDIR:-/tmp}} setsid nice -n 19 packaging/build-deb.sh >"$log" 2>&1 &
package=$!
cleanup() { kill -- -"$package" 2>/dev/null; [[ -n $memory ]] && rm -rf "$memory"; rm -f "$log"; }
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=24 swift test --skip-build
tests=$?
took "the test suite"

wait "$package"
built=$?
took "the rest of the package build"
if [[ $built -ne 0 ]]; then
    cat "$log" >&2
    echo "test-all.sh: packaging/build-deb.sh failed (status $built)" >&2
    exit 1
fi
tail -n 1 "$log"
[[ $tests -eq 0 ]] || { echo "test-all.sh: the test suite failed (status $tests)" >&2; exit "$tests"; }
packaging/check-deb.sh --no-build || exit
took "checking the package"
