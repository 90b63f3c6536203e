"""Scattered (LSC untyped, SIMT) memory access: xegpu.load / store / prefetch with per-lane offsets.

Semantics (spec/pvc-hardware.md §2, spec/programs-and-runner.md §3.3 "Scatter"):

* Lane ``i`` accesses ``chunk`` consecutive elements starting at byte address ``base + offsets[i] * itemsize``
  (offsets are in *elements*, XEGPU-TD / X2X, §2.1).  Addresses are computed modulo 2^64 (global, flat 64-bit
  pointers) or 2^32 (SLM, 32-bit offsets, §2.3; ``target.scatter.slm_address_bits``), as the i64 / i32 address
  arithmetic of the XeVM lowering does.
* Only enabled lanes touch memory (§2.2, VISA-LSC ``if (Msg.ChEn[n])``): a disabled lane never faults, whatever
  its address.  The value a gather gives a disabled lane is a target choice (§6 item 7,
  ``target.scatter.masked_load_value``): ``"zero"`` (upstream XeGPU->XeVM: ``scf.if mask {load} else {zeros}``)
  or ``"unchanged"`` (hardware / IMEX-RFC: the destination registers keep ``previous``).
* The mask is per lane, not per chunk element (IMEX-RFC, §2.2).
* An enabled lane whose bytes are not inside one live allocation raises :class:`LaneFault` (a
  :class:`~xesim.hw.memory.MemoryFault` carrying ``lane`` and ``address``) before anything is written; the
  message is the address space's own (it names the address and the nearest allocation).  The spec leaves
  unmasked out-of-range scattered accesses undefined (§6 item 16); the simulator refuses them.
* Enabled lanes of one store that write the same bytes: the order is ``target.scatter.store_lane_order``
  (assumed, see pvc.toml): ``"ascending"`` (lane 0 first, each lane writes its whole chunk, so the highest lane
  wins), ``"descending"`` (lowest lane wins) or ``"component_major"`` (component 0 of every lane in lane order,
  then component 1, ...).

Legality (:func:`check_scatter`, §2.1): data sizes d8/d16/d32/d64; SIMT vectors 1,2,3,4,8 (only d32/d64
carry vectors > 1; 8/16-bit chunks > 1 travel as d32 words and must fill whole words); single-lane (SIMD1,
transposed block) messages also allow vectors 16/32/64; payload <= 8 GRFs.  The legal chunk sizes per element
size are data (``[scatter.simt_chunks]`` / ``[scatter.block_chunks]``); severities are ``[scatter.severity]``:
``"error"`` = no defined result (the op layer refuses it), ``"warning"`` = one message cannot do it but the
compiler splits it into legal messages (report and continue).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.hw.block2d import Violation  # one Violation type for all hardware models
from xesim.hw.memory import AddressSpace, MemoryFault

SPACES = ("global", "slm")
SCATTER_KINDS = ("load", "store", "prefetch")
MASKED_VALUES = ("zero", "unchanged")
LANE_ORDERS = ("ascending", "descending", "component_major")


class LaneFault(MemoryFault):
    """An enabled lane's access outside any live allocation.  ``lane`` is the lane index, ``address`` the byte
    address of the lane's first element; ``str()`` is the address space's explanation."""

    def __init__(self, message: str, lane: int, address: int) -> None:
        super().__init__(message)
        self.lane = lane
        self.address = address


# ------------------------------------------------------------------------------------------------- legality
def _v(target: Any, key: str, rule: str, source: str, param: str = "") -> Violation:
    """A violation of rule ``key`` with the severity ``target.scatter.severity.<key>``."""
    return Violation(rule, source, target.get(f"scatter.severity.{key}"), key, param)


def message_shape(target: Any, elem_bytes: int, chunk: int) -> tuple[int, int]:
    """(bytes per lane slot, vector length) of the LSC message carrying ``chunk`` elements of ``elem_bytes``:
    d32/d64 as they are; 8/16-bit chunk 1 as d8u32/d16u32 (one 32-bit slot); 8/16-bit chunks > 1 packed into
    32-bit words (§2.1; IMEX-RFC).  Only meaningful for sizes :func:`check_scatter` accepts."""
    container = target.scatter.sub32_container_bytes
    if elem_bytes >= container:
        return elem_bytes, chunk
    if chunk == 1:
        return container, 1
    return container, chunk * elem_bytes // container


def check_scatter(target: Any, elem_bytes: int, chunk: int, lanes: int, space: str, kind: str) -> list[Violation]:
    """Rules of one scattered message (§2.1): data size, chunk size for SIMT (``lanes > 1``) or single-lane
    (SIMD1 block) mode, exec size, data payload (not for prefetch, which returns no data).  ``lanes`` is the
    number of lanes of one message (one subgroup's share), ``space`` ``"global"``/``"slm"``, ``kind``
    ``"load"``/``"store"``/``"prefetch"``.  An empty list means legal."""
    if space not in SPACES:
        raise ValueError(f"unknown memory space '{space}' (expected one of {SPACES})")
    if kind not in SCATTER_KINDS:
        raise ValueError(f"unknown scattered access kind '{kind}' (expected one of {SCATTER_KINDS})")
    sc = target.scatter
    out: list[Violation] = []
    sizes = sc.data_sizes_bytes
    if elem_bytes not in sizes:
        out.append(_v(target, "data_size",
                      f"{elem_bytes}-byte elements have no LSC data size (legal element sizes: "
                      f"{', '.join(map(str, sizes))} bytes)", "spec/pvc-hardware.md §2.1", "scatter.data_sizes_bytes"))
        return out
    if chunk < 1:
        out.append(_v(target, "chunk", f"chunk size {chunk} must be positive", "spec/pvc-hardware.md §2.1"))
        return out
    bits = elem_bytes * 8
    simt = target.get(f"scatter.simt_chunks.d{bits}")
    block = target.get(f"scatter.block_chunks.d{bits}")
    container = sc.sub32_container_bytes
    if elem_bytes < container and chunk > 1 and (chunk * elem_bytes) % container:
        out.append(_v(
            target, "sub32_chunk",
            f"chunk size {chunk} of {bits}-bit elements gives {chunk * elem_bytes} bytes per lane, not a multiple of "
            f"{container} bytes: 8/16-bit data carry vectors only packed into 32-bit words",
            "spec/pvc-hardware.md §2.1 (vectors > 1 only for d32/d64; IMEX-RFC 32-bit-aligned per-lane size)",
            "scatter.sub32_container_bytes"))
        return out
    max_lanes = sc.simt_max_lanes
    if lanes < 1 or lanes > max_lanes:
        out.append(_v(target, "lanes", f"{lanes} lanes in one scattered message (LSC exec size is 1..{max_lanes})",
                      "spec/pvc-hardware.md §2.1 (VISA-LSC Exec_size)", "scatter.simt_max_lanes"))
    block_mode = False
    if chunk not in simt:
        if lanes == 1 and chunk in block:
            block_mode = True
        elif lanes == 1:
            out.append(_v(
                target, "chunk",
                f"chunk size {chunk} is not legal for a single-lane d{bits} access (legal: "
                f"{', '.join(map(str, sorted(set(simt) | set(block))))})",
                "spec/pvc-hardware.md §2.1 (VISA-VERIF verifyDataShape; transposed SIMD1 block mode)",
                f"scatter.block_chunks.d{bits}"))
            return out
        else:
            hint = " (that size needs a single-lane block message)" if chunk in block else ""
            out.append(_v(
                target, "chunk",
                f"chunk size {chunk} is not legal for a {lanes}-lane d{bits} SIMT access (legal: "
                f"{', '.join(map(str, simt))}){hint}",
                "spec/pvc-hardware.md §2.1 (VISA-VERIF verifyDataShape; IMEX-VC isValidScatterSetup)",
                f"scatter.simt_chunks.d{bits}"))
            return out
    if kind == "prefetch":
        return out
    slot, vec = message_shape(target, elem_bytes, chunk)
    if block_mode:
        payload, limit = vec * slot, sc.block_max_payload_bytes
        what = f"single-lane block message of {vec} x d{slot * 8}"
    else:
        grf = target.grf.register_bytes
        payload = vec * -(-max(lanes, 1) * slot // grf) * grf
        limit = sc.max_payload_bytes
        what = f"{lanes}-lane message of {vec} x d{slot * 8} ({payload // grf} GRFs)"
    if payload > limit:
        out.append(_v(target, "payload", f"{what} has a {payload}-byte data payload, above the {limit}-byte limit",
                      "spec/pvc-hardware.md §2.1 (payload <= 8 GRFs: VISA-VERIF, IMEX-VC, IGC-PLAT)",
                      "scatter.block_max_payload_bytes" if block_mode else "scatter.max_payload_bytes"))
    return out


def lane_addresses(base: int, offsets: Any, elem_bytes: int, address_bits: int = 64) -> list[int]:
    """Byte address of every lane: ``(base + offset * elem_bytes) mod 2^address_bits`` (§2.1, §2.3)."""
    m = (1 << address_bits) - 1
    return [(base + int(o) * elem_bytes) & m for o in np.asarray(offsets).reshape(-1).tolist()]


def check_alignment(base: int, offsets: Any, mask: Any, elem_bytes: int, *, align_bytes: int | None = None,
                    address_bits: int = 64, severity: str = "error") -> list[Violation]:
    """Natural alignment of every *enabled* lane's address (§2.3; inferred for SIMT gathers, §6 item 17,
    ``target.scatter.natural_alignment``).  ``align_bytes`` defaults to ``elem_bytes``; ``severity`` should be
    ``target.scatter.severity.alignment``.  One violation lists the misaligned lanes."""
    align = align_bytes or elem_bytes
    offs, en = lanes_and_mask(offsets, mask)
    addrs = lane_addresses(base, offs, elem_bytes, address_bits)
    bad = [(i, a) for i, a in enumerate(addrs) if en[i] and a % align]
    if not bad:
        return []
    shown = ", ".join(f"lane {i} at 0x{a:x}" for i, a in bad[:4]) + (", ..." if len(bad) > 4 else "")
    return [Violation(
        f"{len(bad)} enabled lane(s) not {align}-byte aligned for {elem_bytes}-byte elements ({shown}; base 0x{base:x})",
        "spec/pvc-hardware.md §2.3 (natural alignment; §6 item 17)", severity, "alignment", "scatter.natural_alignment")]


# ------------------------------------------------------------------------------------------------- access
def lanes_and_mask(offsets: Any, mask: Any) -> tuple[np.ndarray, np.ndarray]:
    offs = np.atleast_1d(np.asarray(offsets)).reshape(-1)
    m = np.asarray(mask, dtype=bool)
    en = np.full(offs.shape, bool(m)) if m.ndim == 0 else m.reshape(-1)
    if en.shape != offs.shape:
        raise ValueError(f"mask has {en.size} lanes but offsets have {offs.size}")
    return offs, en


def resolve_lanes(space: AddressSpace, addrs: list[int], lanes: list[int], nbytes: int
                  ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Resolve every lane's ``[addr, addr + nbytes)``; return groups ``(allocation bytes, positions into
    ``lanes``, byte offsets)``, one per allocation touched.  The first lane (in lane order) that does not
    resolve raises :class:`LaneFault`.  Fast path: all lanes inside one allocation is one bounds check."""
    if not addrs:
        return []
    lo, hi = min(addrs), max(addrs) + nbytes
    try:
        alloc, off0 = space.resolve(lo, hi - lo)
    except MemoryFault:
        pass
    else:
        offs = np.asarray(addrs, dtype=np.int64) - (lo - off0)
        return [(alloc.data, np.arange(len(addrs)), offs)]
    groups: dict[int, tuple[np.ndarray, list[int], list[int]]] = {}
    for pos, (lane, addr) in enumerate(zip(lanes, addrs)):
        try:
            alloc, off = space.resolve(addr, nbytes)
        except MemoryFault as e:
            raise LaneFault(str(e), lane, addr) from None
        g = groups.setdefault(id(alloc), (alloc.data, [], []))
        g[1].append(pos)
        g[2].append(off)
    return [(d, np.asarray(p), np.asarray(o, dtype=np.int64)) for d, p, o in groups.values()]


