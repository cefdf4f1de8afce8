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
The methods upstream has beyond these raise NotImplementedError naming themselves."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Optional

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, error, got, usage
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
from ..core.values import GlobalAddress, GlobalTensor, IRValue, LocalTensor, Scalar, const, int_operand, to_scalar
from .tiling import TCubeTiling
from .types import MatmulBatchParams, MatmulConfig, MatmulFuncParams, MatmulQuantParams, MatmulShapeParams

# the element types of A and B the Ascend910B's cube unit multiplies, and what C and bias may be for each
_AB_TYPES = (dt.float16, dt.bfloat16, dt.float32, dt.int8)
_C_TYPES = {dt.float16: (dt.float32, dt.float16), dt.bfloat16: (dt.float32, dt.bfloat16),
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
        if matmul_config is not None and not isinstance(matmul_config, MatmulConfig):
            raise error(f"{api}: 'matmul_config' must be an asc.adv.MatmulConfig or None, got {got(matmul_config)}")
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
        self.handle = bld.create1("asc.matmul", [], bld.scalar_type(dt.int32), attrs)
        self.a_type, self.b_type, self.c_type, self.bias_type = a, b, c, bias_t
        self.a_dtype, self.b_dtype, self.c_dtype = a.dtype, b.dtype, c.dtype
        self.matmul_config = matmul_config

    def _op(self, name: str, operands: list) -> None:
        _b.current().create(name, [self] + operands)

    @usage("matmul.init(tiling)")
    def init(self, tiling: TCubeTiling) -> None:
        """`Init(&tiling)`: gives the object its tiling (register_matmul does it when given one)."""
        if not isinstance(tiling, TCubeTiling):
            raise error(f"Matmul.init: 'tiling' must be an asc.adv.TCubeTiling, got {got(tiling)}")
        self._op("asc.matmul.init", [tiling.to_ir()])

    def _set_tensor(self, api: str, op: str, dtype: Any, args: tuple, kwargs: dict) -> None:
        names = ("tensor", "transpose")
        bound = dict(zip(names, args))
        for k, v in kwargs.items():
            if k == "scalar":
                raise NotImplementedError(f"{api}(scalar) (a scalar A or B) is not implemented")
            if k not in names or k in bound:
                raise error(f"{api}: unexpected argument '{k}'")
            bound[k] = v
        if len(args) > 2 or "tensor" not in bound:
            raise error(f"{api}: takes (tensor, transpose=False)")
        t = bound["tensor"]
        if isinstance(t, (int, float, Scalar)) and not isinstance(t, bool):
            raise NotImplementedError(f"{api}(scalar) (a scalar A or B) is not implemented")
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
        t = _gm("Matmul.set_bias", tensor, "tensor")
        allowed = _BIAS_TYPES[self.a_dtype]
        if t.dtype not in allowed:
            raise error(f"Matmul.set_bias: a bias of {t.dtype.name} is not supported for {self.a_dtype.name} "
                        f"inputs ({', '.join(x.name for x in allowed)})")
        self._op("asc.matmul.set_bias", [t])

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
        if local_c_matrix is not None:
            raise NotImplementedError("Matmul.iterate with local_c_matrix is not implemented")
        if sync is not True:
            raise NotImplementedError("Matmul.iterate with sync=False (the asynchronous mode) is not implemented")
        return MatmulIterator(self, _flag("Matmul.iterate", en_partial_sum, "en_partial_sum"))

    @usage("matmul.iterate_all(tensor, en_atomic=0, sync=True, en_sequential_write=None, wait_iterate_all=None, "
           "fake_msg=None)")
    def iterate_all(self, tensor: Any, en_atomic: Any = 0, sync: Any = True, en_sequential_write: Any = None,
                    wait_iterate_all: Any = None, fake_msg: Any = None) -> None:
        """`IterateAll(gm, enAtomic, enSequentialWrite, waitIterateAll, fakeMsg)`: computes every block of C
        into the GlobalTensor (en_atomic 1, 2, 3: added to it, its max, its min)."""
        api = "Matmul.iterate_all"
        if isinstance(tensor, LocalTensor):
            raise NotImplementedError(f"{api} into a LocalTensor is not implemented; pass a GlobalTensor")
        t = self._c_tensor(api, tensor, GlobalTensor)
        if sync is not True:
            raise NotImplementedError(f"{api} with sync=False (the asynchronous mode) is not implemented")
        self._op("asc.matmul.iterate_all", [t, self._atomic(api, en_atomic),
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

    @usage("matmul.get_tensor_c(tensor, en_atomic=0, en_sequential_write=False, sync=True, optional_tensor=None)")
    def get_tensor_c(self, tensor: Any = None, en_atomic: Any = 0, en_sequential_write: Any = False,
                     sync: Any = True, optional_tensor: Any = None) -> None:
        """`GetTensorC(tensor, enAtomic, enSequentialWrite)` inside `with matmul.iterate()`: the current block
        into a GlobalTensor (at its place in C; en_sequential_write: rows baseN apart from its start) or a
        LocalTensor in the UB (baseM x baseN, row-major)."""
        api = "Matmul.get_tensor_c"
        if tensor is None:
            raise NotImplementedError(f"{api}() returning a GlobalTensor (sync=False) is not implemented")
        if optional_tensor is not None:
            raise NotImplementedError(f"{api} with optional_tensor (GM and UB at once) is not implemented")
        if sync is not True:
            raise NotImplementedError(f"{api} with sync=False (the asynchronous mode) is not implemented")
        if isinstance(tensor, LocalTensor):
            t = self._c_tensor(api, tensor, LocalTensor)
            op = "asc.matmul.get_tensor_c.local"
        else:
            t = self._c_tensor(api, tensor, GlobalTensor)
            op = "asc.matmul.get_tensor_c.gm"
        self._op(op, [t, self._atomic(api, en_atomic), _flag(api, en_sequential_write, "en_sequential_write")])

    @usage("matmul.end()")
    def end(self) -> None:
        """`End()`: the object's work is done."""
        self._op("asc.matmul.end", [])


def _not_implemented(name: str) -> Any:
    def method(self: Matmul, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"Matmul.{name} is not implemented (asc.adv.Matmul has init, set_tensor_a, "
                                  "set_tensor_b, set_bias, disable_bias, set_tail, set_org_shape, set_single_shape, "
                                  "iterate, iterate_all, get_tensor_c and end)")

    method.__name__ = name
    method.__doc__ = f"Upstream's Matmul.{name}: not implemented (raises NotImplementedError)."
    return method


for _name in ("wait_iterate_all", "iterate_batch", "wait_iterate_batch", "get_batch_tensor_c", "set_self_define_data",
              "set_sparse_index", "set_user_def_info", "iterate_n_batch", "set_hf32", "set_batch_num", "set_workspace",
              "wait_get_tensor_c", "get_offset_c", "async_get_tensor_c", "set_quant_scalar", "set_quant_vector"):
    setattr(Matmul, _name, _not_implemented(_name))


class MatmulIterator:
    """What `matmul.iterate()` returns: the context manager of `with matmul.iterate() as count:` (the kernel
    visitor compiles it as `while (mm.Iterate(enPartialSum)) { body; count++; }`)."""

    def __init__(self, matmul: Matmul, en_partial_sum: Scalar) -> None:
        self.matmul = matmul
        self.en_partial_sum = en_partial_sum

    def __asc_with__(self, run: Any) -> None:
        def condition() -> Scalar:
            bld = _b.current()
            res = bld.create1("asc.matmul.iterate", [self.matmul, self.en_partial_sum], bld.scalar_type(dt.bool_))
            return Scalar(res, dt.bool_)

        run(condition)

    def __enter__(self) -> None:
        raise error("`with matmul.iterate()` compiles only inside an @asc.jit kernel")

    def __exit__(self, *args: Any) -> None:
        return None


@usage("asc.adv.register_matmul(pipe, workspace, matmul, tiling=None)")
def register_matmul(pipe: Any, workspace: Any, matmul: Any, tiling: Optional[TCubeTiling] = None) -> None:
    """`REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling)` (after SetSysWorkspace(workspace)): registers
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


def get_matmul_api_tiling(*args: Any, **kwargs: Any) -> Any:
    """Upstream's get_matmul_api_tiling (the devkit's constant-tiling GetMatmulApiTiling): not implemented
    (raises NotImplementedError)."""
    raise NotImplementedError("asc.adv.get_matmul_api_tiling is not implemented; make the tiling on the host with "
                              "asc.lib.host.MultiCoreMatmulTiling")
