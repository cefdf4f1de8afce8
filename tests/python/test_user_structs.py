"""The user's own structs (asc.language.core.struct): host objects and their
C layout, kernel parameters of a struct type (on the simulator and in the
emitted Ascend C), structs made and changed inside kernels (through control
flow and device functions), the IR declaration (asc.struct_def), the caches,
and the errors a user meets.
"""

from __future__ import annotations

import ctypes
import enum
from typing import Any

import numpy as np
import pytest

import asc
from asc import _C
from asc.codegen.errors import CompileError
from asc.language.core.dtype import KnownTypes as KT
from asc.language.core.struct import Field, Struct, StructField


class BlockConfig(Struct):
    block_length = Field(dtype=KT.int32, default=0)


class TileConfig(Struct):
    tile_length = Field(dtype=KT.int32, default=0)
    tile_num = Field(dtype=KT.int32, default=0)


class KernelConfig(Struct):
    block = StructField(BlockConfig)
    tile = StructField(TileConfig)


class Mixed(Struct):
    a = Field(KT.uint8, default=1)
    b = Field(KT.int64, default=-2, name="bValue")
    c = Field(KT.float32, default=0.5)
    d = Field(KT.bool_, default=1)
    e = Field(KT.uint16)  # no default


class Flag(Struct):
    on = Field(KT.bit, default=False)  # a C++ bool


# ---------------------------------------------------------------------------
# host objects
# ---------------------------------------------------------------------------

def test_host_defaults_values_and_nested_views() -> None:
    cfg = KernelConfig(tile=TileConfig(tile_length=512))
    assert (cfg.block.block_length, cfg.tile.tile_length, cfg.tile.tile_num) == (0, 512, 0)
    cfg.tile.tile_num = 3  # a nested field is changed in place, as in C
    cfg.block = BlockConfig(block_length=7)  # a nested struct is copied in
    assert cfg.values() == [7, 512, 3]
    assert repr(cfg) == ("KernelConfig(block=BlockConfig(block_length=7), "
                         "tile=TileConfig(tile_length=512, tile_num=3))")
    assert cfg.pack() == np.array([7, 512, 3], np.int32).tobytes()
    assert ctypes.string_at(cfg.addressof(), 12) == cfg.pack()


def test_host_layout_is_the_c_layout() -> None:
    m = Mixed(e=9)
    # uint8 a; (pad 7) int64 b; float c; bool d; uint16 e  -> 24 bytes as a C compiler lays it out
    assert len(m.pack()) == ctypes.sizeof(m.ctypes_class) == 24
    assert m.values() == [1, -2, 0.5, True, 9]
    m.c = 0.1  # held as a float32
    assert m.c == float(np.float32(0.1))


class Color(enum.IntEnum):
    RED = 3