def gather(space: AddressSpace, base: int, offsets: np.ndarray, mask: np.ndarray, chunk: int, dtype: Any,
           masked_value: str = "zero", *, previous: np.ndarray | None = None, address_bits: int = 64) -> np.ndarray:
    """Scattered load (§2.1, §2.2): result ``[lanes, chunk]`` of ``dtype``; row ``i`` holds the ``chunk``
    consecutive elements at lane ``i``'s address.  Disabled lanes do not access memory; they read 0
    (``masked_value="zero"``) or keep their row of ``previous`` (``"unchanged"``, §6 item 7)."""
    dt = np.dtype(dtype)
    offs, en = lanes_and_mask(offsets, mask)
    lanes = offs.size
    if masked_value == "zero":
        out = np.zeros((lanes, chunk), dtype=dt)
    elif masked_value == "unchanged":
        if previous is None:
            raise ValueError("masked_value='unchanged' needs the previous register contents ('previous')")
        out = np.array(previous, dtype=dt).reshape(lanes, chunk)
    else:
        raise ValueError(f"unknown masked_value '{masked_value}' (expected one of {MASKED_VALUES})")
    lane_ids = np.flatnonzero(en)
    if lane_ids.size == 0:
        return out
    nbytes = chunk * dt.itemsize
    addrs = lane_addresses(base, offs[lane_ids], dt.itemsize, address_bits)
    span = np.arange(nbytes, dtype=np.int64)
    for data, pos, boffs in resolve_lanes(space, addrs, lane_ids.tolist(), nbytes):
        raw = data[boffs[:, None] + span]
        out[lane_ids[pos]] = raw.view(dt).reshape(len(pos), chunk)
    return out


