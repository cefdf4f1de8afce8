"""family: matmul. `asc.adv.Matmul`, the devkit's high-level matrix multiply `AscendC::Matmul<A, B, C, BIAS,
CFG>`: C = A * B (+ bias) over one core's share of the matrices, cut into base blocks by a TCubeTiling
(`asc.lib.host` makes it on the host). With upstream pyasc's names, signatures and defaults.

    matmul = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16), b=...,
                            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
    asc.adv.register_matmul(pipe, workspace, matmul, tiling)
    matmul.set_tensor_a(a_global); matmul.set_tensor_b(b_global); matmul.set_tail(tail_m, tail_n)
    matmul.iterate_all(c_global)              # every base block into C in GM, or:
    with matmul.iterate() as count:           # one base block a pass (count: 0, 1, ...)
        matmul.get_tensor_c(c_local)          # baseM x baseN into a UB tensor (or into GM at its place)
    matmul.end()

In the IR the object is an int32 handle made by `asc.matmul`, whose attributes are its template parameters;
every method is one op taking the handle first (src/ir/ops.def, family matmul). src/sim/matmul.c has the
semantics (on a MIX kernel each vector core computes its own object's share, as the devkit's AIV clients do).
The asynchronous forms (sync=False) do their work at the call on the simulator; the Wait* methods are then
ordering points. What is not implemented raises NotImplementedError naming itself (docs/api.md)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Optional

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, error, got, usage
from ..core.constexpr import ConstExpr
from ..core.enums import (  # type: ignore[attr-defined]
    BatchMode,
    CubeFormat,
    IterateOrder,
    LayoutMode,
    MatmulConfigMode,
    MatmulPolicy,
    ScheduleType,
    TPosition,
)
from ..core.types import STRUCTS as _STRUCTS
from ..core.values import GlobalAddress, GlobalTensor, IRValue, LocalTensor, Scalar, const, int_operand, to_scalar
from . import static_tiling as _static
from .static_tiling import MatmulApiStaticTiling
from .tiling import TCubeTiling
from .types import MatmulBatchParams, MatmulConfig, MatmulFuncParams, MatmulQuantParams, MatmulShapeParams

# `MatrixOffset`, what get_offset_c returns (the struct table's; upstream's asc.adv.MatrixOffset)
MatrixOffset: Any = _STRUCTS["MatrixOffset"]

# the element types of A and B the Ascend910B's cube unit multiplies, and what C and bias may be for each
_AB_TYPES = (dt.float16, dt.bfloat16, dt.float32, dt.int8)
_C_TYPES = {dt.float16: (dt.float32, dt.float16, dt.int8), dt.bfloat16: (dt.float32, dt.bfloat16, dt.int8),
            dt.float32: (dt.float32,), dt.int8: (dt.int32, dt.float16, dt.int8)}
_BIAS_TYPES = {dt.float16: (dt.float32, dt.float16), dt.bfloat16: (dt.float32, dt.bfloat16),
               dt.float32: (dt.float32,), dt.int8: (dt.int32,)}


@dataclass(frozen=True)
class MatmulType:
    """`AscendC::MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT>`: where a matrix of the Matmul lives, its
    format (ND or NZ), element type, whether it is stored transposed and its layout."""

    position: Any
    format: Any
    dtype: Any
    is_trans: bool = False
    layout: Any = LayoutMode.NONE


def _enum(api: str, value: Any, cls: Any, what: str) -> Any:
    if isinstance(value, cls):
        return value
    if isinstance(value, int) and not isinstance(value, (bool, enum.Enum)):
        try:
            return cls(value)
        except ValueError:
            pass
    raise error(f"{api}: {what} must be a {cls.__name__} member, got {describe(value)}")


def _check_type(api: str, name: str, t: Any, bias: bool = False) -> MatmulType:
    if not isinstance(t, MatmulType):
        raise error(f"{api}: '{name}' must be an asc.adv.MatmulType, got {got(t)}",
                    "hint: asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)")
    _enum(api, t.position, TPosition, f"{name}.position")
    _enum(api, t.format, CubeFormat, f"{name}.format")
    _enum(api, t.layout, LayoutMode, f"{name}.layout")
    if not isinstance(t.dtype, dt.DataType):
        raise error(f"{api}: {name}.dtype must be an element type (asc.float16, ...), got {describe(t.dtype)}")
    if not isinstance(t.is_trans, bool):
        raise error(f"{api}: {name}.is_trans must be a Python bool, got {describe(t.is_trans)}")
    return t


def _flag(api: str, value: Any, what: str) -> Scalar:
    if isinstance(value, bool):
        return const(int(value), dt.bool_)
    if isinstance(value, Scalar) and (value.dtype.is_int() or value.dtype == dt.bool_):
        return value
    raise error(f"{api}: '{what}' must be a bool, got {got(value)}")


def _int(api: str, value: Any, what: str) -> Scalar:
    try:
        return int_operand(value, f"{api}: '{what}'")
    except TypeError as e:
        raise error(str(e)) from None


def _gm(api: str, t: Any, what: str) -> GlobalTensor:
    if isinstance(t, LocalTensor):
        raise NotImplementedError(f"{api} with a LocalTensor '{what}' (A, B or bias in L1 / UB) is not "
                                  "implemented; pass a GlobalTensor")
    if not isinstance(t, GlobalTensor):
        raise error(f"{api}: '{what}' must be a GlobalTensor, got {got(t)}")
    return t


# mmlocal: the positions of the cube core's L1 a MatmulType may give an input (the devkit's FROM_L1 copy-in:
# PhyPosIsL1 is A1, B1 and, on the Ascend910B, C1), and the vector core's UB ones
_L1_POSITIONS = (TPosition.A1, TPosition.B1, TPosition.C1)
_UB_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)


def _local_input(api: str, t: LocalTensor, what: str, mtype: MatmulType, bias: bool = False) -> LocalTensor:
    """An A, B or bias LocalTensor (mmlocal): where the MatmulType says it lives decides the devkit's copy-in."""
    pos = _enum(api, mtype.position, TPosition, "position")
    if pos in _UB_POSITIONS:
        raise NotImplementedError(f"{api} with a LocalTensor '{what}' in the UB (MatmulType at TPosition.{pos.name}: "
                                  "the devkit's MatmulClient copies it to a GM workspace for the cube core) is not "
                                  "implemented; pass a GlobalTensor, or an L1 tensor with the MatmulType at A1 / B1")
    if pos not in _L1_POSITIONS:
        raise error(f"{api}: a LocalTensor '{what}' needs its MatmulType at an L1 position (TPosition.A1, B1 or C1), "
                    f"but it says TPosition.{pos.name}")
    if t.position not in _L1_POSITIONS:
        raise error(f"{api}: the MatmulType puts '{what}' in L1 but the tensor is at TPosition.{t.position.name} "
                    "(an L1 tensor is at A1, B1 or C1)")
    fmt = _enum(api, mtype.format, CubeFormat, "format")
    if not bias and fmt != CubeFormat.NZ:
        raise NotImplementedError(f"{api} with an L1 LocalTensor '{what}' of CubeFormat.{fmt.name} is not "
                                  "implemented (an L1 A or B in CubeFormat.NZ is)")
    return t


def _is_number_arg(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, (bool, enum.Enum))) or isinstance(v, Scalar)


def _u64(api: str, v: Any, what: str, wrap: bool = False) -> Scalar:
    """A uint64_t argument: a constant in [0, 2**64) (wrap: a negative one as C++ converts it), or a runtime
    integer converted."""
    if isinstance(v, int) and not isinstance(v, (bool, enum.Enum)):
        if wrap and -(2**63) <= v < 0:
            v += 2**64
        if not 0 <= v < 2**64:
            raise error(f"{api}: '{what}' is a uint64 and {v} does not fit it")
        return const(v, dt.uint64)
    return to_scalar(_int(api, v, what), dt.uint64)


def _template_bool(api: str, v: Any, what: str) -> bool:
    """A flag the devkit takes as a template argument (sync, waitIterateBatch): a Python bool."""
    v = ConstExpr.unwrap(v)
    if isinstance(v, bool):
        return v
    raise error(f"{api}: '{what}' is a template argument of the devkit's method and must be a Python bool, "
                f"got {got(v)}")


