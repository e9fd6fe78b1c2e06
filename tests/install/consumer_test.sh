#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds the tour of
# docs/library.md against it twice (and the reading-list example on its own), through find_package and through
# pkg-config (with the -std the program chooses, and an rpath, as docs/library.md
# says), and runs both on the bundled corpus.
#   consumer_test.sh SOURCE_DIR BUILD_DIR [EXTRA_CXXFLAGS]
set -euo pipefail
src=$1 build=$2 extra=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null

# The tour is every ```cpp block of docs/library.md, in order.
mkdir -p "$work/consumer"
cp "$src/tests/install/consumer/CMakeLists.txt" "$work/consumer/"
awk '/^```cpp$/ {on=1; next} /^```$/ {on=0} on' "$src/docs/library.md" > "$work/consumer/tour.cc"

check_run() {  # program label
  local out
  out=$("$1" "$src/corpus" "$work/index-$2")
  grep -q "abstracts in the index" <<<"$out" || { echo "$2: unexpected output:"; echo "$out"; exit 1; }
  grep -q "by meaning:" <<<"$out" || { echo "$2: no search by meaning:"; echo "$out"; exit 1; }
  grep -q "query error at column" <<<"$out" || { echo "$2: no query error:"; echo "$out"; exit 1; }
  grep -q "showing hits of: sparse attention" <<<"$out" || { echo "$2: no spelling correction:"; echo "$out"; exit 1; }
  echo "$2: ok"
}

cmake -S "$work/consumer" -B "$work/consumer/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_FLAGS="$extra" >/dev/null
cmake --build "$work/consumer/build" >/dev/null
check_run "$work/consumer/build/tour" find_package

libdir=$(dirname "$(find "$work/prefix" -name abstracts.pc)")/..
export PKG_CONFIG_PATH=$(dirname "$(find "$work/prefix" -name abstracts.pc)")
# shellcheck disable=SC2046,SC2086
c++ -std=c++20 $extra "$work/consumer/tour.cc" -o "$work/tour-pc" $(pkg-config --cflags --libs abstracts) \
  -Wl,-rpath,"$(cd "$libdir" && pwd)"
check_run "$work/tour-pc" pkg-config

# The reading-list example, built on its own against the install, as
# examples/reading-list/README.md says: `cmake -S examples/reading-list -B b`.
cmake -S "$src/examples/reading-list" -B "$work/reading-list" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_FLAGS="$extra" >/dev/null
cmake --build "$work/reading-list" >/dev/null
"$work/reading-list/reading-list" --help | grep -q "a personal list of papers" || { echo "reading-list: no help"; exit 1; }
echo "reading-list on its own: ok"

