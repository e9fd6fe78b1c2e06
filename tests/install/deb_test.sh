#!/usr/bin/env bash
# Issue 21: the Debian packages as a user gets them. Builds them (scripts/package,
# a Release unity build of only what they hold, kept in BUILD_DIR/package for the
# next run), installs them into this machine with apt-get, runs `abstracts search`
# on the default index (built from the bundled corpus), imports the Python package
# with Debian's python3 and searches its default index, finds the man page, builds
# the tour of docs/library.md against the installed library through find_package
# and through pkg-config (as C++23: the .pc file sets no -std), then purges the
# packages and checks that the machine has the packages it had before.
#   deb_test.sh SOURCE_DIR BUILD_DIR
# Needs root (it installs into /usr): exits 77, which ctest counts as skipped,
# when not root or without apt-get.
set -euo pipefail
src=$1 build=$2
packages=(abstracts libabstracts0 libabstracts-dev python3-abstracts)

if [[ $(id -u) -ne 0 ]]; then
  echo "skipped: installing the .deb into the machine needs root (CI runs as root)"
  exit 77
fi
if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
  echo "skipped: no apt-get or dpkg: not a Debian system"
  exit 77
fi

started=$SECONDS
work=$(mktemp -d)
apt=(env DEBIAN_FRONTEND=noninteractive apt-get -y -qq -o DPkg::Lock::Timeout=120)
installed() { dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | grep '^ii' | sort; }
purge() {
  local present=()
  for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 && present+=("$p")
  done
  [[ ${#present[@]} -eq 0 ]] || "${apt[@]}" purge "${present[@]}" >/dev/null 2>&1
}
fail() { echo "FAILED: $*"; exit 1; }

# A run cut short may have left them installed.
purge
installed >"$work/before"
cleanup() {
  local status=$?
  purge || status=1
  for p in "${packages[@]}"; do
    if dpkg -s "$p" >/dev/null 2>&1; then echo "FAILED: $p is still installed"; status=1; fi
  done
  installed >"$work/after"
  if ! diff -u "$work/before" "$work/after"; then
    echo "FAILED: the machine's packages differ from before the test"
    status=1
  fi
  for f in /usr/bin/abstracts /usr/share/abstracts /usr/include/abstracts /usr/lib/python3/dist-packages/abstracts; do
    if [[ -e $f ]]; then echo "FAILED: $f is left after the purge"; status=1; fi
  done
  rm -rf "$work"
  echo "deb_test: $((SECONDS - started)) s"
  exit $status
}
trap cleanup EXIT

mapfile -t debs < <("$src/scripts/package" --unity "$build/package")
[[ ${#debs[@]} -eq 4 ]] || fail "expected 4 packages, got: ${debs[*]}"
echo "built ${debs[*]##*/} at $((SECONDS - started)) s"
# The tool is whole without the shared library (it links the library's objects).
tool_depends=$(dpkg-deb -f "$(printf '%s\n' "${debs[@]}" | grep '/abstracts_')" Depends)
[[ $tool_depends == *libxapian* && $tool_depends != *libabstracts* ]] ||
  fail "abstracts depends on: $tool_depends"
"${apt[@]}" install --no-install-recommends "${debs[@]}" >"$work/apt.log" 2>&1 ||
  fail "apt-get install: $(cat "$work/apt.log")"
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null || fail "$p is not installed"; done

# The tool, as a new user runs it: nothing set but HOME and PATH.
mkdir -p "$work/home"
run() { env -i HOME="$work/home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }
[[ $(command -v abstracts) == /usr/bin/abstracts ]] || fail "abstracts is not /usr/bin/abstracts"
run abstracts search "sparse attention" >"$work/out" 2>"$work/err" || fail "search: $(cat "$work/err")"
grep -q "indexing the bundled corpus (/usr/share/abstracts/corpus)" "$work/err" ||
  fail "the default index was not built from the bundled corpus: $(cat "$work/err")"
grep -q "corpus/.*\.txt:[0-9]" "$work/out" || fail "no hit: $(cat "$work/out")"
# (Output is read whole before grep looks: grep -q leaving early would break the
# pipe, which pipefail makes a failure.)
version=$(run abstracts --version)
grep -q "^index schema " <<<"$version" || fail "--version: $version"

# Python, as a new user runs it (issue 45): no PYTHONPATH, Debian's python3, the
# default index built at first use; the import as root (HOME set) leaves byte-code
# that the purge must take away too.
rm -rf "$work/home/.local/share/abstracts"
title=$(run python3 -c "import abstracts; print(abstracts.Index.default().search('sparse attention').hits[0].title)" \
  2>"$work/err") || fail "python3 import abstracts: $(cat "$work/err")"
[[ $title == "Sparse attention is becoming"* ]] || fail "python3: unexpected title: $title"
grep -q "indexing the bundled corpus (/usr/share/abstracts/corpus)" "$work/err" ||
  fail "python3: the default index was not built from the bundled corpus: $(cat "$work/err")"
python_depends=$(dpkg-deb -f "$(printf '%s\n' "${debs[@]}" | grep '/python3-abstracts_')" Depends)
[[ $python_depends == *"libabstracts0 (= "* && $python_depends == *"python3 (<< "* ]] ||
  fail "python3-abstracts depends on: $python_depends"

[[ $(run man -w abstracts) == /usr/share/man/man1/abstracts.1.gz ]] || fail "man -w abstracts"
page=$(run env MANWIDTH=80 man abstracts 2>"$work/man-err")
grep -q "^GLOBAL OPTIONS" <<<"$page" || fail "man abstracts: $page"
[[ ! -s "$work/man-err" ]] || fail "man abstracts warns: $(cat "$work/man-err")"
for f in /usr/share/bash-completion/completions/abstracts /usr/share/zsh/vendor-completions/_abstracts \
  /usr/share/fish/vendor_completions.d/abstracts.fish; do
  [[ -f $f ]] || fail "no completion $f"
done

# Programs on the library: the tour of docs/library.md, through find_package
# (no CMAKE_PREFIX_PATH: the package is in /usr) and through pkg-config.
mkdir -p "$work/consumer"
cp "$src/tests/install/consumer/CMakeLists.txt" "$work/consumer/"
awk '/^```cpp$/ {on=1; next} /^```$/ {on=0} on' "$src/docs/library.md" >"$work/consumer/tour.cc"
check_run() {  # program label
  local out
  out=$("$1" /usr/share/abstracts/corpus "$work/index-$2") || fail "$2: the tour failed"
  grep -q "abstracts in the index" <<<"$out" || fail "$2: unexpected output: $out"
  grep -q "by meaning:" <<<"$out" || fail "$2: no search by meaning: $out"
  echo "$2: ok"
}
cmake -S "$work/consumer" -B "$work/consumer/build" -G Ninja >/dev/null
cmake --build "$work/consumer/build" >/dev/null
check_run "$work/consumer/build/tour" find_package

[[ -z $(pkg-config --print-requires-private abstracts) ]] || fail "the .pc file has Requires.private"
cflags=$(pkg-config --cflags abstracts)
[[ $cflags != *-std=* ]] || fail "pkg-config --cflags sets the standard: $cflags"
# shellcheck disable=SC2046
c++ -std=c++23 "$work/consumer/tour.cc" -o "$work/tour-pc" $(pkg-config --cflags --libs abstracts)
check_run "$work/tour-pc" pkg-config