def _bind(api: str, names: tuple, args: tuple, kwargs: dict, defaults: dict) -> dict:
    """The arguments of one calling form of an overloaded method, by name."""
    if len(args) > len(names):
        raise error(f"{api}: takes at most {len(names)} arguments ({', '.join(names)}), got {len(args)}")
    b = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise error(f"{api}: unexpected argument '{k}' (this form takes {', '.join(names)})")
        if k in b:
            raise error(f"{api}: '{k}' given twice")
        b[k] = v
    for k in names:
        if k not in b:
            if k not in defaults:
                raise error(f"{api}: missing argument '{k}' (this form takes {', '.join(names)})")
            b[k] = defaults[k]
    return b


class Matmul(IRValue):
    """`AscendC::Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG>`: C = A * B + bias (Ascend910B: A and B
    float16, bfloat16, float32 or int8; C float32 or the inputs' type, int32 for int8). Make it in the kernel,
    then register_matmul (or init) it with a tiling."""

    @usage("asc.adv.Matmul(a=MatmulType(...), b=MatmulType(...), c=MatmulType(...), bias=None, "
           "matmul_config=None, matmul_policy=0)")
    def __init__(self, a: Optional[MatmulType] = None, b: Optional[MatmulType] = None,
                 c: Optional[MatmulType] = None, bias: Optional[MatmulType] = None,
                 matmul_config: Optional[MatmulConfig] = None, matmul_policy: Any = 0) -> None:
        api = "asc.adv.Matmul"
        for name, v in (("a", a), ("b", b), ("c", c)):
            if v is None:
                raise error(f"{api}: '{name}' must be an asc.adv.MatmulType and cannot be None")
        a, b, c = _check_type(api, "a", a), _check_type(api, "b", b), _check_type(api, "c", c)
        if bias is not None:
            _check_type(api, "bias", bias)
        static_tiling = None
        if isinstance(matmul_config, MatmulApiStaticTiling):  # family: adv tiling (misc): a constant tiling
            static_tiling = matmul_config
            matmul_config = static_tiling.cfg
        if matmul_config is not None and not isinstance(matmul_config, MatmulConfig):
            raise error(f"{api}: 'matmul_config' must be an asc.adv.MatmulConfig, an asc.adv.MatmulApiStaticTiling "
                        f"or None, got {got(matmul_config)}")
        policy = _enum(api, matmul_policy, MatmulPolicy, "matmul_policy")
        if policy != MatmulPolicy.MatmulPolicy:
            raise NotImplementedError(f"{api} with matmul_policy={policy.name} is not implemented")
        if a.dtype not in _AB_TYPES:
            raise error(f"{api}: A of {a.dtype.name} is not supported on the Ascend910B (float16, bfloat16, "
                        "float32, int8)")
        if b.dtype != a.dtype:
            raise error(f"{api}: A is {a.dtype.name} but B is {b.dtype.name}; the cube unit multiplies matrices "
                        "of one element type")
        if c.dtype not in _C_TYPES[a.dtype]:
            raise error(f"{api}: C of {c.dtype.name} is not supported for {a.dtype.name} inputs "
                        f"({', '.join(t.name for t in _C_TYPES[a.dtype])})")
        bias_t = bias if bias is not None else MatmulType(c.position, c.format, c.dtype)
        if bias is not None and bias.dtype not in _BIAS_TYPES[a.dtype]:
            raise error(f"{api}: bias of {bias.dtype.name} is not supported for {a.dtype.name} inputs "
                        f"({', '.join(t.name for t in _BIAS_TYPES[a.dtype])})")
        bld = _b.current()
        attrs: dict = {"dtypes": [bld.scalar_type(t.dtype) for t in (a, b, c, bias_t)],
                       "cfg": matmul_config.cpp() if matmul_config is not None else "",
                       "policy": ("MatmulPolicy", policy)}
        for p, t in (("a", a), ("b", b), ("c", c)):
            attrs[f"{p}_pos"] = ("TPosition", _enum(api, t.position, TPosition, "position"))
            attrs[f"{p}_fmt"] = ("CubeFormat", _enum(api, t.format, CubeFormat, "format"))
            attrs[f"{p}_trans"] = int(t.is_trans)
            attrs[f"{p}_layout"] = ("LayoutMode", _enum(api, t.layout, LayoutMode, "layout"))
        attrs["bias_pos"] = ("TPosition", _enum(api, bias_t.position, TPosition, "position"))
        attrs["bias_fmt"] = ("CubeFormat", _enum(api, bias_t.format, CubeFormat, "format"))
        if static_tiling is not None:
            attrs["static_tiling"] = static_tiling.emit_attr((a, b, c, bias_t))
        self.handle = bld.create1("asc.matmul", [], bld.scalar_type(dt.int32), attrs)
        self.a_type, self.b_type, self.c_type, self.bias_type = a, b, c, bias_t
        self.a_dtype, self.b_dtype, self.c_dtype = a.dtype, b.dtype, c.dtype
        self.matmul_config = matmul_config
        self.static_tiling = static_tiling

    def _op(self, name: str, operands: list) -> None:
        _b.current().create(name, [self] + operands)

    @usage("matmul.init(tiling)")
    def init(self, tiling: TCubeTiling) -> None:
        """`Init(&tiling)`: gives the object its tiling (register_matmul does it when given one)."""
        if not isinstance(tiling, TCubeTiling):
            raise error(f"Matmul.init: 'tiling' must be an asc.adv.TCubeTiling, got {got(tiling)}")
        self._op("asc.matmul.init", [tiling.to_ir()])

    def _set_tensor(self, api: str, op: str, dtype: Any, args: tuple, kwargs: dict) -> None:
        if "scalar" in kwargs or (len(args) == 1 and not kwargs and _is_number_arg(args[0])):
            # the scalar overload: the devkit's SetTensorA(aScalar) fills L0A with it (A a 1 x K row) only for an A
            # of CubeFormat::SCALAR (its GEMV mode), which asc.CubeFormat (upstream's: ND, NZ) cannot say; for ND
            # and NZ its LoadToL0A ignores the scalar. SetTensorB(bScalar) asserts in the devkit.
            if len(args) + len(kwargs) != 1:
                raise error(f"{api}: the scalar form takes (scalar) alone")
            if dtype not in (dt.float16, dt.float32):
                raise error(f"{api}(scalar): the scalar form takes float16 or float32 matrices (the Ascend910B's), "
                            f"this one is {dtype.name}")
            if op.endswith("_b"):
                raise error(f"{api}(scalar): the devkit does not allow a scalar B (its SetTensorB(bScalar) asserts)")
            raise error(f"{api}(scalar): the devkit uses the scalar only for an A of CubeFormat::SCALAR (a 1 x K row "
                        "of it, GEMV), which asc.CubeFormat (ND, NZ) cannot say; with ND or NZ the devkit ignores it",
                        "hint: fill a GlobalTensor with the scalar and pass it")
        names = ("tensor", "transpose")
        bound = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in bound:
                raise error(f"{api}: unexpected argument '{k}'")
            bound[k] = v
        if len(args) > 2 or "tensor" not in bound:
            raise error(f"{api}: takes (tensor, transpose=False) or (scalar)")
        t = bound["tensor"]
        if isinstance(t, LocalTensor):  # mmlocal: an L1 tensor (the devkit's FROM_L1)
            t = _local_input(api, t, "tensor", self.a_type if op.endswith("_a") else self.b_type)
            op += ".local"
        else:
            t = _gm(api, t, "tensor")
        if t.dtype != dtype:
            raise error(f"{api}: the tensor is {t.dtype.name} but the MatmulType says {dtype.name}")
        self._op(op, [t, _flag(api, bound.get("transpose", False), "transpose")])

    @usage("matmul.set_tensor_a(tensor, transpose=False)")
    def set_tensor_a(self, *args: Any, **kwargs: Any) -> None:
        """`SetTensorA(gm, isTransposeA)`: the left matrix (a GlobalTensor; transpose: it is stored K x M)."""
        self._set_tensor("Matmul.set_tensor_a", "asc.matmul.set_tensor_a", self.a_dtype, args, kwargs)

    @usage("matmul.set_tensor_b(tensor, transpose=False)")
    def set_tensor_b(self, *args: Any, **kwargs: Any) -> None:
        """`SetTensorB(gm, isTransposeB)`: the right matrix (a GlobalTensor; transpose: it is stored N x K)."""
        self._set_tensor("Matmul.set_tensor_b", "asc.matmul.set_tensor_b", self.b_dtype, args, kwargs)

    @usage("matmul.set_bias(tensor)")
    def set_bias(self, tensor: Any) -> None:
        """`SetBias(gm)`: adds bias[j] (a GlobalTensor of N elements) to column j of C from now on."""
        local = isinstance(tensor, LocalTensor)
        if local:  # mmlocal: a bias row in L1
            t = _local_input("Matmul.set_bias", tensor, "tensor", self.bias_type, bias=True)
        else:
            t = _gm("Matmul.set_bias", tensor, "tensor")
        allowed = _BIAS_TYPES[self.a_dtype]
        if t.dtype not in allowed:
            raise error(f"Matmul.set_bias: a bias of {t.dtype.name} is not supported for {self.a_dtype.name} "
                        f"inputs ({', '.join(x.name for x in allowed)})")
        self._op("asc.matmul.set_bias.local" if local else "asc.matmul.set_bias", [t])

    @usage("matmul.disable_bias()")
    def disable_bias(self) -> None:
        """`DisableBias()`: no bias from now on."""
        self._op("asc.matmul.disable_bias", [])

    @usage("matmul.set_tail(tail_m=-1, tail_n=-1, tail_k=-1)")
    def set_tail(self, tail_m: Any = -1, tail_n: Any = -1, tail_k: Any = -1) -> None:
        """`SetTail(tailM, tailN, tailK)`: this core's single-core shape when smaller than the tiling's (at
        the edges of C); -1 keeps a size."""
        self._op("asc.matmul.set_tail", [_int("Matmul.set_tail", v, n) for v, n in
                                         ((tail_m, "tail_m"), (tail_n, "tail_n"), (tail_k, "tail_k"))])

    @usage("matmul.set_org_shape(org_m, org_n, org_ka, org_kb=None, org_kc=None)")
    def set_org_shape(self, org_m: Any, org_n: Any, org_ka: Any, org_kb: Any = None, org_kc: Any = None) -> None:
        """`SetOrgShape(orgM, orgN, orgKa[, orgKb[, orgKc]])`: the whole matrices' shape (their row strides;
        orgKc: C's row length when it differs from orgN)."""
        api = "Matmul.set_org_shape"
        ops = [_int(api, org_m, "org_m"), _int(api, org_n, "org_n"), _int(api, org_ka, "org_ka")]
        if org_kb is None and org_kc is not None:
            raise error(f"{api}: org_kc needs org_kb")
        if org_kb is not None:
            ops.append(_int(api, org_kb, "org_kb"))
        if org_kc is not None:
            ops.append(_int(api, org_kc, "org_kc"))
        self._op("asc.matmul.set_org_shape", ops)

    @usage("matmul.set_single_shape(single_m, single_n, single_k)")
    def set_single_shape(self, single_m: Any, single_n: Any, single_k: Any) -> None:
        """`SetSingleShape(singleM, singleN, singleK)`: this core's single-core shape."""
        api = "Matmul.set_single_shape"
        self._op("asc.matmul.set_single_shape", [_int(api, single_m, "single_m"), _int(api, single_n, "single_n"),
                                                 _int(api, single_k, "single_k")])

    @usage("with matmul.iterate() as count: ...")
    def iterate(self, en_partial_sum: Any = False, sync: Any = True,
                local_c_matrix: Optional[Any] = None) -> "MatmulIterator":
        """`while (mm.Iterate(enPartialSum)) { ... }` as `with matmul.iterate() as count:`: each pass computes
        the next baseM x baseN block of C (in the tiling's iterate_order); count numbers the passes from 0."""
        api = "Matmul.iterate"
        is_sync = _template_bool(api, sync, "sync")
        local_c = None
        if local_c_matrix is not None:  # mmlocal: the devkit's user-managed CO1
            local_c = self._local_c(api, local_c_matrix, is_sync)
        return MatmulIterator(self, _flag(api, en_partial_sum, "en_partial_sum"), is_sync, local_c)

    def _local_c(self, api: str, t: Any, is_sync: bool) -> LocalTensor:
        """The CO1 tensor of `iterate(local_c_matrix=...)`, checked by the devkit's rules."""
        if not isinstance(t, LocalTensor):
            raise error(f"{api}: 'local_c_matrix' must be a LocalTensor at TPosition.CO1, got {got(t)}")
        if t.position != TPosition.CO1:
            raise error(f"{api}: 'local_c_matrix' must be at TPosition.CO1 (L0C), got one at {t.position.name}")
        acc = dt.int32 if self.a_dtype == dt.int8 else dt.float32
        if t.dtype != acc:
            raise error(f"{api}: 'local_c_matrix' of {t.dtype.name}: {self.a_dtype.name} inputs sum in {acc.name} "
                        "(the devkit's CO1 C is float or int32_t)")
        c = self.c_type
        if (_enum(api, c.position, TPosition, "position") != TPosition.CO1 or
                _enum(api, c.format, CubeFormat, "format") != CubeFormat.NZ or c.dtype != acc):
            raise error(f"{api}: with local_c_matrix the devkit wants C's MatmulType at TPosition.CO1, CubeFormat.NZ, "
                        f"{acc.name}", f"hint: c=asc.adv.MatmulType(asc.TPosition.CO1, asc.CubeFormat.NZ, {acc.name})")
        if not is_sync:
            raise NotImplementedError(f"{api}(sync=False, local_c_matrix=...) is not implemented (sync=True is)")
        return t

    @usage("matmul.iterate_all(tensor, en_atomic=0, sync=True, en_sequential_write=None, wait_iterate_all=None, "
           "fake_msg=None)")
    def iterate_all(self, tensor: Any, en_atomic: Any = 0, sync: Any = True, en_sequential_write: Any = None,
                    wait_iterate_all: Any = None, fake_msg: Any = None) -> None:
        """`IterateAll(gm, enAtomic, enSequentialWrite, waitIterateAll, fakeMsg)`: computes every block of C
        into the GlobalTensor (en_atomic 1, 2, 3: added to it, its max, its min)."""
        api = "Matmul.iterate_all"
        is_sync = _template_bool(api, sync, "sync")
        if isinstance(tensor, LocalTensor):
            t = self._c_tensor(api, tensor, LocalTensor)
            if not is_sync:
                raise error(f"{api}: into a LocalTensor only with sync=True (the devkit's asynchronous IterateAll "
                            "writes GM)")
            if any(v is not None for v in (en_sequential_write, wait_iterate_all, fake_msg)):
                raise error(f"{api}: into a LocalTensor takes (tensor, en_atomic=0) (IterateAll(ubCmatrix, enAtomic))")
            self._op("asc.matmul.iterate_all.local", [t, self._atomic(api, en_atomic)])
            return
        t = self._c_tensor(api, tensor, GlobalTensor)
        self._op("asc.matmul.iterate_all" if is_sync else "asc.matmul.iterate_all.async",
                 [t, self._atomic(api, en_atomic),
                                            _flag(api, False if en_sequential_write is None else en_sequential_write,
                                                  "en_sequential_write"),
                                            _flag(api, False if wait_iterate_all is None else wait_iterate_all,
                                                  "wait_iterate_all"),
                                            _flag(api, False if fake_msg is None else fake_msg, "fake_msg")])

    def _c_tensor(self, api: str, tensor: Any, cls: Any) -> Any:
        if not isinstance(tensor, cls):
            raise error(f"{api}: 'tensor' must be a {cls.__name__}, got {got(tensor)}")
        if tensor.dtype != self.c_dtype:
            raise error(f"{api}: the tensor is {tensor.dtype.name} but C's MatmulType says {self.c_dtype.name}")
        return tensor

    @staticmethod
    def _atomic(api: str, en_atomic: Any) -> Scalar:
        if isinstance(en_atomic, int) and not isinstance(en_atomic, bool) and en_atomic not in (0, 1, 2, 3):
            raise error(f"{api}: en_atomic must be 0, 1, 2 or 3 (none, add, max, min), got {en_atomic}")
        return to_scalar(_int(api, en_atomic, "en_atomic"), dt.uint8)

    @usage("matmul.get_tensor_c(tensor, en_atomic=0, en_sequential_write=False, sync=True, optional_tensor=None) "
           "or c = matmul.get_tensor_c(en_atomic=0, en_sequential_write=False, sync=True)")
    def get_tensor_c(self, *args: Any, **kwargs: Any) -> Optional[GlobalTensor]:
        """`GetTensorC<sync>(tensor, enAtomic, enSequentialWrite)` inside `with matmul.iterate()`: the current
        block into a GlobalTensor (at its place in C; en_sequential_write: rows baseN apart from its start) or a
        LocalTensor in the UB (baseM x baseN, row-major); with optional_tensor (a LocalTensor) into both. Without a
        tensor (`GetTensorC<sync>(enAtomic, enSequentialWrite)`, after an asynchronous iterate(sync=False) and
        set_workspace): the block in the workspace, returned as a GlobalTensor of baseM x baseN (each call the next
        baseM * baseN elements of the workspace)."""
        api = "Matmul.get_tensor_c"
        first_is_tensor = bool(args) and isinstance(args[0], (GlobalTensor, LocalTensor))
        if first_is_tensor or "tensor" in kwargs or "optional_tensor" in kwargs:
            b = _bind(api, ("tensor", "en_atomic", "en_sequential_write", "sync", "optional_tensor"), args, kwargs,
                      {"en_atomic": 0, "en_sequential_write": False, "sync": True, "optional_tensor": None})
            return self._get_tensor_c(api, **b)
        b = _bind(api, ("en_atomic", "en_sequential_write", "sync"), args, kwargs,
                  {"en_atomic": 0, "en_sequential_write": False, "sync": True})
        is_sync = _template_bool(api, b["sync"], "sync")
        bld = _b.current()
        h = bld.create1("asc.matmul.get_tensor_c.ret", [self, self._atomic(api, b["en_atomic"]),
                                                        _flag(api, b["en_sequential_write"], "en_sequential_write")],
                        bld.type("global_tensor", self.c_dtype.name), {"sync": int(is_sync)})
        return GlobalTensor(h, self.c_dtype)

    def _get_tensor_c(self, api: str, tensor: Any, en_atomic: Any, en_sequential_write: Any, sync: Any,
                      optional_tensor: Any) -> None:
        is_sync = _template_bool(api, sync, "sync")
        ops = [self._atomic(api, en_atomic), _flag(api, en_sequential_write, "en_sequential_write")]
        if optional_tensor is not None:
            if not isinstance(tensor, GlobalTensor) or not isinstance(optional_tensor, LocalTensor):
                raise error(f"{api}: with optional_tensor, 'tensor' is the GlobalTensor and 'optional_tensor' the "
                            f"LocalTensor (GetTensorC(gm, co2Local, ...)), got {got(tensor)} and {got(optional_tensor)}")
            if not is_sync:
                raise error(f"{api}: GM and UB at once only with sync=True")
            g = self._c_tensor(api, tensor, GlobalTensor)
            loc = self._c_tensor(api, optional_tensor, LocalTensor)
            self._op("asc.matmul.get_tensor_c.both", [g, loc] + ops)
            return
        if isinstance(tensor, LocalTensor):
            t = self._c_tensor(api, tensor, LocalTensor)
            op = "asc.matmul.get_tensor_c.local"
        else:
            t = self._c_tensor(api, tensor, GlobalTensor)
            op = "asc.matmul.get_tensor_c.gm"
        self._op(op if is_sync else op + ".async", [t] + ops)

    @usage("matmul.wait_iterate_all()")
    def wait_iterate_all(self) -> None:
        """`WaitIterateAll()`: waits for an iterate_all(sync=False, wait_iterate_all=True). The simulator does the
        asynchronous work at its call, so this is an ordering point (a KernelError without one before)."""
        self._op("asc.matmul.wait_iterate_all", [])

    def _batch_layout(self, api: str, n_batch: bool) -> None:
        la, lb, lc = self.a_type.layout, self.b_type.layout, self.c_type.layout
        if la != lb:
            raise error(f"{api}: A and B must have one layout (the devkit's batch matmul), got {la.name} and {lb.name}")
        if n_batch:
            if la in (LayoutMode.NONE, LayoutMode.NORMAL) or lc == LayoutMode.NORMAL:
                raise error(f"{api}: the devkit's IterateNBatch does not take the NONE or NORMAL layout (A, B: "
                            f"{la.name}, C: {lc.name})", "hint: MatmulType(..., layout=asc.LayoutMode.BNGS1S2)")
            if self.matmul_config is None or not self.matmul_config.is_n_batch:
                raise error(f"{api}: needs a MatmulConfig with is_n_batch=True (the devkit's method does nothing "
                            "without it)", "hint: asc.adv.get_normal_config(batch_loop=True)")
        elif la == LayoutMode.NONE:
            raise error(f"{api}: A and B need a batch layout in their MatmulType (LayoutMode.NORMAL, ...)",
                        "hint: asc.adv.MatmulType(pos, fmt, dtype, False, asc.LayoutMode.NORMAL)")
        for name, lay in (("A and B", la), ("C", lc)):
            if n_batch and lay in (LayoutMode.BSNGD, LayoutMode.SBNGD):  # (iterate_batch has them: mmlocal)
                raise NotImplementedError(f"{api} with the {lay.name} layout of {name} is not implemented "
                                          "(NORMAL and BNGS1S2 are)")

    def _bias_batch(self) -> Scalar:
        cfg = self.matmul_config
        return const(int(cfg.is_bias_batch if cfg is not None else True), dt.bool_)

    def _u32(self, api: str, v: Any, what: str) -> Scalar:
        return to_scalar(_int(api, v, what), dt.uint32)

    @usage("matmul.iterate_batch(tensor, batch_a, batch_b, en_sequential_write, matrix_stride_a=0, ...) or "
           "matmul.iterate_batch(tensor, en_partial_sum, en_atomic, en_sequential_write, matrix_stride_a=0, ...)")
    def iterate_batch(self, *args: Any, **kwargs: Any) -> None:
        """`IterateBatch<sync, waitIterateBatch>(c, batchA, batchB, enSequentialWrite, matrixStrideA,
        matrixStrideB, matrixStrideC, enPartialSum, enAtomic)`: max(batchA, batchB) matmuls of the single-core
        shape at once (the smaller batch broadcast: batch i takes A i / (batch / batchA), B i / (batch /
        batchB)); with the NORMAL (or BNGS1S2) layout each batch's A, B, C (and bias, with the config's
        is_bias_batch) follow each other (matrix_stride_a / _b: other element strides). The cube-only form
        (tensor, en_partial_sum, en_atomic, en_sequential_write, strides...) takes the batches set_batch_num gave."""
        api = "Matmul.iterate_batch"
        seq = kwargs.get("en_sequential_write", args[3] if len(args) > 3 else None)
        if seq is True and self.c_type.layout in (LayoutMode.BSNGD, LayoutMode.SBNGD):
            raise error(f"{api}: a C of the {self.c_type.layout.name} layout cannot be written with "
                        "en_sequential_write=True (the devkit asserts)")
        second = args[1] if len(args) > 1 else None
        cube_form = ("batch_a" not in kwargs and "batch_b" not in kwargs and
                     (isinstance(second, bool) or (isinstance(second, Scalar) and second.dtype == dt.bool_) or
                      (len(args) <= 1 and "en_partial_sum" in kwargs)))
        self._batch_layout(api, False)
        if cube_form:
            b = _bind(api, ("tensor", "en_partial_sum", "en_atomic", "en_sequential_write", "matrix_stride_a",
                            "matrix_stride_b", "matrix_stride_c", "sync"), args, kwargs,
                      {"matrix_stride_a": 0, "matrix_stride_b": 0, "matrix_stride_c": 0, "sync": True})
            if not _template_bool(api, b["sync"], "sync"):
                raise error(f"{api}: the cube-only form (after set_batch_num) is synchronous (sync=True)")
            local = isinstance(b["tensor"], LocalTensor)
            t = self._c_tensor(api, b["tensor"], LocalTensor if local else GlobalTensor)
            self._op("asc.matmul.iterate_batch.cube" + (".local" if local else ""),
                     [t, _flag(api, b["en_partial_sum"], "en_partial_sum"), self._atomic(api, b["en_atomic"]),
                      _flag(api, b["en_sequential_write"], "en_sequential_write"),
                      self._u32(api, b["matrix_stride_a"], "matrix_stride_a"),
                      self._u32(api, b["matrix_stride_b"], "matrix_stride_b"),
                      self._u32(api, b["matrix_stride_c"], "matrix_stride_c"), self._bias_batch()])
            return
        b = _bind(api, ("tensor", "batch_a", "batch_b", "en_sequential_write", "matrix_stride_a", "matrix_stride_b",
                        "matrix_stride_c", "en_partial_sum", "en_atomic", "sync", "wait_iterate_batch"), args, kwargs,
                  {"matrix_stride_a": 0, "matrix_stride_b": 0, "matrix_stride_c": 0, "en_partial_sum": None,
                   "en_atomic": None, "sync": True, "wait_iterate_batch": None})
        is_sync = _template_bool(api, b["sync"], "sync")
        wait = _template_bool(api, False if b["wait_iterate_batch"] is None else b["wait_iterate_batch"],
                              "wait_iterate_batch")
        local = isinstance(b["tensor"], LocalTensor)
        t = self._c_tensor(api, b["tensor"], LocalTensor if local else GlobalTensor)
        if local and not is_sync:
            raise error(f"{api}: the asynchronous form (sync=False) does not write a LocalTensor (the devkit's "
                        "IterateBatch to the UB is synchronous)")
        if is_sync and wait:
            raise error(f"{api}: wait_iterate_batch=True is for the asynchronous form (sync=False)")
        op = "asc.matmul.iterate_batch" + (".local" if local else "" if is_sync else ".async")
        self._op(op, [t, self._u32(api, b["batch_a"], "batch_a"), self._u32(api, b["batch_b"], "batch_b"),
                      _flag(api, b["en_sequential_write"], "en_sequential_write"),
                      self._u32(api, b["matrix_stride_a"], "matrix_stride_a"),
                      self._u32(api, b["matrix_stride_b"], "matrix_stride_b"),
                      self._u32(api, b["matrix_stride_c"], "matrix_stride_c"),
                      _flag(api, False if b["en_partial_sum"] is None else b["en_partial_sum"], "en_partial_sum"),
                      self._atomic(api, 0 if b["en_atomic"] is None else b["en_atomic"]),
                      const(int(wait), dt.bool_), self._bias_batch()])

    @usage("matmul.wait_iterate_batch()")
    def wait_iterate_batch(self) -> None:
        """`WaitIterateBatch()`: waits for an iterate_batch / iterate_n_batch(sync=False, wait_iterate_batch=True);
        on the simulator an ordering point (the work was done at the call; a KernelError without one before)."""
        self._op("asc.matmul.wait_iterate_batch", [])

    @usage("matmul.iterate_n_batch(batch_loop, batch_a, batch_b, en_sequential_write, matrix_stride_a=0, "
           "matrix_stride_b=0, matrix_stride_c=0, sync=True, wait_iterate_batch=False)")
    def iterate_n_batch(self, batch_loop: Any, batch_a: Any, batch_b: Any, en_sequential_write: Any,
                        matrix_stride_a: Any = 0, matrix_stride_b: Any = 0, matrix_stride_c: Any = 0,
                        sync: Any = True, wait_iterate_batch: Any = False) -> None:
        """`IterateNBatch<sync, waitIterateBatch>(batchLoop, batchA, batchB, enSequentialWrite, ...)`: batch_loop
        iterate_batch calls one after the other (each on the next batchA matrices of A and batchB of B), their Cs
        into the workspace (set_workspace), which get_batch_tensor_c then reads, one iterate_batch's C a call.
        Needs a MatmulConfig with is_n_batch and a BNGS1S2 layout (the devkit refuses NONE and NORMAL)."""
        api = "Matmul.iterate_n_batch"
        self._batch_layout(api, True)
        is_sync = _template_bool(api, sync, "sync")
        wait = _template_bool(api, wait_iterate_batch, "wait_iterate_batch")
        if is_sync and wait:
            raise error(f"{api}: wait_iterate_batch=True is for the asynchronous form (sync=False)")
        self._op("asc.matmul.iterate_n_batch" + ("" if is_sync else ".async"),
                 [self._u32(api, batch_loop, "batch_loop"), self._u32(api, batch_a, "batch_a"),
                  self._u32(api, batch_b, "batch_b"), _flag(api, en_sequential_write, "en_sequential_write"),
                  self._u32(api, matrix_stride_a, "matrix_stride_a"), self._u32(api, matrix_stride_b, "matrix_stride_b"),
                  self._u32(api, matrix_stride_c, "matrix_stride_c"), const(int(wait), dt.bool_), self._bias_batch()])

    @usage("c = matmul.get_batch_tensor_c(batch_a, batch_b, en_sequential_write=False, sync=True) or "
           "matmul.get_batch_tensor_c(tensor, batch_a, batch_b, en_sequential_write=False, sync=True)")
    def get_batch_tensor_c(self, *args: Any, **kwargs: Any) -> Optional[GlobalTensor]:
        """`GetBatchTensorC<sync>(batchA, batchB, enSequentialWrite)` after iterate_n_batch: the next
        iterate_batch's C (max(batchA, batchB) single-core Cs) in the workspace, as a GlobalTensor; with a
        LocalTensor first, copied into it."""
        api = "Matmul.get_batch_tensor_c"
        local = (bool(args) and isinstance(args[0], LocalTensor)) or "tensor" in kwargs
        names = ("tensor", "batch_a", "batch_b", "en_sequential_write", "sync") if local else \
            ("batch_a", "batch_b", "en_sequential_write", "sync")
        b = _bind(api, names, args, kwargs, {"en_sequential_write": False, "sync": True})
        is_sync = _template_bool(api, b["sync"], "sync")
        if self.matmul_config is None or not self.matmul_config.is_n_batch:
            raise error(f"{api}: needs a MatmulConfig with is_n_batch=True (the devkit's method returns nothing "
                        "without it)")
        ops = [self._u32(api, b["batch_a"], "batch_a"), self._u32(api, b["batch_b"], "batch_b"),
               _flag(api, b["en_sequential_write"], "en_sequential_write")]
        attrs = {"sync": int(is_sync)}
        bld = _b.current()
        if local:
            t = self._c_tensor(api, b["tensor"], LocalTensor)
            bld.create("asc.matmul.get_batch_tensor_c.local", [self, t] + ops, attrs=attrs)
            return None
        h = bld.create1("asc.matmul.get_batch_tensor_c", [self] + ops, bld.type("global_tensor", self.c_dtype.name),
                        attrs)
        return GlobalTensor(h, self.c_dtype)

    @usage("matmul.set_batch_num(batch_a, batch_b)")
    def set_batch_num(self, batch_a: Any, batch_b: Any) -> None:
        """`SetBatchNum(batchA, batchB)`: the batches of A and B the cube-only iterate_batch form computes."""
        api = "Matmul.set_batch_num"
        self._op("asc.matmul.set_batch_num", [to_scalar(_int(api, batch_a, "batch_a"), dt.int32),
                                              to_scalar(_int(api, batch_b, "batch_b"), dt.int32)])

    def _quant_check(self, api: str) -> None:
        a, c = self.a_dtype, self.c_dtype
        if not ((a == dt.int8 and c in (dt.float16, dt.int8)) or (a in (dt.float16, dt.bfloat16) and c == dt.int8)):
            raise error(f"{api}: no quantisation converts {a.name} inputs to a {c.name} C on the Ascend910B (int8 "
                        "to float16 (DEQF16) or int8 (REQ8), float16/bfloat16 to int8 (QF322B8_PRE))")

    @usage("matmul.set_quant_scalar(quant_scalar)")
    def set_quant_scalar(self, quant_scalar: Any) -> None:
        """`SetQuantScalar(quantScalar)`: C = the L0C values times one scale (the fixpipe's DEQF16, REQ8 or
        QF322B8_PRE by the A and C types). quant_scalar is the devkit's uint64: bits 0..31 the scale as a float
        of which the fixpipe keeps 1 sign, 8 exponent and 10 mantissa bits (& 0xFFFFE000), bits 37..45 a 9-bit
        signed offset added before the int8 saturation, bit 46 a signed (1) or unsigned (0) int8 result."""
        api = "Matmul.set_quant_scalar"
        self._quant_check(api)
        self._op("asc.matmul.set_quant_scalar", [_u64(api, quant_scalar, "quant_scalar")])

    @usage("matmul.set_quant_vector(quant_vector)")
    def set_quant_vector(self, quant_vector: Any) -> None:
        """`SetQuantVector(quantTensor)`: as set_quant_scalar with one uint64 per column of C (a GlobalTensor
        of uint64, or a LocalTensor of them in L1; column j of the single-core C takes element j)."""
        api = "Matmul.set_quant_vector"
        self._quant_check(api)
        if isinstance(quant_vector, LocalTensor):
            if quant_vector.position not in (TPosition.A1, TPosition.B1, TPosition.C1):
                raise error(f"{api}: a LocalTensor of scales lies in L1 (TPosition.A1, B1 or C1), got one at "
                            f"{quant_vector.position.name}")
        elif not isinstance(quant_vector, GlobalTensor):
            raise error(f"{api}: 'quant_vector' must be a GlobalTensor (or an L1 LocalTensor) of uint64, got "
                        f"{got(quant_vector)}")
        if quant_vector.dtype != dt.uint64:
            raise error(f"{api}: 'quant_vector' must hold uint64, got {quant_vector.dtype.name}")
        local = isinstance(quant_vector, LocalTensor)
        self._op("asc.matmul.set_quant_vector.l1" if local else "asc.matmul.set_quant_vector", [quant_vector])

    @usage("matmul.set_hf32(enable_hf32=False, trans_mode=0)")
    def set_hf32(self, enable_hf32: Any = False, trans_mode: Any = 0) -> None:
        """`SetHF32(enableHF32, transMode)`: float32 A and B multiplied as HF32 from now on (trans_mode 0: their
        mantissas rounded to nearest even, 1: ties away from zero); for AIC_ONLY kernels."""
        api = "Matmul.set_hf32"
        if isinstance(trans_mode, int) and not isinstance(trans_mode, bool) and trans_mode not in (0, 1):
            raise error(f"{api}: trans_mode must be 0 (round to nearest even) or 1 (ties away), got {trans_mode}")
        self._op("asc.matmul.set_hf32", [_flag(api, enable_hf32, "enable_hf32"),
                                         to_scalar(_int(api, trans_mode, "trans_mode"), dt.int32)])

    @usage("matmul.set_workspace(addr, size=None)")
    def set_workspace(self, addr: Any, size: Any = None) -> None:
        """`SetWorkspace(gm)` / `SetWorkspace(addr, size)`: the GM the asynchronous forms put C's blocks in
        (get_tensor_c() and async_get_tensor_c read it; iterate_n_batch writes it); size in bytes."""
        api = "Matmul.set_workspace"
        if isinstance(addr, GlobalTensor):
            if size is not None:
                raise error(f"{api}: a GlobalTensor carries its size; pass size only with a GlobalAddress")
            self._op("asc.matmul.set_workspace", [addr])
        elif isinstance(addr, GlobalAddress):
            if size is None:
                raise error(f"{api}: a GlobalAddress needs its size in bytes (SetWorkspace(addr, size))")
            self._op("asc.matmul.set_workspace.addr", [addr, to_scalar(_int(api, size, "size"), dt.int32)])
        else:
            raise error(f"{api}: 'addr' must be a GlobalTensor or a GlobalAddress, got {got(addr)}")

    @usage("matmul.set_self_define_data(data_ptr)")
    def set_self_define_data(self, data_ptr: Any) -> None:
        """`SetSelfDefineData(dataPtr)`: data for the MatmulCallBackFunc callbacks (a uint64 or a GlobalAddress);
        the object keeps it (without callbacks nothing reads it)."""
        api = "Matmul.set_self_define_data"
        if isinstance(data_ptr, GlobalAddress):
            self._op("asc.matmul.set_self_define_data.addr", [data_ptr])
        else:
            self._op("asc.matmul.set_self_define_data", [_u64(api, data_ptr, "data_ptr", wrap=True)])

    @usage("matmul.set_user_def_info(tiling_ptr)")
    def set_user_def_info(self, tiling_ptr: Any) -> None:
        """`SetUserDefInfo(tilingPtr)`: the tiling address for the MatmulCallBackFunc callbacks (a GlobalAddress);
        the object keeps it."""
        if not isinstance(tiling_ptr, GlobalAddress):
            raise error(f"Matmul.set_user_def_info: 'tiling_ptr' must be a GlobalAddress, got {got(tiling_ptr)}")
        self._op("asc.matmul.set_user_def_info", [tiling_ptr])

    @usage("matmul.set_sparse_index(index_global)")
    def set_sparse_index(self, index_global: Any) -> None:
        """`SetSparseIndex(indexGlobal)`: the index matrix of a sparse B (a GlobalTensor of uint8). The devkit uses
        it only for an MDL Matmul whose B type carries a sparse index, which asc.adv.MatmulType cannot say, so
        here (as there for these types) the call has no effect."""
        api = "Matmul.set_sparse_index"
        if not isinstance(index_global, GlobalTensor):
            raise error(f"{api}: 'index_global' must be a GlobalTensor of uint8, got {got(index_global)}")
        if index_global.dtype != dt.uint8:
            raise error(f"{api}: 'index_global' must be a GlobalTensor of uint8, got one of {index_global.dtype.name}")
        self._op("asc.matmul.set_sparse_index", [index_global])

    @usage("matmul.wait_get_tensor_c()")
    def wait_get_tensor_c(self) -> None:
        """`WaitGetTensorC()`: waits for the async_get_tensor_c copies (an ordering point on the simulator)."""
        self._op("asc.matmul.wait_get_tensor_c", [])

    @usage("offset = matmul.get_offset_c()")
    def get_offset_c(self) -> "MatrixOffset":
        """`GetOffsetC<false>()`: the devkit reserves it and returns a zero MatrixOffset (GetOffsetC<true>, its
        default, does not compile); so does this."""
        bld = _b.current()
        return MatrixOffset.from_ir(bld.create1("asc.matmul.get_offset_c", [self], bld.struct_type("MatrixOffset")))

    @usage("matmul.async_get_tensor_c(c)")
    def async_get_tensor_c(self, c: Any) -> None:
        """`AsyncGetTensorC(c)` inside `with matmul.iterate(sync=False)`: the current block (from the workspace,
        baseM x baseN row-major) into the LocalTensor c; wait_get_tensor_c before reading c."""
        api = "Matmul.async_get_tensor_c"
        self._op("asc.matmul.async_get_tensor_c", [self._c_tensor(api, c, LocalTensor)])

    @usage("matmul.end()")
    def end(self) -> None:
        """`End()`: the object's work is done."""
        self._op("asc.matmul.end", [])


