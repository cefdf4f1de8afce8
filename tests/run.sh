#!/usr/bin/env bash
# The whole test suite: the C core's unit tests (built with AddressSanitizer
# and UndefinedBehaviorSanitizer), then pytest against the installed `asc`
# package (install it first with `pip install .`).
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pytest --version >/dev/null 2>&1 || python -m pip install -q pytest

build=build-tests
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  meson test -C "$build" --print-errorlogs

# Run from a directory without the source tree's python/ on sys.path, so
# that the installed package is what gets tested.
python -m pytest -q tests/python "$@"