def scatter(space: AddressSpace, base: int, offsets: np.ndarray, mask: np.ndarray, chunk: int, values: np.ndarray,
            *, lane_order: str = "ascending", address_bits: int = 64) -> None:
    """Scattered store (§2.1, §2.2): ``values[i]`` (``chunk`` elements) goes to lane ``i``'s address for every
    enabled lane.  All enabled lanes are bounds-checked before any byte is written.  Bytes written by several
    lanes end with the last writer in ``lane_order`` (``target.scatter.store_lane_order``, assumed)."""
    if lane_order not in LANE_ORDERS:
        raise ValueError(f"unknown lane_order '{lane_order}' (expected one of {LANE_ORDERS})")
    offs, en = lanes_and_mask(offsets, mask)
    lanes = offs.size
    vals = np.ascontiguousarray(values)
    dt = vals.dtype
    vals = vals.reshape(lanes, chunk)
    lane_ids = np.flatnonzero(en)
    if lane_ids.size == 0:
        return
    isz = dt.itemsize
    nbytes = chunk * isz
    raw = vals.view(np.uint8).reshape(lanes, nbytes)
    addrs = lane_addresses(base, offs[lane_ids], isz, address_bits)
    span = np.arange(nbytes, dtype=np.int64)
    for data, pos, boffs in resolve_lanes(space, addrs, lane_ids.tolist(), nbytes):
        src = raw[lane_ids[pos]]
        srt = np.sort(boffs)
        if srt.size < 2 or np.all(np.diff(srt) >= nbytes):
            data[boffs[:, None] + span] = src  # disjoint lanes: order does not matter
            continue
        # Overlapping lanes: list the element writes in order, keep the last writer of every byte.
        n = pos.size
        order = np.arange(n)[::-1] if lane_order == "descending" else np.arange(n)  # pos is in lane order
        lane_idx, comp = np.meshgrid(order, np.arange(chunk), indexing="ij")  # lane-major
        if lane_order == "component_major":
            lane_idx, comp = lane_idx.T, comp.T
        lane_idx, comp = lane_idx.reshape(-1), comp.reshape(-1)
        byte_pos = (boffs[lane_idx] + comp * isz)[:, None] + np.arange(isz)
        byte_val = src.reshape(n, chunk, isz)[lane_idx, comp]
        flat_pos, flat_val = byte_pos.reshape(-1)[::-1], byte_val.reshape(-1)[::-1]
        uniq, first = np.unique(flat_pos, return_index=True)  # first in reversed order = last write
        data[uniq] = flat_val[first]


def scatter_options(target: Any) -> dict[str, Any]:
    """The target's behavioural choices for :func:`gather` / :func:`scatter` / :func:`check_alignment`."""
    sc = target.scatter
    return {"masked_value": sc.masked_load_value, "lane_order": sc.store_lane_order,
            "slm_address_bits": sc.slm_address_bits, "alignment_severity": sc.severity.alignment,
            "natural_alignment": sc.natural_alignment}
