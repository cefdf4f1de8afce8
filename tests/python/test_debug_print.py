"""Device-side debugging on the simulator: printf, dump_tensor,
dump_acc_chk_point, print_time_stamp, metrics_prof_start / metrics_prof_stop.

The text is what the devkit documents the NPU runtime printing: printf
after ``[AIV Block b/N] ``, a DumpTensor header line then the elements
(``%f`` for floats), PrintTimeStamp's ``descId is ...`` line. Each block's
output comes out at the end of the launch, block after block, whatever the
host threads did. The references below format with Python's % operator,
which follows C's printf.
"""

import re
from typing import Any, List

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc

NP = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
      "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64, "float16": np.float16,
      "float32": np.float32}
NAME = {"float16": "float16", "float32": "float32", "int8": "int8", "int16": "int16", "int32": "int32",
        "int64": "int64", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64"}


def out_of(capfd: Any) -> str:
    return capfd.readouterr().out


# ---- printf ------------------------------------------------------------------------------------

@asc.jit
def printf_value_kernel(x: asc.GlobalAddress, fmt: asc.ConstExpr[str]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.printf(fmt, g.get_value(0))


def c_format(fmt: str, v: Any, dtype: str) -> str:
    """The value as C's printf prints it after the default promotions: a
    type of 32 bits or less is an int / unsigned int, 64-bit ones with
    their width."""
    conv = fmt[-1]
    if conv in "fF":
        return (fmt % float(v)).replace("inf", "inf")
    bits = 64 if ("l" in fmt or np.dtype(NP[dtype]).itemsize == 8) else 32
    iv = int(v)
    if conv in "uxX":
        iv &= (1 << bits) - 1
    elif bits == 32:
        iv = (iv + 2**31) % 2**32 - 2**31
    return fmt.replace("ll", "").replace("l", "").replace("u", "d") % iv


INT_CASES = [("%d", "int8", -7), ("%i", "int16", -300), ("%d", "int32", -123456), ("%lld", "int64", -2**40),
             ("%ld", "int64", 2**50 + 3), ("%u", "uint8", 200), ("%u", "uint16", 65535), ("%u", "uint32", 2**32 - 1),
             ("%llu", "uint64", 2**63 + 5), ("%x", "int32", -1), ("%x", "uint32", 0xdeadbeef),
             ("%lx", "int64", -2), ("%llx", "uint64", 2**64 - 1), ("%X", "int16", 0x7abc),
             ("%5d", "int32", 42), ("%-6d|", "int32", -42), ("%08x", "uint32", 0xbeef), ("%+d", "int8", 5),
             ("%lu", "uint64", 12345678901234)]
FLOAT_CASES = [("%f", "float32", 3.14), ("%f", "float16", -2.5), ("%F", "float32", 1e10), ("%.2f", "float32", 1.005),
               ("%10.3f", "float16", 0.333), ("%f", "float32", -0.0), ("%f", "float32", 1e-8)]


@pytest.mark.parametrize("fmt, dtype, value", INT_CASES + FLOAT_CASES)
def test_printf_conversion_of_each_type(capfd: Any, fmt: str, dtype: str, value: Any) -> None:
    x = np.array([value] * 8, dtype=NP[dtype])
    printf_value_kernel[1](x, f"v={fmt};\n")
    assert out_of(capfd) == f"[AIV Block 0/1] v={c_format(fmt, x[0], dtype)};\n"


@asc.jit
def printf_mixed_kernel(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.printf("block %d of %d: %s has %d items, %f%% done, p=%p\n", asc.get_block_idx(), asc.get_block_num(),
               "worker", n, 12.5, 4096)
    asc.printf("no newline: %u ", 7)
    asc.printf("%s and %s\n", "a%d", "b")
    asc.printf("plain\n")
    asc.printf("bool %d %d, const %f\n", True, False, 0.25)


def test_printf_strings_constants_and_block_order(capfd: Any) -> None:
    x = np.zeros(8, np.float32)
    printf_mixed_kernel[4](x, 11)
    out = out_of(capfd)
    expected = "".join(
        f"[AIV Block {b}/4] block {b} of 4: worker has 11 items, 12.500000% done, p=0x1000\n"
        f"[AIV Block {b}/4] no newline: 7 [AIV Block {b}/4] a%d and b\n"
        f"[AIV Block {b}/4] plain\n"
        f"[AIV Block {b}/4] bool 1 0, const 0.250000\n" for b in range(4))
    assert out == expected


@asc.jit
def printf_loop_kernel(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    for i in range(n):
        asc.printf("b%d i%d v%f\n", asc.get_block_idx(), i, g.get_value(i))


@pytest.mark.parametrize("workers", [1, 3])
def test_printf_in_a_loop_is_in_block_then_program_order(capfd: Any, workers: int, monkeypatch: Any) -> None:
    monkeypatch.setenv("PYASC_WORKERS", str(workers))
    x = np.arange(16, dtype=np.float32) / 4
    printf_loop_kernel[5](x, 6)
    lines = out_of(capfd).splitlines()
    assert lines == [f"[AIV Block {b}/5] b{b} i{i} v{x[i]:f}" for b in range(5) for i in range(6)]


@asc.jit
def printf_upstream_newline_kernel(x: asc.GlobalAddress):
    asc.printf("current index is %d.\\n", 3)  # upstream writes a newline as "\\n"
    asc.printf('quote \\" backslash \\\\ done\n')


def test_printf_backslash_n_is_a_newline_as_upstream_writes_it(capfd: Any) -> None:
    printf_upstream_newline_kernel[1](np.zeros(8, np.int32))
    assert out_of(capfd) == '[AIV Block 0/1] current index is 3.\n[AIV Block 0/1] quote " backslash \\ done\n'
    assert 'AscendC::printf("current index is %d.\\n", 3)' in ascendc(printf_upstream_newline_kernel)


@asc.jit
def printf_address_kernel(x: asc.GlobalAddress):
    asc.printf("%p %p\n", x, x + 3)


def test_printf_of_a_gm_address_is_its_byte_offset(capfd: Any) -> None:
    printf_address_kernel[1](np.zeros(8, np.int32))
    assert out_of(capfd) == "[AIV Block 0/1] 0x0 0xc\n"


def _bad_format(fmt: str) -> Any:
    @asc.jit
    def bad_format_kernel(x: asc.GlobalAddress):
        asc.printf(fmt, 1)  # bad printf

    return bad_format_kernel


@pytest.mark.parametrize("fmt, fragment", [
    ("%q\n", "unsupported conversion"), ("%lf\n", "unsupported conversion"), ("%hd\n", "unsupported conversion"),
    ("%c\n", "unsupported conversion"), ("tab\t%d\n", "control character"),
    ("tab\\t%d\n", "the escape '\\\\t'"), ("%d %d\n", "more conversions"),
    ("none\n", "1 argument(s) given for the 0"), ("%", "unsupported conversion"), ("%5%\n", "unsupported")])
def test_printf_bad_format_is_a_compile_error_at_the_call(fmt: str, fragment: str) -> None:
    fails_at(_bad_format(fmt), [np.zeros(8, np.int32)], "# bad printf", fragment, cls=asc.CompileError)


@asc.jit
def printf_float_as_int_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.printf("%d\n", g.get_value(0))  # float for d


@asc.jit
def printf_int_as_float_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.printf("%f\n", g.get_value(0))  # int for f


@asc.jit
def printf_str_for_d_kernel(x: asc.GlobalAddress):
    asc.printf("%d\n", "text")  # str for d


@asc.jit
def printf_runtime_for_s_kernel(x: asc.GlobalAddress):
    asc.printf("%s\n", asc.get_block_idx())  # runtime for s


@asc.jit
def printf_tensor_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.printf("%d\n", g)  # tensor arg


@asc.jit
def printf_format_not_str_kernel(x: asc.GlobalAddress):
    asc.printf(5)  # format not str


@pytest.mark.parametrize("kernel, dtype, marker, fragment", [
    (printf_float_as_int_kernel, np.float32, "# float for d", "does not match"),
    (printf_int_as_float_kernel, np.int32, "# int for f", "does not match"),
    (printf_str_for_d_kernel, np.int32, "# str for d", "only %s prints"),
    (printf_runtime_for_s_kernel, np.int32, "# runtime for s", "compile-time string"),
    (printf_tensor_kernel, np.int32, "# tensor arg", "must be a number"),
    (printf_format_not_str_kernel, np.int32, "# format not str", "compile-time str")])
def test_printf_argument_errors(kernel: Any, dtype: Any, marker: str, fragment: str) -> None:
    fails_at(kernel, [np.zeros(8, dtype)], marker, fragment, cls=asc.CompileError)


def test_printf_ascendc_spelling() -> None:
    printf_mixed_kernel[1](np.zeros(8, np.float32), 3)
    code = ascendc(printf_mixed_kernel)
    assert 'AscendC::printf("block %d of %d: worker has %d items, %f%% done, p=%p\\n", ' in code
    assert 'AscendC::printf("a%%d and b\\n")' in code
    assert 'AscendC::printf("plain\\n")' in code


# ---- dump_tensor, dump_acc_chk_point --------------------------------------------------------------

def elem(v: Any, dtype: str) -> str:
    return f"{float(v):f}" if dtype.startswith("float") else str(int(v))


def header(desc: int, addr: int, dtype: str, pos: str, n: int) -> str:
    return f"DumpTensor: desc={desc}, addr={addr:#x}, data_type={NAME[dtype]}, position={pos}, dump_size={n}\n"


def flat(vals: Any, dtype: str) -> str:
    return "[" + ", ".join(elem(v, dtype) for v in vals) + "]\n"


@asc.jit
def dump_kernel(x: asc.GlobalAddress, n: int, cnt: int, off: int, desc: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 256, 4096 // x.dtype.sizeof())
    asc.data_copy(t, g, n)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    asc.dump_tensor(t, desc, cnt)
    asc.dump_tensor(g, desc + 1, cnt)
    asc.dump_acc_chk_point(t, desc + 2, off, cnt)
    asc.dump_acc_chk_point(g[off:], desc + 3, 1, cnt)


@pytest.mark.parametrize("dtype", sorted(NP))
def test_dump_tensor_each_type_local_and_global(capfd: Any, dtype: str) -> None:
    rng = np.random.default_rng(len(dtype))
    info = np.iinfo(NP[dtype]) if not dtype.startswith("float") else None
    n = 256 // np.dtype(NP[dtype]).itemsize
    if info is not None:
        x = rng.integers(info.min, info.max, n, dtype=NP[dtype], endpoint=True)
    else:
        x = (rng.standard_normal(n) * 100).astype(NP[dtype])
    cnt, off = 7, 32 // x.itemsize
    dump_kernel[1](x, n, cnt, off, 10)
    es = x.itemsize
    expected = (header(10, 256, dtype, "UB", cnt) + flat(x[:cnt], dtype)
                + header(11, 0, dtype, "GM", cnt) + flat(x[:cnt], dtype)
                + header(12, 256 + off * es, dtype, "UB", cnt) + flat(x[off:off + cnt], dtype)
                + header(13, (off + 1) * es, dtype, "GM", cnt) + flat(x[off + 1:off + 1 + cnt], dtype))
    assert out_of(capfd) == expected


@asc.jit
def dump_shape_kernel(x: asc.GlobalAddress, cnt: int, rows: asc.ConstExpr[int], cols: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.dump_tensor(g, 2, cnt, asc.ShapeInfo([rows, cols]))


def shaped(vals: Any, dims: List[int], n: int, dtype: str) -> str:
    def level(first: int, d: int, stride: int) -> str:
        inner = stride // dims[d]
        if d == len(dims) - 1:
            return "[" + ",".join(elem(vals[first + j], dtype) if first + j < n else "-"
                                  for j in range(dims[d])) + "]"
        return "[" + ",\n".join(level(first + j * inner, d + 1, inner) for j in range(dims[d])) + "]"

    size = int(np.prod(dims))
    note = ""
    if size != n:
        what = "data is not enough." if size > n else "dumpSize is greater than shapeSize."
        note = f"shape is [{', '.join(map(str, dims))}], dumpSize is {n}, {what}\n"
    return note + level(0, 0, size) + "\n"


@pytest.mark.parametrize("rows, cols, cnt", [(8, 8, 64), (7, 8, 64), (9, 8, 64), (3, 5, 13), (1, 4, 4)])
def test_dump_tensor_with_shape_info(capfd: Any, rows: int, cols: int, cnt: int) -> None:
    x = np.linspace(-4, 4, 128).astype(np.float16)
    dump_shape_kernel[1](x, cnt, rows, cols)
    assert out_of(capfd) == header(2, 0, "float16", "GM", cnt) + shaped(x, [rows, cols], cnt, "float16")


@asc.jit
def dump_3d_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.dump_tensor(g, 3, 12, asc.ShapeInfo([2, 2, 3]))


def test_dump_tensor_three_dimensions(capfd: Any) -> None:
    x = np.arange(12, dtype=np.int32)
    dump_3d_kernel[1](x)
    assert out_of(capfd) == header(3, 0, "int32", "GM", 12) + shaped(x, [2, 2, 3], 12, "int32")


@asc.jit
def dump_blocks_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x + asc.get_block_idx() * 8)
    asc.printf("before %d\n", asc.get_block_idx())
    asc.dump_tensor(g, asc.get_block_idx(), 8)


def test_dump_and_printf_of_several_blocks_in_block_order(capfd: Any) -> None:
    x = np.arange(32, dtype=np.int16)
    dump_blocks_kernel[4](x)
    expected = "".join(f"[AIV Block {b}/4] before {b}\n" + header(b, 16 * b, "int16", "GM", 8)
                       + flat(x[8 * b:8 * b + 8], "int16") for b in range(4))
    assert out_of(capfd) == expected


@asc.jit
def dump_big_kernel(x: asc.GlobalAddress, cnt: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.dump_tensor(g, 1, cnt)
    asc.printf("after\n")


@pytest.mark.parametrize("cnt, printed", [(7680, True), (7681, False), (0, False)])
def test_dump_of_nothing_or_over_30_kb_prints_nothing(capfd: Any, cnt: int, printed: bool) -> None:
    x = np.ones(8000, np.float32)
    dump_big_kernel[1](x, cnt)
    out = out_of(capfd)
    assert out.endswith("[AIV Block 0/1] after\n")
    assert out.startswith(header(1, 0, "float32", "GM", cnt)) == printed
    if printed:
        assert out.count("1.000000") == cnt


@asc.jit
def dump_orders_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress):
    g = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    g.set_global_buffer(x)
    zg.set_global_buffer(z)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.data_copy(t, g, 64)
    asc.dump_tensor(t, 1, 4)  # (no flag: the dump waits for every pipe)
    asc.adds(t, t, 1.0, 64)
    asc.dump_tensor(t, 2, 4)
    asc.data_copy(zg, t, 64)


def test_a_dump_is_a_barrier_of_every_pipe(capfd: Any) -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    dump_orders_kernel[1](x, z)  # the sanitizer (on by default) finds no race
    np.testing.assert_array_equal(z, x + 1)
    assert out_of(capfd) == (header(1, 0, "float32", "UB", 4) + flat(x[:4], "float32")
                             + header(2, 0, "float32", "UB", 4) + flat(x[:4] + 1, "float32"))


@asc.jit
def dump_misaligned_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.dump_acc_chk_point(t, 1, 3, 4)  # misaligned


@asc.jit
def dump_overrun_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.dump_tensor(t, 1, 65)  # overrun


@asc.jit
def dump_gm_overrun_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.dump_tensor(g, 1, 9)  # gm overrun


def test_dump_errors_at_run_time() -> None:
    x = np.zeros(8, np.float32)
    fails_at(dump_misaligned_kernel, [x], "# misaligned", "not 32-byte aligned")
    fails_at(dump_overrun_kernel, [x], "# overrun", "tensor")
    with pytest.raises((asc.KernelError, asc.SanitizerError)):
        dump_gm_overrun_kernel[1](x)


@asc.jit
def dump_bad_args_kernel(x: asc.GlobalAddress, which: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    if which == 0:
        asc.dump_tensor(x, 1, 8)  # bad arg
    elif which == 1:
        asc.dump_tensor(g, -1, 8)  # bad arg
    elif which == 2:
        asc.dump_tensor(g, 1, 2**32)  # bad arg
    elif which == 3:
        asc.dump_tensor(g, 1, 8, [2, 4])  # bad arg
    elif which == 4:
        asc.dump_acc_chk_point(g, 1, 1.5, 8)  # bad arg
    else:
        asc.print_time_stamp("id")  # bad arg


@pytest.mark.parametrize("which, fragment", [(0, "LocalTensor or a GlobalTensor"), (1, "does not fit uint32_t"),
                                             (2, "does not fit uint32_t"), (3, "asc.ShapeInfo"),
                                             (4, "count_off must be an integer"), (5, "desc_id must be an integer")])
def test_dump_argument_errors(which: int, fragment: str) -> None:
    kernel = dump_bad_args_kernel
    with pytest.raises(asc.CompileError) as info:
        kernel[1](np.zeros(8, np.float32), which)
    assert fragment in str(info.value)


def test_dump_ascendc_spelling() -> None:
    dump_kernel[1](np.zeros(64, np.float32), 64, 4, 8, 1)
    code = ascendc(dump_kernel)
    assert re.search(r"AscendC::DumpTensor\(\w+, \w+, \w+\);", code)
    assert re.search(r"AscendC::DumpAccChkPoint\(\w+\[?\w*\]?, [^;]+\);", code)
    dump_shape_kernel[1](np.zeros(64, np.float16), 4, 2, 2)
    assert "AscendC::DumpTensor(" in ascendc(dump_shape_kernel)
    assert "AscendC::ShapeInfo(2, " in ascendc(dump_shape_kernel)


# ---- print_time_stamp, metrics_prof_start / stop -------------------------------------------------

@asc.jit
def stamp_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress):
    g = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    g.set_global_buffer(x)
    zg.set_global_buffer(z)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 1024)
    asc.metrics_prof_start()
    asc.print_time_stamp(65577)
    asc.data_copy(t, g, 1024)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(t, t, 1.0, 1024)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, t, 1024)
    asc.set_flag(asc.HardEvent.MTE3_S, 0)
    asc.wait_flag(asc.HardEvent.MTE3_S, 0)
    asc.print_time_stamp(65578)
    asc.metrics_prof_stop()


STAMP = re.compile(r"descId is (\d+), rsv is 0, timeStamp is (\d+), pcPtr is 0, entry is (\d+)\.")


def stamps_of(out: str) -> List[tuple]:
    return [tuple(map(int, m)) for m in STAMP.findall(out)]


@pytest.mark.parametrize("profiled", [False, True])
def test_print_time_stamp_takes_the_timing_models_cycle(capfd: Any, profiled: bool) -> None:
    x = np.arange(1024, dtype=np.float32)
    z = np.zeros_like(x)
    if profiled:
        with asc.profile():
            stamp_kernel[1](x, z)
    else:  # (the timing model runs for a kernel with time stamps; twice: the fast path too)
        stamp_kernel[1](x, z)
        stamp_kernel[1](x, z)
    np.testing.assert_array_equal(z, x + 1)  # metrics_prof_* change nothing
    stamps = stamps_of(out_of(capfd))
    assert len(stamps) == (2 if profiled else 4)
    (d0, t0, e0), (d1, t1, e1) = stamps[:2]
    assert (d0, d1) == (65577, 65578) and e0 == e1 > 0
    assert e0 <= t0 < t1
    # the copies in and out of 4 KB each take well over a hundred cycles
    assert t1 - t0 > 200
    assert stamps[2:] in ([], stamps[:2])  # the same cycles every launch


def test_print_time_stamp_cycles_are_per_block(capfd: Any) -> None:
    @asc.jit
    def stamp_blocks_kernel(x: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 1024)
        asc.print_time_stamp(70000)
        for _i in range(asc.get_block_idx()):
            asc.data_copy(t, g, 1024)
            asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.print_time_stamp(70001)

    stamp_blocks_kernel[3](np.zeros(1024, np.float32))
    stamps = stamps_of(out_of(capfd))
    assert [s[0] for s in stamps] == [70000, 70001] * 3
    spans = [stamps[2 * b + 1][1] - stamps[2 * b][1] for b in range(3)]
    assert spans[0] < spans[1] < spans[2]  # each block's own clock: more copies, more cycles


def test_time_stamp_and_metrics_ascendc_spelling() -> None:
    stamp_kernel[1](np.zeros(1024, np.float32), np.zeros(1024, np.float32))
    code = ascendc(stamp_kernel)
    assert "AscendC::PrintTimeStamp(65577);" in code
    assert "AscendC::MetricsProfStart();" in code and "AscendC::MetricsProfStop();" in code