class MatmulIterator:
    """What `matmul.iterate()` returns: the context manager of `with matmul.iterate() as count:` (the kernel
    visitor compiles it as `while (mm.Iterate(enPartialSum)) { body; count++; }`)."""

    def __init__(self, matmul: Matmul, en_partial_sum: Scalar, sync: bool = True,
                 local_c_matrix: Optional[LocalTensor] = None) -> None:
        self.matmul = matmul
        self.en_partial_sum = en_partial_sum
        self.sync = sync
        self.local_c_matrix = local_c_matrix

    def __asc_with__(self, run: Any) -> None:
        op = "asc.matmul.iterate" if self.sync else "asc.matmul.iterate.async"
        extra = []
        if self.local_c_matrix is not None:  # mmlocal: Iterate(enPartialSum, localCmatrix)
            op, extra = "asc.matmul.iterate.l0c", [self.local_c_matrix]

        def condition() -> Scalar:
            bld = _b.current()
            res = bld.create1(op, [self.matmul, self.en_partial_sum] + extra, bld.scalar_type(dt.bool_))
            return Scalar(res, dt.bool_)

        run(condition)

    def __enter__(self) -> None:
        raise error("`with matmul.iterate()` compiles only inside an @asc.jit kernel")

    def __exit__(self, *args: Any) -> None:
        return None


