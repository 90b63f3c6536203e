"""2D block legality (spec/pvc-hardware.md §1.2, §1.3): a literal reading of the rules written here, swept over
a grid of shapes around every limit, against ``check_block``; rule texts, sources and severities."""

from __future__ import annotations

import pytest

from xesim.hw.block2d import Block, Surface, Violation, check_block, shape_violations
from xesim.hw.params import load_target

PVC = load_target("pvc")
BMG = load_target("bmg")
GOOD = Surface(0x7F3A_0000_1000, 256, 64, 320)

# words each rule's text must contain
TEXT = {
    "element_size": "element size", "offset_range": "signed 32-bit", "base_alignment": "aligned",
    "element_alignment": "element size", "surface_width_min": "below the minimum of 64",
    "surface_width_max": "exceeds the maximum", "surface_width_multiple": "surface width",
    "surface_height_range": "surface height", "pitch_at_least_width": "smaller than the surface width",
    "pitch_min": "below the minimum of 64", "pitch_multiple": "not a multiple of 16 bytes",
    "x_alignment": "dword aligned", "transpose_vnni": "mutually exclusive", "mode_kind": "has no",
    "mode_element_size": "does not support", "block_width_multiple": "not a multiple of 4 bytes",
    "block_width_range": "block width", "block_height_range": "block height", "array_length": "array length",
    "row_bytes": "array length x element size", "payload": "register payload",
}