@pytest.mark.parametrize("make,exc,match", [
    (lambda: Mixed(), TypeError, "field `e` has no default"),
    (lambda: Mixed(e=1, nope=2), TypeError, "Mixed has no field `nope`; its fields: a, b, c, d, e"),
    (lambda: Mixed(e=1, a=256), ValueError, r"Mixed.a: 256 does not fit the field's type uint8"),
    (lambda: Mixed(e=-1), ValueError, "Mixed.e: -1 does not fit the field's type uint16"),
    (lambda: Mixed(e=1.5), TypeError, r"Mixed.e: must be an integer \(uint16\), got the float 1.5"),
    (lambda: Mixed(e=True), TypeError, "must be an integer"),
    (lambda: Mixed(e=1, c="x"), TypeError, "Mixed.c: must be a number"),
    (lambda: Mixed(e=1, d=200), ValueError, "Mixed.d: 200 does not fit the field's type int8"),  # KT.bool_
    (lambda: Flag(on=2), TypeError, "Flag.on: must be a bool"),
    (lambda: KernelConfig(tile=BlockConfig()), TypeError, "KernelConfig.tile: must be a TileConfig"),
    (lambda: Struct(), TypeError, "Struct is a base class"),
])
def test_host_checks(make: Any, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        make()


def test_enum_members_are_held_as_their_values() -> None:
    m = Mixed(e=Color.RED)
    assert m.e == 3


def test_setting_is_checked() -> None:
    m = Mixed(e=1)
    with pytest.raises(ValueError, match="does not fit"):
        m.a = -1
    with pytest.raises(AttributeError, match="Mixed has no field `z`"):
        m.z = 1
    assert m.a == 1  # unchanged


@pytest.mark.parametrize("body,match", [
    ({}, "must have at least one field"),
    ({"handle": Field(KT.int32)}, "cannot be named handle"),
    ({"x": Field(KT.int32, name="y"), "y": Field(KT.int32)}, "two fields have one C\\+\\+ name"),
])
def test_class_definition_errors(body: dict, match: str) -> None:
    with pytest.raises(TypeError, match=match):
        type("Bad", (Struct,), body)


@pytest.mark.parametrize("make,exc,match", [
    (lambda: Field(KT.float16), TypeError, "dtype must be one of"),
    (lambda: Field(KT.int8, default=200), ValueError, "200 does not fit"),
    (lambda: Field(KT.int8, name="not an identifier"), ValueError, "must be an identifier"),
    (lambda: StructField(int), TypeError, "expected a Struct class"),
])
def test_field_definition_errors(make: Any, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        make()


# ---------------------------------------------------------------------------
# kernel parameters
# ---------------------------------------------------------------------------

@asc.jit
def read_config(z: asc.GlobalAddress, cfg: KernelConfig):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, cfg.block.block_length)
    g.set_value(1, cfg.tile.tile_length)
    g.set_value(2, cfg.tile.tile_num * asc.get_block_idx())


def test_struct_parameter_reaches_every_block() -> None:
    # block_length 16: each block's row is a 64-byte data cache line of its own (docs/sanitizer.md)
    z = np.zeros((4, 16), np.int32)
    cfg = KernelConfig(block=BlockConfig(block_length=16), tile=TileConfig(tile_length=512, tile_num=5))

    @asc.jit
    def per_block(z: asc.GlobalAddress, cfg: KernelConfig):
        g = asc.GlobalTensor()
        g.set_global_buffer(z + asc.get_block_idx() * cfg.block.block_length)
        g.set_value(0, cfg.block.block_length)
        g.set_value(1, cfg.tile.tile_length)
        g.set_value(2, cfg.tile.tile_num * asc.get_block_idx())

    per_block[4, None](z, cfg)
    assert z[:, :3].tolist() == [[16, 512, 5 * i] for i in range(4)]


@pytest.mark.parametrize("name,value", [
    ("int8", -128), ("uint8", 255), ("int16", -32768), ("uint16", 65535), ("int32", -2**31),
    ("uint32", 2**32 - 1), ("int64", -2**63), ("uint64", 2**64 - 1), ("float32", -0.0), ("float32", 1e-45),
    ("float64", 1.0 / 3), ("bool", True),
])
def test_every_field_type_reaches_the_kernel(name: str, value: Any) -> None:
    d = asc.bool_ if name == "bool" else getattr(asc, name)
    cls = type(f"One_{name}", (Struct,), {"v": Field(d, default=0), "pad": Field(KT.int8, default=5)})

    @asc.jit
    def copy(z: asc.GlobalAddress, s: cls):  # type: ignore[valid-type]
        g = asc.GlobalTensor()
        g.set_global_buffer(z)
        g.set_value(0, s.v)

    npd = np.dtype(np.bool_ if name == "bool" else name)
    z = np.zeros(4, npd)
    copy[1, None](z, cls(v=value))
    want = np.array([value], npd)
    assert z[:1].tobytes() == want.tobytes()  # bit for bit: -0.0, subnormals, the extremes


def test_argument_errors() -> None:
    z = np.zeros(4, np.int32)
    with pytest.raises(TypeError, match="argument `cfg` is annotated KernelConfig but got int"):
        read_config[1, None](z, 3)
    with pytest.raises(TypeError, match="argument `cfg` is annotated KernelConfig but got a TileConfig"):
        read_config[1, None](z, TileConfig())


def test_raw_launch_checks_the_struct_numbers() -> None:
    read_config[1, None](np.zeros(4, np.int32), KernelConfig())
    kernel = next(iter(read_config.cache.values())).kernel
    z = np.zeros(4, np.int32)
    with pytest.raises(TypeError, match=r"a KernelConfig has 3 numbers .*, got 2"):
        kernel.launch(1, "Ascend910B1", [z, ("struct", (1, 2))], 1, 0)
    with pytest.raises(TypeError, match=r'a KernelConfig is passed as \("struct", numbers\)'):
        kernel.launch(1, "Ascend910B1", [z, 5], 1, 0)
    with pytest.raises(OverflowError, match="number 2 of the struct does not fit its field's type int32"):
        kernel.launch(1, "Ascend910B1", [z, ("struct", (1, 2, 2**31))], 1, 0)
    kernel.launch(1, "Ascend910B1", [z, ("struct", (1, 2, 3))], 1, 0)
    assert z[:3].tolist() == [1, 2, 0]


def test_emitted_ascendc_declares_and_copies_in() -> None:
    read_config[1, None](np.zeros(4, np.int32), KernelConfig())
    cpp = next(iter(read_config.cache.values())).ascendc(line_comments=False)
    # declarations in dependency order, then the parameter as global memory copied into a local
    assert cpp.index("struct BlockConfig {\n    int32_t block_length;\n};") < cpp.index("struct KernelConfig {")
    assert "struct KernelConfig {\n    BlockConfig block;\n    TileConfig tile;\n};" in cpp
    assert "void read_config(GM_ADDR z, GM_ADDR cfg_gm)" in cpp
    assert "KernelConfig cfg;\n" in cpp and "sizeof(KernelConfig)" in cpp
    assert "reinterpret_cast<__gm__ uint8_t *>(cfg_gm)" in cpp
    assert "cfg.tile.tile_length" in cpp


def test_cpp_member_names() -> None:
    @asc.jit
    def k(z: asc.GlobalAddress, m: Mixed):
        g = asc.GlobalTensor()
        g.set_global_buffer(z)
        g.set_value(0, m.b)

    z = np.zeros(2, np.int64)
    k[1, None](z, Mixed(b=-7, e=0))
    assert z[0] == -7
    cpp = next(iter(k.cache.values())).ascendc(line_comments=False)
    assert "int64_t bValue;" in cpp and "m.bValue" in cpp and "bool d;" not in cpp  # KT.bool_ is int8
    assert "int8_t d;" in cpp


# ---------------------------------------------------------------------------
# structs made and changed in kernels
# ---------------------------------------------------------------------------

@asc.jit
def fill(z: asc.GlobalAddress, n: int):
    t = TileConfig(tile_length=n)  # tile_num: its default
    for i in range(n):
        t.tile_num += i  # carried through the loop
        if i % 2 == 0:
            t.tile_length = t.tile_length - 1  # merged out of the branch
    c = KernelConfig(tile=t)
    c.block.block_length = 100 + n  # a nested field
    u = c  # a copy: changing c later leaves u as it is
    c.tile.tile_num = -1
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, u.tile.tile_length)
    g.set_value(1, u.tile.tile_num)
    g.set_value(2, u.block.block_length)
    g.set_value(3, c.tile.tile_num)
    g.set_value(4, Mixed().e)  # a field without a default is zero in a kernel