@usage("asc.adv.register_matmul(pipe, workspace, matmul, tiling=None)")
def register_matmul(pipe: Any, workspace: Any, matmul: Any, tiling: Optional[TCubeTiling] = None) -> None:
    """`REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling)` (after SetSysWorkspace(workspace)): registers
    the object with the kernel's pipe and system workspace and, given a tiling, initialises it (as init)."""
    from ..fwk.tpipe import TPipe

    api = "asc.adv.register_matmul"
    if not isinstance(pipe, TPipe):
        raise error(f"{api}: 'pipe' must be the kernel's asc.TPipe, got {got(pipe)}")
    if not isinstance(workspace, GlobalAddress):
        raise error(f"{api}: 'workspace' must be a GlobalAddress (a kernel parameter), got {got(workspace)}")
    if not isinstance(matmul, Matmul):
        raise error(f"{api}: 'matmul' must be an asc.adv.Matmul, got {got(matmul)}")
    ops = [pipe, workspace, matmul]
    st = matmul.static_tiling
    if tiling is None and st is not None and st.is_full():
        # family: adv tiling (misc): a fully constant tiling stands for the runtime one (the devkit lets
        # REGIST_MATMUL_OBJ go without it): its fields as a TCubeTiling (those it leaves -1 as 0)
        tiling = TCubeTiling(**{f: max(getattr(st, f), 0) for f in st.int_fields() if hasattr(TCubeTiling, f)})
    if tiling is not None:
        if not isinstance(tiling, TCubeTiling):
            raise error(f"{api}: 'tiling' must be an asc.adv.TCubeTiling, got {got(tiling)}")
        ops.append(tiling.to_ir())
    _b.current().create("asc.matmul.register", ops)


