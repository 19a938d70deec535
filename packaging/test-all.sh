#!/usr/bin/env bash
# The whole test suite, as the README's quick start and CI run it:
#   1. installs what the tests and the package need (packaging/install-deps.sh --test --package);
#   2. builds, with the check that every target imports only what it depends on;
#   3. runs the suite, at most 24 tests at once (with all of them at once, a loaded two-core
#      machine kept test servers from sending for a whole read timeout);
#   4. builds the Debian package, installs it, checks it and removes it again (check-deb.sh).
# The package's release build is not run beside the suite, although the suite leaves about one
# core of two idle (97 % of one core, measured with /usr/bin/time): tried at nice 19, it most
# likely slowed the cache's disk writes enough that tests which check the cache right after a
# loader's shutdown found the last range not recorded (ValidatorTests, CloudKillTests and 3 more
# failed in a fresh clone, all of which pass without it).
set -euo pipefail
cd "$(dirname "$0")/.."

packaging/install-deps.sh --test --package
swift build --build-tests --explicit-target-dependency-import-check error
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=24 swift test --skip-build
packaging/check-deb.sh