@pytest.mark.parametrize("n", [0, 1, 5])
def test_structs_made_and_changed_in_a_kernel(n: int) -> None:
    z = np.full(5, 99, np.int32)
    fill[1, None](z, n)
    assert z.tolist() == [n - (n + 1) // 2, sum(range(n)), 100 + n, -1, 0]


@asc.jit
def scaled(t: TileConfig, k: int) -> TileConfig:
    t.tile_length = t.tile_length * k
    return t


@asc.jit
def through_calls(z: asc.GlobalAddress, cfg: KernelConfig):
    t = scaled(cfg.tile, 3)
    u = scaled(TileConfig(tile_length=2), 5)
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, t.tile_length)
    g.set_value(1, cfg.tile.tile_length)  # the caller's struct is unchanged
    g.set_value(2, u.tile_length)


def test_structs_through_device_functions() -> None:
    z = np.zeros(3, np.int32)
    through_calls[1, None](z, KernelConfig(tile=TileConfig(tile_length=7)))
    assert z.tolist() == [21, 7, 10]


HOST_CFG = TileConfig(tile_length=11)


@asc.jit
def reads_global(z: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, HOST_CFG.tile_length)


def test_a_host_struct_read_by_a_kernel_is_a_constant_and_recompiled_when_changed() -> None:
    z = np.zeros(2, np.int32)
    reads_global[1, None](z)
    assert z[0] == 11
    HOST_CFG.tile_length = 12
    reads_global[1, None](z)
    assert z[0] == 12
    HOST_CFG.tile_length = 11


def _src_error(fn: Any, *args: Any) -> CompileError:
    with pytest.raises(CompileError) as info:
        fn[1, None](*args)
    return info.value


