#!/usr/bin/env bash
# Builds the Debian package of what is in the working tree — committed or not — and leaves it in
# .build-deb/ (cloudplayerd_VERSION_ARCH.deb):
#   packaging/build-deb.sh
#   packaging/build-deb.sh --binary PROGRAM   package PROGRAM, a release build of this tree made
#                                             with debian/rules' flags, instead of building it
# Copies the working tree's files (tracked and new ones that .gitignore does not exclude, plus
# Package.resolved when there is one) into .build-deb/cloudplayerd/, puts packaging/debian/ at its
# top, where dpkg-buildpackage wants it, and runs `dpkg-buildpackage -us -uc -b` there.
# Needs a Swift 6 toolchain on PATH (from swift.org: Swift is not a Debian package) and
# `packaging/install-deps.sh --package`. The release build's scratch folder (.build-release/ in the
# copy) is kept between runs, so a rerun builds only what changed; `rm -rf .build-deb` starts over.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/.build-deb
tree=$out/cloudplayerd      # dpkg-buildpackage writes the package beside the tree: in $out
keep=.build-release         # the scratch folder debian/rules uses, kept

fail() { echo "build-deb.sh: $*" >&2; exit 1; }
binary=
case "${1:-}" in
    --binary) [[ -x ${2:-} ]] || fail "--binary needs an executable, not '${2:-}'"; binary=$(realpath "$2") ;;
    "") ;;
    *) fail "unknown option $1" ;;
esac
command -v swift >/dev/null || fail "no swift on PATH: install a Swift 6 toolchain from swift.org and put its usr/bin on PATH"
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null \
    || fail "dpkg-buildpackage or debhelper is missing: run packaging/install-deps.sh --package"
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || fail "$root is not a git work tree"

# What to package: "SOURCE<TAB>PLACE IN THE COPY" lines. Files deleted but not yet committed, and
# SwiftPM's and our own build folders, are left out.
listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
{
    git ls-files -z --cached --others --exclude-standard | tr '\0' '\n' \
        | grep -Ev '^(\.build[^/]*|\.swiftpm|packaging/debian)/' \
        | while IFS= read -r file; do [[ -f $file || -L $file ]] && printf '%s\t%s\n' "$file" "$file"; done
    [[ -f Package.resolved ]] && printf 'Package.resolved\tPackage.resolved\n'
    find packaging/debian -type f | while IFS= read -r file; do printf '%s\t%s\n' "$file" "debian/${file#packaging/debian/}"; done
} | sort -u -t $'\t' -k2,2 >"$listing"

# Bring the copy up to date in place: a file whose bytes did not change keeps its inode and time,
# so SwiftPM does not rebuild it; whatever is not in the listing (a previous run's debian/
# leftovers, deleted files) goes, except the kept scratch folder.
mkdir -p "$tree"
while IFS=$'\t' read -r source place; do
    if [[ -L $source ]]; then
        rm -rf "${tree:?}/$place"; mkdir -p "$(dirname "$tree/$place")"; cp -P "$source" "$tree/$place"
    elif ! cmp -s "$source" "$tree/$place" 2>/dev/null; then
        rm -rf "${tree:?}/$place"; mkdir -p "$(dirname "$tree/$place")"; cp -p "$source" "$tree/$place"
    fi
done <"$listing"
(cd "$tree" && find . -path "./$keep" -prune -o \( -type f -o -type l \) -print | sed 's|^\./||') | sort \
    | comm -23 - <(cut -f2 "$listing" | sort) \
    | while IFS= read -r stale; do rm -f "${tree:?}/$stale"; done
find "$tree" -mindepth 1 -depth -type d -empty ! -path "$tree/$keep" ! -path "$tree/$keep/*" -delete

rm -f "$out"/cloudplayerd_* "$out"/cloudplayerd-dbgsym_*
started=$SECONDS
# -nc: no `debian/rules clean` first, which would remove the kept scratch folder; the copy is
# clean already, but for that folder.
(cd "$tree" && CLOUDPLAYERD_BINARY=$binary dpkg-buildpackage -us -uc -b -nc) || fail "dpkg-buildpackage failed (the log is above)"
deb=$(ls "$out"/cloudplayerd_*.deb 2>/dev/null | head -n 1)
[[ -n $deb ]] || fail "dpkg-buildpackage left no .deb in $out"
echo "build-deb.sh: built ${deb#"$root"/} in $((SECONDS - started)) s"
