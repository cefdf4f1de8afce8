#!/usr/bin/env bash
# The whole test suite: the C core's unit tests (built with AddressSanitizer
# and UndefinedBehaviorSanitizer), then pytest against the installed `asc`
# package (install it first with `pip install .`).
set -euo pipefail
cd "$(dirname "$0")/.."

python -c "import pytest, lit" >/dev/null 2>&1 && command -v filecheck >/dev/null 2>&1 ||
  python -m pip install -q pytest lit filecheck

build=build-tests
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  meson test -C "$build" --print-errorlogs

# IR -> IR and IR -> Ascend C tests of asc-opt / asc-translate (lit + FileCheck),
# with the tools of the sanitizer build.
ASC_TOOLS_DIR="$build" lit --succinct tests/lit

# pytest imports the installed `asc` package (the source tree keeps it under
# python/, which is not on sys.path).
python -m pytest -q tests/python "$@"