def test_kernel_errors_name_the_line() -> None:
    z = np.zeros(4, np.int32)

    @asc.jit
    def float_into_int(z: asc.GlobalAddress, x: float):
        t = TileConfig()
        t.tile_num = x

    e = _src_error(float_into_int, z, 1.5)
    assert "TileConfig.tile_num: is int32, got a runtime float32 value" in e.message and e.line > 0

    @asc.jit
    def unknown_field(z: asc.GlobalAddress):
        t = TileConfig()
        t.count = 1

    assert "TileConfig has no field `count`" in _src_error(unknown_field, z).message

    @asc.jit
    def too_big(z: asc.GlobalAddress):
        Mixed(a=300)

    assert "Mixed.a: 300 does not fit the field's type uint8" in _src_error(too_big, z).message

    @asc.jit
    def not_a_struct(z: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.size = 3

    assert "only the fields of a Struct can be assigned" in (_src_error(not_a_struct, z).hint or "")

    @asc.jit
    def not_a_name(z: asc.GlobalAddress):
        KernelConfig().tile.tile_num = 3

    assert "only fields of struct variables can be assigned" in _src_error(not_a_name, z).message


def test_two_classes_of_one_name_in_a_kernel() -> None:
    other = type("TileConfig", (Struct,), {"x": Field(KT.int8, default=0)})

    @asc.jit
    def both(z: asc.GlobalAddress, a: TileConfig, b: other):  # type: ignore[valid-type]
        pass

    e = _src_error(both, np.zeros(1, np.int32), TileConfig(), other())
    assert "struct TileConfig is defined twice with different fields" in e.message
    assert "its own name" in (e.hint or "")


def test_a_struct_named_as_a_parameter_struct_is_refused() -> None:
    clash = type("BinaryRepeatParams", (Struct,), {"x": Field(KT.int8, default=0)})

    @asc.jit
    def k(z: asc.GlobalAddress, a: clash):  # type: ignore[valid-type]
        pass

    e = _src_error(k, np.zeros(1, np.int32), clash())
    assert "the name of an Ascend C parameter struct" in e.message


# ---------------------------------------------------------------------------
# the IR declaration and the caches
# ---------------------------------------------------------------------------

def test_ir_text_round_trips_and_runs() -> None:
    read_config[1, None](np.zeros(4, np.int32), KernelConfig())
    text = next(iter(read_config.cache.values())).ir_text()
    assert '"asc.struct_def"() {sym_name = "KernelConfig", field_names = "block,tile"' in text
    module = _C.Module.parse(text, "again.ascir")
    assert module.print() == text
    kernel = module.compile("read_config")
    z = np.zeros(4, np.int32)
    kernel.launch(2, "Ascend910B1", [z, ("struct", (4, 5, 6))], 1, 0)
    assert z[:3].tolist() == [4, 5, 6]


@pytest.mark.parametrize("decl,match", [
    ('"asc.struct_def"() {sym_name = "S", field_names = "a,b", field_types = [i32]} : () -> ()',
     "struct S: 2 field names for 1 field types"),
    ('"asc.struct_def"() {sym_name = "S", field_names = "a,a", field_types = [i32, i32]} : () -> ()',
     "struct S: two fields named a"),
    ('"asc.struct_def"() {sym_name = "S", field_names = "a b", field_types = [i32]} : () -> ()',
     "field 'a b' must be named by identifiers"),
    ('"asc.struct_def"() {sym_name = "S", field_names = "a", field_types = [index]} : () -> ()',
     "must be named by identifiers .* and be a number or a struct"),
    ('"asc.struct_def"() {sym_name = "UnaryRepeatParams", field_names = "a", field_types = [i32]} : () -> ()',
     "the name of an Ascend C parameter struct"),
    ('"asc.struct_def"() {sym_name = "S", field_names = "a", field_types = [i32]} : () -> ()\n'
     '  "asc.struct_def"() {sym_name = "S", field_names = "a", field_types = [f32]} : () -> ()',
     "struct S is defined twice with different fields"),
    ('"asc.struct_def"() {sym_name = "S", field_names = "a", field_types = [!asc.struct<T>]} : () -> ()',
     "'T' is not a parameter struct"),
])
def test_malformed_declarations(decl: str, match: str) -> None:
    text = f"""
module @m {{
  {decl}
}}
"""
    with pytest.raises(_C.IRError, match=match):
        _C.Module.parse(text, "bad.ascir").verify()


def test_struct_kernels_are_cached_on_disk(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from asc.runtime import cache

    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))

    @asc.jit
    def cached(z: asc.GlobalAddress, cfg: KernelConfig):
        g = asc.GlobalTensor()
        g.set_global_buffer(z)
        g.set_value(0, cfg.tile.tile_num)

    z = np.zeros(2, np.int32)
    cached[1, None](z, KernelConfig(tile=TileConfig(tile_num=4)))
    assert z[0] == 4
    assert cache.stable_key(KernelConfig) is not None
    assert any(tmp_path.rglob("*")), "the kernel was not written to the disk cache"
    cached.cache.clear()
    cached[1, None](z, KernelConfig(tile=TileConfig(tile_num=6)))
    assert z[0] == 6 and next(iter(cached.cache.values())).from_disk
