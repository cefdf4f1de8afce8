#!/usr/bin/env bash
# The whole test suite: the C core's unit tests (built with AddressSanitizer
# and UndefinedBehaviorSanitizer), the lit tests of the tools, pytest against
# the installed `asc` package (install it first with `pip install .`), and
# most of pytest again against the sanitizer build of the extension.
set -euo pipefail
cd "$(dirname "$0")/.."

python -c "import pytest, lit, hypothesis" >/dev/null 2>&1 && command -v filecheck >/dev/null 2>&1 ||
  python -m pip install -q pytest lit filecheck hypothesis

build=build-tests
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C "$build" >/dev/null  # everything: the tests, the tools, the extension
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  meson test -C "$build" --print-errorlogs

# IR -> IR and IR -> Ascend C tests of asc-opt / asc-translate (lit + FileCheck),
# with the tools of the sanitizer build.
ASC_TOOLS_DIR="$build" lit --succinct tests/lit

# pytest imports the installed `asc` package (the source tree keeps it under
# python/, which is not on sys.path).
python -m pytest -q tests/python "$@"

# The C core once more under AddressSanitizer and UndefinedBehaviorSanitizer,
# driven from Python: the front-end, simulator, sanitizer and timing tests
# against the sanitizer build of the extension (loaded with the sanitizer
# runtimes preloaded; leaks are not checked: Python itself keeps memory).
# --capture=sys leaves the C code's stderr alone, so that a sanitizer report
# that ends the process is printed instead of dying inside pytest's capture.
stage="$PWD/$build/python-asan"
rm -rf "$stage" && mkdir -p "$stage" && cp -r python/asc python/asc2 "$stage/" && cp "$build"/_C*.so "$stage/asc/"
if PYTHONPATH="$stage" python -c "import importlib.util as u, sys; sys.exit(not u.find_spec('asc').origin.startswith('$stage'))"; then
  LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)" \
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 PYTHONPATH="$stage" \
    python -m pytest -q --capture=sys -p no:cacheprovider -k "not chromium" tests/python/test_examples.py \
    tests/python/test_control_flow.py tests/python/test_errors.py tests/python/test_sanitizer.py \
    tests/python/test_timing.py tests/python/test_timing_model.py tests/python/test_tensor_access.py \
    tests/python/test_frontend.py tests/python/test_asc2_elementwise.py tests/python/test_asc2_reduce.py \
    tests/python/test_asc2_where.py tests/python/test_asc2_shape.py tests/python/test_asc2_atomic.py \
    tests/python/test_asc2_matmul.py tests/python/test_asc2_split.py tests/python/test_asc2_cube.py \
    tests/python/test_asc2_api.py tests/python/test_asc2_rows.py tests/python/test_asc2_tile_methods.py \
    tests/python/test_asc2_broadcast.py \
    tests/python/test_launch.py tests/python/test_workers.py tests/python/test_data_copy.py \
    tests/python/test_vector_ops.py tests/python/test_vector_level0.py tests/python/test_cast.py \
    tests/python/test_hostile_values.py tests/python/test_misuse.py tests/python/test_param_structs.py \
    tests/python/test_vector_ops_more.py tests/python/test_vector_masks.py tests/python/test_vector_reduce.py \
    tests/python/test_vector_compare.py tests/python/test_vector_sort.py tests/python/test_system.py \
    tests/python/test_block_sync.py tests/python/test_scalar_bits.py tests/python/test_vector_select.py \
    tests/python/test_vector_reduce_l0.py tests/python/test_debug_print.py tests/python/test_aipp_api.py \
    tests/python/test_vector_quant.py tests/python/test_vector_bilinear.py tests/python/test_vector_gather.py \
    tests/python/test_vector_transpose.py tests/python/test_data_copy_forms.py tests/python/test_atomics.py \
    tests/python/test_devkit_forms.py tests/python/test_list_tensor_desc.py tests/python/test_counter_mode.py \
    tests/python/test_data_copy_slice.py tests/python/test_hccl_context.py tests/python/test_insert_sync.py \
    tests/python/test_pass_inline.py tests/python/test_ub_plan.py tests/python/test_auto_sync.py \
    tests/python/test_host_tiling.py tests/python/test_kernel_types.py tests/python/test_cube.py \
    tests/python/test_matmul_adv.py tests/python/test_matmul_api.py tests/python/test_matmul_seq.py \
    tests/python/test_cube_fixpipe.py tests/python/test_cube_load.py tests/python/test_cube_sparse.py \
    tests/python/test_cube_modes.py tests/python/test_data_copy_nz2nd.py tests/python/test_matmul_local.py \
    tests/python/test_cube_forms.py tests/python/test_cube_queues.py tests/python/test_cube_unitflag.py \
    tests/python/test_adv_math.py tests/python/test_adv_softmax.py tests/python/test_adv_norm_quant.py \
    tests/python/test_adv_sort.py tests/python/test_ub_plan_dynamic.py tests/python/test_matmul_static_tiling.py \
    tests/python/test_npu_compile.py tests/python/test_dcache.py \
    tests/python/test_cast_level0.py tests/python/test_precision.py \
    tests/python/test_hw_rules.py tests/python/test_sanitizer_shadow.py
  # the front-end fuzzer's CI slice (a fixed seed and count) against the same build: a crash, a
  # sanitizer report or an exception other than asc's fails it (tests/fuzz/README.md)
  LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)" \
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 PYTHONPATH="$stage" \
    python tests/fuzz/fuzz_frontend.py
else
  echo "note: an editable install of asc shadows PYTHONPATH here, so the pytest run against the" \
    "sanitizer build is skipped (it runs wherever the package is installed normally, as in CI)" >&2
fi