# ---- the MatmulConfig helpers (the devkit's GetNormalConfig, GetMDLConfig, ...) --------------------------------

def _opt(v: Any, default: Any) -> Any:
    return default if v is None else v


@usage("asc.adv.get_normal_config(intrinsics_limit=False, batch_loop=False, is_vec_nd2_nz=False, "
       "bmm_mode=BatchMode.BATCH_LESS_THAN_L1, is_msg_reuse=True, iterate_order=IterateOrder.ORDER_M, "
       "schedule_type=ScheduleType.INNER_PRODUCT, en_unit_flag=True)")
def get_normal_config(intrinsics_limit: Any = False, batch_loop: Any = False, is_vec_nd2_nz: Any = False,
                      bmm_mode: Any = BatchMode.BATCH_LESS_THAN_L1, is_msg_reuse: Any = True,
                      iterate_order: Any = IterateOrder.ORDER_M, schedule_type: Any = ScheduleType.INNER_PRODUCT,
                      en_unit_flag: Any = True) -> MatmulConfig:
    """The devkit's GetNormalConfig: the Norm template."""
    return MatmulConfig(intrinsics_check=_opt(intrinsics_limit, False), is_n_batch=_opt(batch_loop, False),
                        en_vec_nd2nz=_opt(is_vec_nd2_nz, False),
                        batch_mode=_opt(bmm_mode, BatchMode.BATCH_LESS_THAN_L1),
                        enable_reuse=_opt(is_msg_reuse, True), iterate_order=_opt(iterate_order, IterateOrder.ORDER_M),
                        schedule_type=_opt(schedule_type, ScheduleType.INNER_PRODUCT),
                        en_unit_flag=_opt(en_unit_flag, True))