def pow2_at_least(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def expected_shape_rules(kind: str, s: int, W: int, H: int, B: int, tr: bool, vn: bool) -> set[str]:
    """§1.3 read literally (PVC)."""
    if s not in (1, 2, 4, 8):
        return {"element_size"}
    if tr and vn:
        return {"transpose_vnni"}
    if kind != "load" and (tr or vn):
        return {"mode_kind"}  # stores: no VNNI/transpose; prefetch: non-transformed loads only
    if tr and s not in (4, 8):
        return {"mode_element_size"}
    if vn and s not in (1, 2):
        return {"mode_element_size"}
    out = set()
    if W * s % 4:
        out.add("block_width_multiple")
    if tr:
        widths = range(1, 9) if s == 4 else (1, 2, 4)
        heights = range(1, 33) if s == 4 else (8,)
        counts, row_max, pay_max = (1,), 32, 2048
    elif vn:
        widths = range(4, 17) if s == 1 else range(2, 17)
        heights = range(4, 33) if s == 1 else range(2, 33)
        counts, row_max, pay_max = (1, 2, 4), 64, 2048
    else:
        widths = range(64 // s + 1)[4 // s if s < 4 else 1:]  # d8 4..64, d16 2..32, d32 1..16, d64 1..8
        heights = range(1, 9) if kind == "store" else range(1, 33)
        if kind == "store":
            counts, pay_max = (1,), 512
        else:
            counts, pay_max = {1: (1, 2, 4), 2: (1, 2, 4), 4: (1, 2), 8: (1,)}[s], 2048
        row_max = 64
    if W not in widths:
        out.add("block_width_range")
    if H not in heights:
        out.add("block_height_range")
    if B not in counts:
        out.add("array_length")
    if W * B * s > row_max:
        out.add("row_bytes")
    if W >= 1 and H >= 1 and B >= 1:
        if kind == "store":
            payload = -(-pow2_at_least(W) * H * s // 64) * 64
        else:
            K = 4 // s if vn else 1
            if tr:
                pitch, rows = pow2_at_least(H), W
            else:
                pitch, rows = pow2_at_least(W) * K, -(-H // K)
            block_bytes = pitch * rows * s
            payload = -(-block_bytes // 64) * 64 * B
        if payload > pay_max:
            out.add("payload")
    return out


def keys(vs: list[Violation]) -> set[str]:
    return {v.key for v in vs}


def check_texts(vs: list[Violation]) -> None:
    for v in vs:
        assert TEXT[v.key] in v.rule, v
        assert v.source.startswith("spec/pvc-hardware.md §1."), v
        assert v.severity == PVC.get(f"block2d.severity.{v.key}"), v


WIDTHS = list(range(0, 67)) + [72, 128]
HEIGHTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 16, 17, 20, 24, 31, 32, 33, 64]
COUNTS = [0, 1, 2, 3, 4, 8]
MODES = [(False, False), (False, True), (True, False), (True, True)]


@pytest.mark.parametrize("kind", ["load", "store", "prefetch"])
def test_shape_rules_over_a_grid(kind: str) -> None:
    legal = 0
    seen: set[str] = set()
    for s in (1, 2, 4, 8):
        for tr, vn in MODES:
            for W in WIDTHS:
                for H in HEIGHTS:
                    for B in COUNTS:
                        got = check_block(PVC, GOOD, Block(s, W, H, B, tr, vn), 0, 0, kind)
                        want = expected_shape_rules(kind, s, W, H, B, tr, vn)
                        assert keys(got) == want, (kind, s, W, H, B, tr, vn, got)
                        if got:
                            check_texts(got)
                        legal += not got
                        seen |= want
    if kind == "store":
        assert seen == {"block_width_multiple", "block_width_range", "block_height_range", "array_length",
                        "row_bytes", "payload", "mode_kind", "transpose_vnni"}
        assert legal == (16 + 16 + 16 + 8) * 8  # d8/d16/d32 16 widths, d64 8; H 1..8 (all in HEIGHTS)
    if kind == "load":
        assert "payload" in seen and "mode_element_size" in seen


def test_unsupported_element_sizes() -> None:
    for s in (0, 3, 16):
        for kind in ("load", "store", "prefetch"):
            got = check_block(PVC, GOOD, Block(s, 16, 8), 0, 0, kind)
            assert keys(got) == {"element_size"}
            check_texts(got)


def expected_surface_rules(base: int, wb: int, h: int, p: int, s: int, x: int, y: int, base_align: int = 64
                           ) -> set[str]:
    """§1.1/§1.2 read literally (PVC unless base_align given)."""
    out = set()
    if not (-(2**31) <= x < 2**31 and -(2**31) <= y < 2**31):
        out.add("offset_range")
    if base % base_align:
        out.add("base_alignment")
    if base % s or p % s:
        out.add("element_alignment")
    if wb < 64:
        out.add("surface_width_min")
    if wb > 2**24:
        out.add("surface_width_max")
    if wb % (4 if s < 4 else s):
        out.add("surface_width_multiple")
    if not 1 <= h <= 2**24:
        out.add("surface_height_range")
    if p < wb:
        out.add("pitch_at_least_width")
    if p < 64:
        out.add("pitch_min")
    if p % 16:
        out.add("pitch_multiple")
    if x % {1: 4, 2: 2, 4: 1, 8: 1}[s]:
        out.add("x_alignment")
    return out


def test_surface_rules_over_a_grid() -> None:
    base0 = GOOD.base
    seen: set[str] = set()
    for s, blk in ((1, Block(1, 16, 4)), (2, Block(2, 16, 4)), (4, Block(4, 8, 4)), (8, Block(8, 4, 4))):
        for boff in (0, 2, 4, 8, 16, 32, 64):
            for wb in (2, 32, 60, 62, 63, 64, 66, 68, 72, 2**24, 2**24 + 8):
                for h in (0, 17, 2**24, 2**24 + 1):
                    for p in (16, 56, 64, 72, 80, 2**24, 2**24 + 16):
                        for x, y in ((0, 0), (1, 0), (2, -3), (-4, 5), (-2, 0), (-1, 1), (2**31, 0), (0, -(2**31) - 1)):
                            got = check_block(PVC, Surface(base0 + boff, wb, h, p), blk, x, y, "load")
                            want = expected_surface_rules(base0 + boff, wb, h, p, s, x, y)
                            assert keys(got) == want, (s, boff, wb, h, p, x, y, got)
                            check_texts(got)
                            seen |= want
    assert seen == {"offset_range", "base_alignment", "element_alignment", "surface_width_min",
                    "surface_width_max", "surface_width_multiple", "surface_height_range", "pitch_at_least_width",
                    "pitch_min", "pitch_multiple", "x_alignment"}


def test_every_rule_has_a_severity_and_is_exercised() -> None:
    sev = {k.split(".")[-1]: p.value for k, p in PVC.params.items() if k.startswith("block2d.severity.")}
    assert set(sev) == set(TEXT)
    assert set(sev.values()) == {"error", "warning"}
    # the classification of the brief / spec §6: API-only restrictions warn, undefined results are errors
    assert {k for k, v in sev.items() if v == "warning"} == {"surface_width_min", "pitch_min", "pitch_multiple"}
    for k in ("surface_width_min", "pitch_min", "pitch_multiple", "base_alignment"):
        p = PVC.params[f"block2d.severity.{k}"]
        assert p.assumed and p.evidence


def test_severity_is_a_parameter() -> None:
    t = PVC.with_overrides({"block2d.severity.pitch_multiple": "error", "block2d.severity.x_alignment": "warning"})
    got = {v.key: v.severity for v in check_block(t, Surface(GOOD.base, 256, 8, 264), Block(2, 16, 8), 3, 0, "load")}
    assert got == {"pitch_multiple": "error", "x_alignment": "warning"}


def test_bmg_relaxes_base_alignment_to_4() -> None:
    blk = Block(2, 16, 8)
    for boff, pvc, bmg in ((0, set(), set()), (4, {"base_alignment"}, set()), (32, {"base_alignment"}, set()),
                           (2, {"base_alignment"}, {"base_alignment"})):
        surf = Surface(GOOD.base + boff, 256, 8, 256)
        assert keys(check_block(PVC, surf, blk, 0, 0, "load")) == pvc
        assert keys(check_block(BMG, surf, blk, 0, 0, "load")) == bmg
        assert keys(check_block(BMG, surf, blk, 0, 0, "load")) == expected_surface_rules(
            surf.base, 256, 8, 256, 2, 0, 0, base_align=4)
    # 8-byte elements on a 4-aligned Xe2 base: element addresses misaligned
    assert keys(check_block(BMG, Surface(GOOD.base + 4, 256, 8, 256), Block(8, 4, 8), 0, 0, "load")) == {
        "element_alignment"}


def test_shape_violations_matches_check_block_shape_part() -> None:
    for blk in (Block(2, 16, 40, 3), Block(4, 16, 8, 1, True), Block(1, 5, 2, 1, False, True)):
        assert shape_violations(PVC, blk, "load") == check_block(PVC, GOOD, blk, 0, 0, "load")
    with pytest.raises(ValueError, match="kind"):
        check_block(PVC, GOOD, Block(2, 16, 8), 0, 0, "gather")


def test_example_messages() -> None:
    got = check_block(PVC, GOOD, Block(2, 16, 16, 4), 0, 0, "load")
    assert [v.rule for v in got] == ["block width x array length x element size = 16 x 4 x 2 = 128 bytes exceeds "
                                     "64 bytes"]
    got = check_block(PVC, GOOD, Block(8, 3, 8, 1, True), 0, 0, "load")
    assert [v.rule for v in got] == ["block width 3 is not one of 1, 2, 4 elements for a 8-byte transpose load"]
    assert "VISA-VERIF" in check_block(PVC, GOOD, Block(4, 8, 8, 2, True), 0, 0, "load")[0].source
