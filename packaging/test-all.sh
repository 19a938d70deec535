#!/usr/bin/env bash
# The whole test suite, as the README's quick start and CI run it:
#   1. installs what the tests and the package need (packaging/install-deps.sh --test --package);
#   2. builds in release mode — the program with the flags debian/rules gives it, and the tests —
#      with the check that every target imports only what it depends on;
#   3. runs the suite against that build, at most 24 tests at once (with all of them at once, a
#      loaded two-core machine kept test servers from sending for a whole read timeout);
#   4. links the program again with the Swift runtime inside it, as the package ships it, from the
#      objects the suite ran (link-static.py), and builds the Debian package around it, installs
#      it, checks it and removes it again (check-deb.sh --binary).
# One release build serves the suite and the package: a debug build for the tests and a release
# build for the package were two builds of every module, 680 s and 470 s on this two-core machine
# (session 19's fresh-clone CI and session 20) — over CI's 20 minutes with the suite. The release
# build with the tests took 1112 s in a fresh clone (session 20); 652 s (session 21) once the
# test targets were built as one unoptimized module each, not file by file (Package.swift says
# why), and the tests of the lower modules split off to build early (BaseLayerTests). `swift test` alone (a debug build) still runs the same suite for a developer.
# The package is linked, built and checked beside the suite (step 4 in the background, its log
# printed after the suite's): it is about 60 s of one core (dh_strip, dpkg-deb, lintian), and
# the suite leaves about one core of two idle on average (97 % of one core, measured with
# /usr/bin/time). Session 22 measured the official CI at 1177 s with it after the suite, 23 s from
# the limit. (Sessions 18 and 19 tried a whole second build of every module beside the suite,
# 470 s of both cores: tests failed on time. This is the link and the packaging only.)
set -uo pipefail
cd "$(dirname "$0")/.."
# How long each step took, said as it ends (CI's limit is for the whole run).
mark=$SECONDS
took() { echo "test-all.sh: $1 took $((SECONDS - mark)) s"; mark=$SECONDS; }
# debian/rules' flags (full RELRO): the same objects serve the tests and the package.
release=(-c release -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)

packaging/install-deps.sh --test --package || exit
took "installing the dependencies"
# --disable-index-store: SwiftPM indexes the test targets as it compiles them (for an editor's
# sake), 7 % more of their compile time (CloudPlayerdTests, measured in session 23: 73.6 s with
# the index, 68.3 s without); nothing here reads an index.
swift build "${release[@]}" --build-tests --disable-index-store --explicit-target-dependency-import-check error || exit
took "the build"
# The package's step, beside the suite: it reads only the build's objects, installs into the
# system (the tests run the build's programs on buses of their own), and is said after the suite.
package_log=$(mktemp)
(
    started=$SECONDS
    mkdir -p .build/package && packaging/link-static.py .build .build/package/cloudplayerd \
        && packaging/check-deb.sh --binary .build/package/cloudplayerd
    status=$?
    echo "test-all.sh: linking, building and checking the package took $((SECONDS - started)) s (beside the suite)"
    exit $status
) >"$package_log" 2>&1 &
package=$!
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=24 swift test "${release[@]}" --skip-build
suite=$?
took "the test suite"
wait "$package"
packaged=$?
cat "$package_log"
rm -f "$package_log"
took "waiting for the package after the suite"
[[ $suite -eq 0 ]] || exit $suite
exit $packaged