@usage("asc.adv.get_mdl_config(intrinsics_limit=False, batch_loop=False, do_mte2_preload=0, ...)")
def get_mdl_config(intrinsics_limit: Any = False, batch_loop: Any = False, do_mte2_preload: Any = 0,
                   is_vec_nd2_nz: Any = False, is_per_tensor: Any = False, has_anti_quant_offset: Any = False,
                   en_unit_flag: Any = False, is_msg_reuse: Any = True, enable_ub_reuse: Any = True,
                   enable_l1_cache_ub: Any = False, enable_mix_dual_master: Any = False,
                   enable_kdim_reorder_load: Any = False) -> MatmulConfig:
    """The devkit's GetMDLConfig: the MDL (multi data load) template, as upstream builds it."""
    return MatmulConfig(intrinsics_check=intrinsics_limit, is_n_batch=batch_loop, do_mte2_preload=do_mte2_preload,
                        en_vec_nd2nz=is_vec_nd2_nz, is_per_tensor=is_per_tensor,
                        has_anti_quant_offset=has_anti_quant_offset, en_unit_flag=en_unit_flag,
                        enable_reuse=is_msg_reuse, enable_ub_reuse=enable_ub_reuse,
                        enable_l1_cache_ub=enable_l1_cache_ub, enable_mix_dual_master=enable_mix_dual_master,
                        enable_kdim_reorder_load=enable_kdim_reorder_load)


