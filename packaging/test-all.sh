#!/usr/bin/env bash
# The whole test suite, as the README's quick start and CI run it:
#   1. installs what the tests and the package need (packaging/install-deps.sh --test --package);
#   2. builds, with the check that every target imports only what it depends on;
#   3. runs the suite (at most 24 tests at once: with all of them at once, a loaded two-core
#      machine kept test servers from sending for a whole read timeout) and, beside it at the
#      lowest CPU priority (nice 19), builds the Debian package (packaging/build-deb.sh, a release
#      build). The suite mostly waits — real-time audio, servers, timeouts: it used 97 % of one
#      core of two (`/usr/bin/time`, 745 tests) — and the package build takes the CPU it leaves,
#      so the two together take about as long as the suite; nice 19 gives the build next to no
#      CPU while a test wants it;
#   4. installs the package, checks it and removes it again (packaging/check-deb.sh --no-build).
# Exits non-zero when any step failed; the package build's output is in .build-deb/build.log and
# is printed when it failed.
set -uo pipefail
cd "$(dirname "$0")/.."

packaging/install-deps.sh --test --package || exit
swift build --build-tests --explicit-target-dependency-import-check error || exit

mkdir -p .build-deb
# A session of its own (setsid), so that an interrupted run stops the whole build with it.
setsid nice -n 19 packaging/build-deb.sh >.build-deb/build.log 2>&1 &
package=$!
trap 'kill -- -$package 2>/dev/null; exit 130' INT TERM

SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=24 swift test --skip-build
tests=$?

wait $package
built=$?
trap - INT TERM
if [[ $built -ne 0 ]]; then
    cat .build-deb/build.log >&2
    echo "test-all.sh: packaging/build-deb.sh failed (status $built)" >&2
    exit 1
fi
tail -n 1 .build-deb/build.log
[[ $tests -eq 0 ]] || { echo "test-all.sh: the test suite failed (status $tests)" >&2; exit "$tests"; }
packaging/check-deb.sh --no-build
