"""xegpu.atomic_rmw (spec/pvc-hardware.md §2.4, §6 items 8, 9, 18): every kind on i32/u32/i64/f16/f32/f64 with
hand-derived old/new values, NaN and signed zeros for the float min/max kinds, wrap-around, duplicated addresses
applied in lane order, masks, faults, and the native-support table.

Expected values are written by hand (bit patterns and exact binary fractions, with the rounding argued in the
comments) or come from a plain Python loop over integers, never from xesim.hw.atomics."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from xesim.hw.atomics import (
    ATOMIC_KINDS,
    apply_kind,
    atomic_lane_mask,
    atomic_native,
    atomic_notes,
    atomic_options,
    atomic_rmw,
    type_name,
)
from xesim.hw.memory import AddressSpace, MemoryFault
from xesim.hw.params import load_target
from xesim.hw.scatter import LaneFault

U = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def bits(x, dtype) -> int:
    return int(np.asarray(x, dtype=dtype).reshape(-1)[0].view(U[np.dtype(dtype).itemsize]))


def run1(dtype, kind: str, mem_value, operand, **kw):
    """One lane, one element: returns (old, new) as numpy scalars of dtype."""
    mem = AddressSpace()
    a = mem.allocate(64, "device")
    mem.write(a.base + 8, np.array([mem_value], dtype=dtype))
    old = atomic_rmw(mem, a.base, np.array([8 // np.dtype(dtype).itemsize]), np.array([True]), kind,
                     np.array([operand], dtype=dtype), dtype, **kw)
    new = mem.read(a.base + 8, np.dtype(dtype).itemsize).view(dtype)[0]
    return old[0], new


def f16(h: int):
    return np.array([h], np.uint16).view(np.float16)[0]


def f32(h: int):
    return np.array([h], np.uint32).view(np.float32)[0]


def f64(h: int):
    return np.array([h], np.uint64).view(np.float64)[0]


# (dtype, kind, memory, operand, expected new value) — derived by hand.
INT_CASES = [
    # i32 (signless, held as int32)
    (np.int32, "addi", 2**31 - 1, 1, -(2**31)),  # wraps
    (np.int32, "addi", -5, 3, -2),
    (np.int32, "muli", 0x10000, 0x10000, 0),  # 2^32 mod 2^32
    (np.int32, "muli", 46341, 46341, 2147488281 - 2**32),  # 46341^2 = 2147488281 > 2^31-1
    (np.int32, "muli", -3, 7, -21),
    (np.int32, "andi", 0b1100, 0b1010, 0b1000),
    (np.int32, "ori", 0b1100, 0b1010, 0b1110),
    (np.int32, "xori", 0b1100, 0b1010, 0b0110),
    (np.int32, "xori", -1, 0x0F0F0F0F, ~0x0F0F0F0F),
    (np.int32, "maxs", -1, 1, 1),
    (np.int32, "mins", -1, 1, -1),
    (np.int32, "maxu", -1, 1, -1),  # 0xFFFFFFFF > 1 unsigned
    (np.int32, "minu", -1, 1, 1),
    (np.int32, "assign", 17, -9, -9),
    # u32 (held as uint32): the kind, not the dtype, decides signedness
    (np.uint32, "addi", 0xFFFFFFFF, 2, 1),
    (np.uint32, "muli", 0xFFFFFFFF, 0xFFFFFFFF, 1),  # (-1)*(-1) mod 2^32
    (np.uint32, "maxs", 0x80000000, 1, 1),  # 0x80000000 is -2^31 as signed
    (np.uint32, "mins", 0x80000000, 1, 0x80000000),
    (np.uint32, "maxu", 0x80000000, 1, 0x80000000),
    (np.uint32, "minu", 0x80000000, 1, 1),
    (np.uint32, "andi", 0xF0F0F0F0, 0xFF00FF00, 0xF000F000),
    (np.uint32, "ori", 0xF0F0F0F0, 0x0F000000, 0xFFF0F0F0),
    (np.uint32, "xori", 0xFFFFFFFF, 0x12345678, 0xEDCBA987),
    (np.uint32, "assign", 1, 0xDEADBEEF, 0xDEADBEEF),
    # i64
    (np.int64, "addi", 2**63 - 1, 1, -(2**63)),
    (np.int64, "addi", -(2**63), -1, 2**63 - 1),
    (np.int64, "muli", 2**32, 2**32, 0),
    (np.int64, "muli", 2**62, 3, 2**62 * 3 - 2**64),  # 3*2^62 = 2^63 + 2^62 wraps to -2^62
    (np.int64, "maxs", -(2**40), 2**40, 2**40),
    (np.int64, "mins", -(2**40), 2**40, -(2**40)),
    (np.int64, "maxu", -(2**40), 2**40, -(2**40)),
    (np.int64, "minu", -(2**40), 2**40, 2**40),
    (np.int64, "andi", -1, 2**40 + 1, 2**40 + 1),
    (np.int64, "ori", 2**63 - 2**62, 1, 2**63 - 2**62 + 1),
    (np.int64, "xori", -1, -1, 0),
    (np.int64, "assign", 5, -(2**50), -(2**50)),
]


@pytest.mark.parametrize("dtype,kind,memval,operand,expect", INT_CASES)
def test_integer_kinds(dtype, kind, memval, operand, expect) -> None:
    old, new = run1(dtype, kind, memval, operand)
    assert old == np.array(memval).astype(dtype)
    assert int(new) == int(np.array(expect).astype(dtype)), (kind, int(new))


NAN32 = 0x7FC12345  # quiet NaN with payload
NAN32B = 0x7FC00001
F32_CASES = [
    # addf: 1 + 1.5*2^-24 = 1 + 0.75 ulp -> rounds up to 1 + 2^-23
    ("addf", 1.0, 1.5 * 2**-24, 1 + 2**-23),
    ("addf", 1.0, 2**-24, 1.0),  # exact tie, 1.0 has an even significand
    ("addf", 1 + 2**-23, 2**-24, 1 + 2**-22),  # tie, 1+2^-23 is odd -> up to the even neighbour
    ("addf", 3.0e38, 3.0e38, math.inf),  # overflow under RNE
    ("addf", 1.0, -1.0, 0.0),
    # mulf: (1+2^-23)^2 = 1 + 2^-22 + 2^-46 -> 1 + 2^-22
    ("mulf", 1 + 2**-23, 1 + 2**-23, 1 + 2**-22),
    ("mulf", 2**-100, 2**-100, 0.0),  # underflows to +0 (2^-200 is far below 2^-149)
    ("mulf", 3.0, -0.5, -1.5),
    ("maximumf", 1.0, 2.0, 2.0),
    ("maximumf", -0.0, 0.0, 0.0),
    ("maximumf", 0.0, -0.0, 0.0),
    ("minimumf", 0.0, -0.0, -0.0),
    ("minimumf", -0.0, 0.0, -0.0),
    ("minimumf", -math.inf, 3.0, -math.inf),
    ("maxnumf", -0.0, 0.0, 0.0),
    ("minnumf", 0.0, -0.0, -0.0),
    ("maxnumf", 1.0, 2.0, 2.0),
    ("minnumf", 1.0, 2.0, 1.0),
    ("assign", 1.0, -7.25, -7.25),
]


@pytest.mark.parametrize("kind,memval,operand,expect", F32_CASES)
def test_f32_kinds(kind, memval, operand, expect) -> None:
    old, new = run1(np.float32, kind, memval, operand)
    assert bits(old, np.float32) == bits(memval, np.float32)
    assert bits(new, np.float32) == bits(expect, np.float32), (kind, float(new))


def test_float_minmax_nan_rules() -> None:
    one = np.float32(1.0)
    # maximumf / minimumf propagate NaN; the memory's NaN wins when memory holds one; bits are kept.
    for kind in ("maximumf", "minimumf"):
        assert bits(run1(np.float32, kind, f32(NAN32), one)[1], np.float32) == NAN32
        assert bits(run1(np.float32, kind, one, f32(NAN32B))[1], np.float32) == NAN32B
        assert bits(run1(np.float32, kind, f32(NAN32), f32(NAN32B))[1], np.float32) == NAN32
    # maxnumf / minnumf return the non-NaN operand.
    for kind in ("maxnumf", "minnumf"):
        assert run1(np.float32, kind, f32(NAN32), one)[1] == 1.0
        assert run1(np.float32, kind, one, f32(NAN32B))[1] == 1.0
        assert bits(run1(np.float32, kind, f32(NAN32), f32(NAN32B))[1], np.float32) == NAN32
    # float_minmax = "maxnum": the hardware-fmax reading, maximumf also returns the number.
    assert run1(np.float32, "maximumf", f32(NAN32), one, float_minmax="maxnum")[1] == 1.0
    assert run1(np.float32, "minimumf", one, f32(NAN32B), float_minmax="maxnum")[1] == 1.0
    # The old value returned is the memory's NaN itself.
    assert bits(run1(np.float32, "maximumf", f32(NAN32), one)[0], np.float32) == NAN32


F16_CASES = [
    # f16 has 11 significand bits: ulp(2048) = 2.  2048 + 1 = 2049 is a tie -> 2048 (even);
    # 2050 + 1 = 2051 is a tie between 2050 (odd significand 0x401) and 2052 -> 2052.
    ("addf", 0x6800, 0x3C00, 0x6800),  # 2048 + 1
    ("addf", 0x6801, 0x3C00, 0x6802),  # 2050 + 1 -> 2052
    ("addf", 0x7BFF, 0x7BFF, 0x7C00),  # 65504 + 65504 -> +inf
    ("addf", 0x0001, 0x0001, 0x0002),  # subnormals add exactly (preserve)
    ("mulf", 0x3C01, 0x3C01, 0x3C02),  # (1+2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9
    ("mulf", 0x7BFF, 0x4000, 0x7C00),  # 65504 * 2 -> inf
    ("maximumf", 0x8000, 0x0000, 0x0000),  # max(-0, +0) = +0
    ("minimumf", 0x0000, 0x8000, 0x8000),  # min(+0, -0) = -0
    ("maximumf", 0x7E01, 0x3C00, 0x7E01),  # NaN propagates (memory's bits)
    ("maxnumf", 0x7E01, 0x3C00, 0x3C00),
    ("minnumf", 0xBC00, 0x7E01, 0xBC00),  # min(-1, NaN) = -1
    ("assign", 0x3C00, 0xC000, 0xC000),
]


@pytest.mark.parametrize("kind,memh,oph,expecth", F16_CASES)
def test_f16_kinds(kind, memh, oph, expecth) -> None:
    old, new = run1(np.float16, kind, f16(memh), f16(oph))
    assert bits(old, np.float16) == memh
    assert bits(new, np.float16) == expecth, (kind, hex(bits(new, np.float16)))


F64_CASES = [
    ("addf", 1.0, 2**-53, 1.0),  # tie -> even
    ("addf", 1.0, 2**-53 + 2**-60, 1 + 2**-52),  # above the tie
    ("mulf", 1 + 2**-52, 1 + 2**-52, 1 + 2**-51),  # 1 + 2^-51 + 2^-104 -> 1 + 2^-51
    ("maximumf", -0.0, 0.0, 0.0),
    ("minimumf", 0.0, -0.0, -0.0),
    ("maxnumf", 2.5, -1.0, 2.5),
    ("minnumf", 2.5, -1.0, -1.0),
    ("assign", 2.5, 1e300, 1e300),
]


@pytest.mark.parametrize("kind,memval,operand,expect", F64_CASES)
def test_f64_kinds(kind, memval, operand, expect) -> None:
    old, new = run1(np.float64, kind, memval, operand)
    assert old == memval
    assert bits(new, np.float64) == bits(expect, np.float64)


def test_f64_nan_rules() -> None:
    nan = f64(0x7FF8000000000123)
    assert bits(run1(np.float64, "minimumf", 1.0, nan)[1], np.float64) == 0x7FF8000000000123
    assert run1(np.float64, "minnumf", 1.0, nan)[1] == 1.0


def test_bf16_add_rounds_once_in_bf16() -> None:
    bf = ml_dtypes.bfloat16
    # bf16 has 8 significand bits: ulp(256) = 2. 256 + 1 tie -> 256; 258 + 1 tie -> 260.
    assert float(run1(bf, "addf", 256.0, 1.0)[1]) == 256.0
    assert float(run1(bf, "addf", 258.0, 1.0)[1]) == 260.0
    assert float(run1(bf, "mulf", 1 + 2**-7, 1 + 2**-7)[1]) == 1 + 2**-6  # 1 + 2^-6 + 2^-14 -> 1 + 2^-6


def test_denormal_modes() -> None:
    tiny = 2**-149  # smallest f32 subnormal
    assert run1(np.float32, "addf", tiny, 0.0)[1] == tiny  # preserve (default)
    old, new = run1(np.float32, "addf", tiny, 0.0, denormals="flush")
    assert old == tiny and new == 0.0  # the old value is memory's, unflushed
    _, new = run1(np.float32, "addf", -tiny, -0.0, denormals="flush")
    assert bits(new, np.float32) == 0x80000000  # -0 + -0 = -0
    # A normal result of subnormal-free inputs that rounds into the subnormal range is flushed too.
    _, new = run1(np.float32, "mulf", 2**-70, 2**-70, denormals="flush")
    assert new == 0.0
    assert run1(np.float32, "mulf", 2**-70, 2**-70)[1] == 2**-140
    with pytest.raises(ValueError, match="denormals"):
        run1(np.float32, "addf", 1.0, 1.0, denormals="maybe")
    with pytest.raises(ValueError, match="float_minmax"):
        run1(np.float32, "maxnumf", 1.0, 1.0, float_minmax="maybe")


def test_duplicate_addresses_apply_sequentially_in_lane_order() -> None:
    mem = AddressSpace()
    a = mem.allocate(64, "device")
    # 16 lanes incrementing one counter: lane i sees i, the counter ends at 16.
    old = atomic_rmw(mem, a.base, np.zeros(16, np.int64), np.ones(16, bool), "addi", np.ones(16, np.int32), np.int32)
    assert old.tolist() == list(range(16)) and mem.read(a.base, 4).view(np.int32)[0] == 16
    # Order-sensitive float sum on one address: 1 + 2^24 -> 2^24 (tie to even), - 2^24 -> 0, + 1 -> 1.
    mem.write(a.base, np.array([1.0], np.float32))
    vals = np.array([2.0**24, -(2.0**24), 1.0], np.float32)
    old = atomic_rmw(mem, a.base, np.zeros(3, np.int64), np.ones(3, bool), "addf", vals, np.float32)
    assert old.tolist() == [1.0, 2.0**24, 0.0] and mem.read(a.base, 4).view(np.float32)[0] == 1.0
    # Interleaved addresses with a mask: a literal loop over lanes derives the expected state.
    mem.write(a.base, np.zeros(4, np.int32))
    offs = np.array([0, 1, 0, 2, 1, 0, 3, 0], np.int64)
    mask = np.array([1, 1, 0, 1, 1, 1, 1, 1], bool)
    vals = np.array([5, -7, 100, 9, 3, -2, 4, 6], np.int32)
    state = [0, 0, 0, 0]
    expect_old = []
    for i in range(8):
        if mask[i]:
            expect_old.append(state[offs[i]])
            state[offs[i]] = max(state[offs[i]], int(vals[i]))
        else:
            expect_old.append(0)
    old = atomic_rmw(mem, a.base, offs, mask, "maxs", vals, np.int32)
    assert old.tolist() == expect_old and mem.read(a.base, 16).view(np.int32).tolist() == state
    # assign on one address: the last enabled lane's value remains, each lane gets its predecessor's value.
    mem.write(a.base, np.array([-1], np.int32))
    old = atomic_rmw(mem, a.base, np.zeros(4, np.int64), np.array([1, 1, 1, 0], bool), "assign",
                     np.array([10, 20, 30, 40], np.int32), np.int32)
    assert old.tolist() == [-1, 10, 20, 0] and mem.read(a.base, 4).view(np.int32)[0] == 30


def test_masked_lanes_do_not_access_memory_and_faults_are_atomic() -> None:
    mem = AddressSpace()
    a = mem.allocate(16, "device")
    mem.write(a.base, np.array([1, 2, 3, 4], np.int32))
    offs = np.array([0, 10**12, -(10**9), 3], np.int64)
    old = atomic_rmw(mem, a.base, offs, np.array([1, 0, 0, 1], bool), "addi", np.array([1, 1, 1, 1], np.int32), np.int32)
    assert old.tolist() == [1, 0, 0, 4] and mem.read(a.base, 16).view(np.int32).tolist() == [2, 2, 3, 5]
    with pytest.raises(LaneFault) as ei:
        atomic_rmw(mem, a.base, np.array([0, 1, 4]), np.array([1, 1, 1], bool), "addi", np.ones(3, np.int32), np.int32)
    assert ei.value.lane == 2 and ei.value.address == a.base + 16 and isinstance(ei.value, MemoryFault)
    assert mem.read(a.base, 16).view(np.int32).tolist() == [2, 2, 3, 5]  # nothing applied


def test_every_kind_is_accepted_and_type_mismatches_rejected() -> None:
    assert len(ATOMIC_KINDS) == 16 and sorted(ATOMIC_KINDS) == list(ATOMIC_KINDS)
    for kind in ATOMIC_KINDS:
        dt = np.float32 if kind.endswith("f") else np.int32
        apply_kind(kind, np.array([1], dt), np.array([2], dt), dt)
    with pytest.raises(ValueError, match="integer"):
        apply_kind("addi", np.array([1.0], np.float32), np.array([1.0], np.float32), np.float32)
    with pytest.raises(ValueError):
        apply_kind("addf", np.array([1], np.int32), np.array([1], np.int32), np.int32)
    with pytest.raises(ValueError, match="unknown atomic kind"):
        atomic_rmw(AddressSpace(), 0, np.array([0]), np.array([False]), "nand", np.array([1], np.int32), np.int32)


# ----------------------------------------------------------------------------------------------- native table
def test_native_table_matches_spec_2_4() -> None:
    t = load_target("pvc")
    # FP32 global atomic add (hasFP32GlobalAtomicAdd); FP64 global add on PVC > A0.
    assert atomic_native(t, "addf", "f32", "global") and atomic_native(t, "addf", "f64", "global")
    # SLM float add is emulated on PVC (hasFP32LocalAtomicAdd only Xe3P).
    assert not atomic_native(t, "addf", "f32", "slm")
    # No bf16 atomics on PVC (VC-PROPS HasBF16Atomic false); f16 fadd unconfirmed -> emulated.
    assert not atomic_native(t, "addf", "bf16", "global") and not atomic_native(t, "maximumf", "bf16", "global")
    assert not atomic_native(t, "addf", "f16", "global")
    # FP16 atomic min/max (hasFP16AtomicMinMax).
    assert atomic_native(t, "maximumf", "f16", "global") and atomic_native(t, "minimumf", "f32", "global")
    # No multiply in the LSC op table.
    for ty in ("i32", "i64"):
        assert not atomic_native(t, "muli", ty, "global")
    assert not atomic_native(t, "mulf", "f32", "global")
    # 64-bit SLM atomics: only icas -> add/max/... on i64 in SLM are emulated; global i64 is native.
    assert atomic_native(t, "addi", "i64", "global") and not atomic_native(t, "addi", "i64", "slm")
    assert not atomic_native(t, "maxu", "index", "slm") and atomic_native(t, "maxu", "i32", "slm")
    # Data sizes D16U32/D32/D64: no 8-bit atomics.
    assert not atomic_native(t, "addi", "i8", "global") and atomic_native(t, "addi", "i16", "global")
    # Signedness comes from the kind: ui32/si32/u32 are all 32-bit integers.
    for name in ("ui32", "si32", "u32", "uint32", np.uint32, np.int32):
        assert atomic_native(t, "mins", name, "global")
    assert type_name(ml_dtypes.bfloat16) == "bf16" and type_name("index") == "i64" and type_name(np.float16) == "f16"
    with pytest.raises(ValueError, match="floating-point"):
        atomic_native(t, "addf", "i32", "global")
    with pytest.raises(ValueError, match="memory space"):
        atomic_native(t, "addi", "i32", "private")


def test_notes_mask_policy_and_options() -> None:
    t = load_target("pvc")
    notes = atomic_notes(t, "addf", "f32", "slm")
    assert len(notes) == 1 and "compare-and-swap" in notes[0]
    assert atomic_notes(t, "addf", "f32", "global") == []
    notes = atomic_notes(t, "xori", "i32", "global")
    assert len(notes) == 1 and "XeVM" in notes[0]  # native in LSC, but no upstream lowering pattern
    assert len(atomic_notes(t, "mulf", "f32", "global")) == 2
    # §6 item 8: upstream ignores the mask (all lanes update); the VC path honours it.
    mask = np.array([True, False, True, False])
    assert atomic_lane_mask(t, mask, 4).tolist() == [True] * 4
    tv = t.with_overrides({"atomics.honour_mask": True})
    assert atomic_lane_mask(tv, mask, 4).tolist() == mask.tolist()
    assert atomic_options(t) == {"float_minmax": "ir", "denormals": "preserve"}
    assumed = {p.path for p in t.assumptions()}
    assert {"atomics.honour_mask", "atomics.float_minmax", "atomics.float_denormals"} <= assumed
    for path, p in t.params.items():
        if path.startswith("atomics."):
            assert "pvc-hardware.md §2.4" in p.source or "pvc-hardware.md §6" in p.source, path