@usage("asc.adv.get_special_mdl_config(intrinsics_limit=False, batch_loop=False, do_mte2_pre_load=0, "
       "is_vec_nd2_nz=False, is_per_tensor=False, has_anti_quant_offset=False)")
def get_special_mdl_config(intrinsics_limit: Any = False, batch_loop: Any = False, do_mte2_pre_load: Any = 0,
                           is_vec_nd2_nz: Any = False, is_per_tensor: Any = False,
                           has_anti_quant_offset: Any = False) -> MatmulConfig:
    """The devkit's GetSpecialMDLConfig, with the fields upstream sets."""
    return MatmulConfig(intrinsics_check=_opt(intrinsics_limit, False), is_n_batch=_opt(batch_loop, False),
                        do_mte2_preload=_opt(do_mte2_pre_load, 0), en_vec_nd2nz=_opt(is_vec_nd2_nz, False),
                        is_per_tensor=_opt(is_per_tensor, False),
                        has_anti_quant_offset=_opt(has_anti_quant_offset, False))


@usage("asc.adv.get_basic_config(basic_m, basic_n, basic_k, intrinsics_limit=False, batch_loop=False, "
       "bmm_mode=BatchMode.BATCH_LESS_THAN_L1)")
def get_basic_config(basic_m: int, basic_n: int, basic_k: int, intrinsics_limit: Any = False,
                     batch_loop: Any = False, bmm_mode: Any = BatchMode.BATCH_LESS_THAN_L1) -> MatmulConfig:
    """The devkit's GetBasicConfig: the BasicBlock template of basic_m x basic_n x basic_k blocks."""
    return MatmulConfig(basic_m=basic_m, basic_n=basic_n, basic_k=basic_k,
                        intrinsics_check=_opt(intrinsics_limit, False), is_n_batch=_opt(batch_loop, False),
                        batch_mode=_opt(bmm_mode, BatchMode.BATCH_LESS_THAN_L1))


@usage("asc.adv.get_special_basic_config(basic_m, basic_n, basic_k, single_core_m, single_core_n, single_core_k, "
       "step_m, step_n, intrinsics_limit=False, batch_loop=False, bmm_mode=BatchMode.BATCH_LESS_THAN_L1)")
def get_special_basic_config(basic_m: int, basic_n: int, basic_k: int, single_core_m: int, single_core_n: int,
                             single_core_k: int, step_m: int, step_n: int, intrinsics_limit: Any = False,
                             batch_loop: Any = False, bmm_mode: Any = BatchMode.BATCH_LESS_THAN_L1) -> MatmulConfig:
    """The devkit's GetSpecialBasicConfig, with the fields upstream sets."""
    return MatmulConfig(basic_m=basic_m, basic_n=basic_n, basic_k=basic_k, single_core_m=single_core_m,
                        single_core_n=single_core_n, single_core_k=single_core_k, step_m=step_m, step_n=step_n,
                        intrinsics_check=_opt(intrinsics_limit, False), is_n_batch=_opt(batch_loop, False),
                        batch_mode=_opt(bmm_mode, BatchMode.BATCH_LESS_THAN_L1))


@usage("asc.adv.get_ib_share_norm_config(intrinsics_limit=False, batch_loop=False, is_vec_nd2_nz=False, "
       "bmm_mode=BatchMode.BATCH_LESS_THAN_L1, is_double_cache=False, en_unit_flag=True)")
def get_ib_share_norm_config(intrinsics_limit: Any = False, batch_loop: Any = False, is_vec_nd2_nz: Any = False,
                             bmm_mode: Any = BatchMode.BATCH_LESS_THAN_L1, is_double_cache: Any = False,
                             en_unit_flag: Any = True) -> MatmulConfig:
    """The devkit's GetIBShareNormConfig, with the fields upstream sets."""
    return MatmulConfig(intrinsics_check=_opt(intrinsics_limit, False), is_n_batch=_opt(batch_loop, False),
                        en_vec_nd2nz=_opt(is_vec_nd2_nz, False),
                        batch_mode=_opt(bmm_mode, BatchMode.BATCH_LESS_THAN_L1),
                        enable_double_cache=int(bool(_opt(is_double_cache, False))),
                        en_unit_flag=_opt(en_unit_flag, True))


@usage("asc.adv.get_mm_config(MatmulConfigMode.CONFIG_MDL, MatmulShapeParams(...), MatmulFuncParams(...), ...)")
def get_mm_config(*args: Any, **kwargs: Any) -> MatmulConfig:
    """The devkit's GetMMConfig<mode>(params...): a config of one template (a MatmulConfigMode) with the
    parameter groups given (MatmulShapeParams, MatmulQuantParams, MatmulBatchParams, MatmulFuncParams)."""
    f: dict = {}
    mode = MatmulConfigMode.CONFIG_NORM
    for arg in list(args) + list(kwargs.values()):
        if isinstance(arg, MatmulShapeParams):
            f.update(single_core_m=arg.single_core_m, single_core_n=arg.single_core_n,
                     single_core_k=arg.single_core_k, basic_m=arg.basic_m, basic_n=arg.basic_n, basic_k=arg.basic_k)
        elif isinstance(arg, MatmulQuantParams):
            f.update(is_per_tensor=arg.is_per_tensor, has_anti_quant_offset=arg.has_anti_quant_offset)
        elif isinstance(arg, MatmulBatchParams):
            f.update(is_n_batch=arg.is_n_batch, batch_mode=arg.batch_mode, is_bias_batch=arg.is_bias_batch)
        elif isinstance(arg, MatmulFuncParams):
            f.update(intrinsics_check=arg.intrinsics_limit, en_vec_nd2nz=arg.en_vec_nd2_nz,
                     enable_l1_cache_ub=arg.enable_l1_cache, do_mte2_preload=arg.do_mte2_pre_load,
                     iterate_order=arg.iterate_order, schedule_type=arg.schedule_type, enable_reuse=arg.enable_reuse,
                     enable_ub_reuse=arg.enable_ub_reuse, is_partial_output=arg.is_partial_output,
                     is_a2b2_shared=arg.is_a2_b2_shared, is_enable_channel_split=arg.is_enable_channel_split,
                     enable_kdim_reorder_load=arg.enable_kdim_reorder_load)
        elif isinstance(arg, MatmulConfigMode):
            mode = arg
        else:
            raise error(f"asc.adv.get_mm_config: unexpected argument {describe(arg)} (a MatmulConfigMode or "
                        "a Matmul*Params)")
    f.setdefault("iterate_order", IterateOrder.ORDER_M)
    f.setdefault("batch_mode", BatchMode.BATCH_LESS_THAN_L1)
    f.setdefault("enable_reuse", False)
    f.setdefault("is_bias_batch", False)
    return MatmulConfig(do_norm=True, do_multi_data_load=mode == MatmulConfigMode.CONFIG_MDL,
                        do_special_mdl=mode == MatmulConfigMode.CONFIG_SPECIALMDL,
                        do_ib_share_norm=mode == MatmulConfigMode.CONFIG_IBSHARE, **f)


@usage("asc.adv.get_matmul_api_tiling(mm_cfg, l1_size, a_type, b_type, c_type, bias_type=None)")
def get_matmul_api_tiling(mm_cfg: Any = None, *args: Any, **kwargs: Any) -> MatmulApiStaticTiling:
    """`GetMatmulApiTiling<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>(mmCFG, l1Size)`: the constant tiling of a Matmul of
    these types and config (a MatmulConfig whose basic_m/n/k, and for the full form single_core_m/n/k, are set),
    for `l1_size` bytes of L1 (default: the Ascend910B's 512 KiB), computed as the devkit's constexpr function does
    (static_tiling.py). Upstream's order (mm_cfg, l1_size, a_type, b_type, c_type, bias_type=None) and its
    implementation's (mm_cfg, a_type, b_type, c_type, bias_type, l1_size=None) are both accepted; bias_type defaults
    to c_type. Pass the result to asc.adv.Matmul as matmul_config."""
    api = "asc.adv.get_matmul_api_tiling"
    names = ["mm_cfg", "l1_size", "a_type", "b_type", "c_type", "bias_type"]
    if args and isinstance(args[0], MatmulType):  # the implementation's order
        names = ["mm_cfg", "a_type", "b_type", "c_type", "bias_type", "l1_size"]
    bound: dict = {"mm_cfg": mm_cfg} if mm_cfg is not None else {}
    if len(args) > len(names) - 1:
        raise error(f"{api}: takes at most 6 arguments, got {len(args) + 1}")
    bound.update(zip(names[1:], args))
    for k, v in kwargs.items():
        if k not in names or k in bound:
            raise error(f"{api}: unexpected argument '{k}'",
                        "hint: write asc.adv.get_matmul_api_tiling(mm_cfg, l1_size, a_type, b_type, c_type, "
                        "bias_type=None)")
        bound[k] = v
    cfg = bound.get("mm_cfg")
    if not isinstance(cfg, MatmulConfig):
        raise error(f"{api}: 'mm_cfg' must be an asc.adv.MatmulConfig, got {got(cfg)}",
                    "hint: get one with asc.adv.get_normal_config() / get_mm_config(...) and set basic_m/n/k")
    types = []
    for k in ("a_type", "b_type", "c_type"):
        if k not in bound:
            raise error(f"{api}: missing argument '{k}'")
        types.append(_check_type(api, k, bound[k]))
    bias = bound.get("bias_type")
    types.append(types[2] if bias is None else _check_type(api, "bias_type", bias))
    l1 = ConstExpr.unwrap(bound.get("l1_size"))
    if l1 is None:
        l1 = _static.L1_SIZE
    if isinstance(l1, IRValue):
        raise error(f"{api}: 'l1_size' must be a compile-time int (GetMatmulApiTiling is constexpr), got "
                    f"{got(l1)}", "hint: pass a Python int or an asc.ConstExpr[int] kernel parameter")
    if isinstance(l1, bool) or not isinstance(l1, int) or not 0 < l1 < 2**31:
        raise error(f"{api}: 'l1_size' must be a positive int32, got {describe(l1)}")
    if not cfg.do_norm and not cfg.do_multi_data_load:
        raise error(f"{api}: the Ascend910B's constant tiling takes a Norm or MDL config (do_norm or "
                    "do_multi_data_load)", "hint: asc.adv.get_normal_config() or get_mdl_config()")
    for k in ("basic_m", "basic_n", "basic_k"):
        if getattr(cfg, k) == 0 and any(getattr(cfg, s) for s in ("single_core_m", "single_core_n",
                                                                   "single_core_k")):
            raise error(f"{api}: the config sets the single-core shape but not {k}",
                        "hint: the devkit constantises (base_m, base_n, base_k), optionally with the single-core "
                        "shape")
    return _static.compute_for(cfg, l1, *types)
