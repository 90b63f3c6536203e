"""Register file (GRF) model of one hardware thread (ARCHITECTURE.md "Register file"; spec/pvc-hardware.md §5).

A thread owns ``grf.count`` registers of ``grf.register_bytes`` bytes (PVC: 128 x 64 B; ``grf.count_large`` = 256
in large-GRF mode, §5).  :class:`RegisterFile` places values (keyed by anything hashable, e.g. an SSA value) in
whole registers first-fit, holds their raw bytes, tracks live / peak register use and records spills, and in
checked mode compares the bytes with an expected register image (:meth:`RegisterFile.check`).

Register images (uint8 bytes, element byte order little-endian as in the GRF) of the three hardware layouts:

* :func:`image_of_block_load` — a 2D block load's image (§1.5) built from XeGPU's logical value
  (:func:`xesim.hw.block2d.image_to_values`' shapes), padding 0; equal to :func:`xesim.hw.block2d.load_image`.
* :func:`image_of_dpas_operand` — DPAS operands A (Src2), B (Src1, VNNI) and C/D (Src0/Dst) (§3.3).
* :func:`image_of_simt_fragments` — per-lane fragments ``[lanes, k]``: lane ``i``'s component ``k`` at slot
  ``k·lanes + i`` in element units (§1.6; ARCHITECTURE.md "Register file"; :func:`xesim.hw.layout.image_slot`).

Each builder has an ``*_offsets`` twin giving the image byte offset of every logical element; with a
:class:`Placement` :func:`ownership` turns that into (register, byte in register) — the map the trace viewer
and the interpreter use.

Integration (later): the interpreter allocates a value when it is defined (``allocate(value, image.size,
label=op_name)``), ``write``\\ s its image, ``check``\\ s it on every read in checked mode and ``free``\\ s it at last
use; ``peak_registers`` / ``spills`` feed the run report.  This module holds no IR knowledge (plain ints,
numpy arrays and a :class:`~xesim.hw.params.Target`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from xesim.hw.block2d import Block, geometry
from xesim.hw.params import Target

__all__ = [
    "Mismatch", "Placement", "RegisterFile", "Spill", "block_load_offsets", "dpas_operand_offsets",
    "image_of_block_load", "image_of_dpas_operand", "image_of_simt_fragments", "ownership", "simt_offsets",
]


# --------------------------------------------------------------------------------------------------- records
@dataclass(frozen=True)
class Placement:
    """Where a value lives: byte ``offset`` from register 0 (a multiple of the register size unless allocated
    with a smaller alignment), its size ``nbytes`` and the ``register_bytes`` of the file.  Offsets at or past
    ``count * register_bytes`` are in the overflow (spill) area: ``spilled`` is True."""

    key: Hashable
    offset: int
    nbytes: int
    register_bytes: int
    spilled: bool
    label: str = ""

    @property
    def first_register(self) -> int:
        """Index of the first register (overflow registers continue the numbering past ``count - 1``)."""
        return self.offset // self.register_bytes

    @property
    def registers(self) -> range:
        """The registers the value touches."""
        rb = self.register_bytes
        return range(self.offset // rb, -(-(self.offset + self.nbytes) // rb))


@dataclass(frozen=True)
class Spill:
    """An allocation that did not fit in the GRF (the op still runs; its value lives in the overflow area)."""

    key: Hashable
    label: str
    nbytes: int
    live_registers: int  # registers in use (GRF + overflow) before the allocation


@dataclass(frozen=True)
class Mismatch:
    """First difference between the GRF bytes of a value and the expected image (checked mode): ``register``,
    the byte range ``[byte_start, byte_end)`` within that register (the run of differing bytes starting at the
    first difference, cut at the register end), and the expected / actual bytes of that range."""

    key: Hashable
    label: str
    register: int
    byte_start: int
    byte_end: int
    expected: bytes
    actual: bytes

    def __str__(self) -> str:
        name = self.label or repr(self.key)
        return (f"register file mismatch for {name}: r{self.register} bytes {self.byte_start}..{self.byte_end - 1}"
                f" hold {self.actual.hex(' ')}, expected {self.expected.hex(' ')}")


def _raw_bytes(data: np.ndarray) -> np.ndarray:
    """The raw bytes (uint8, native = little-endian order) of an array."""
    return np.ascontiguousarray(data).reshape(-1).view(np.uint8)


# --------------------------------------------------------------------------------------------------- register file
class RegisterFile:
    """One hardware thread's GRF (§5): ``count`` registers of ``register_bytes`` bytes.

    * :meth:`allocate` places a value first-fit; by default values start on a register boundary (§3.3: DPAS
      dst/src0/src1 are GRF aligned; §1.5: every block-load block starts on a fresh GRF).  When no free range is
      left the allocation does not fail: it is recorded in :attr:`spills` and placed in an overflow area past the
      last register (numbered from ``count`` on), so the program still runs.
    * :meth:`free` releases a value's bytes; the bytes keep their stale contents (registers are not cleared),
      so a missing :meth:`write` shows up in :meth:`check`.
    * :attr:`live_registers` counts registers holding at least one byte of a live value (GRF and overflow);
      :attr:`peak_registers` is its maximum and :attr:`peak_label` the label of the allocation that reached it.
    """

    def __init__(self, target: Target, large_grf: bool = False) -> None:
        self.register_bytes: int = int(target.grf.register_bytes)
        self.count: int = int(target.grf.count_large if large_grf else target.grf.count)
        self.large_grf = large_grf
        self._grf_bytes = self.count * self.register_bytes
        self._data = np.zeros(self._grf_bytes, dtype=np.uint8)
        self._used = np.zeros(self._grf_bytes, dtype=bool)
        self._places: dict[Hashable, Placement] = {}
        self.live_registers: int = 0
        self.peak_registers: int = 0
        self.peak_label: str = ""
        self.spills: list[Spill] = []

    # ----------------------------------------------------------------------------------------- allocation
    def _grow(self, nbytes: int) -> None:
        if nbytes > self._data.size:
            extra = nbytes - self._data.size
            self._data = np.concatenate([self._data, np.zeros(extra, dtype=np.uint8)])
            self._used = np.concatenate([self._used, np.zeros(extra, dtype=bool)])

    def _first_fit(self, lo: int, hi: int, nbytes: int, align: int) -> int | None:
        """Lowest ``align``-aligned start in [lo, hi - nbytes] whose ``nbytes`` bytes are all free."""
        if hi - lo < nbytes:
            return None
        cs = np.concatenate([[0], np.cumsum(self._used[lo:hi], dtype=np.int64)])
        starts = np.arange(0, hi - lo - nbytes + 1, align)
        free = cs[starts + nbytes] == cs[starts]
        if not free.any():
            return None
        return lo + int(starts[int(np.argmax(free))])

    def _count_live(self) -> int:
        used = self._used
        n = -(-used.size // self.register_bytes) * self.register_bytes
        if n != used.size:
            used = np.concatenate([used, np.zeros(n - used.size, dtype=bool)])
        return int(used.reshape(-1, self.register_bytes).any(axis=1).sum())

    def allocate(self, key: Hashable, nbytes: int, align_bytes: int | None = None, label: str = "") -> Placement:
        """Place ``nbytes`` bytes for ``key`` first-fit at an ``align_bytes`` boundary (default: a register
        boundary).  A full file records a :class:`Spill` and places the value in the overflow area instead."""
        if key in self._places:
            raise ValueError(f"register file: {label or key!r} is already allocated")
        if nbytes <= 0:
            raise ValueError(f"register file: allocation of {nbytes} bytes")
        align = self.register_bytes if align_bytes is None else int(align_bytes)
        if align <= 0:
            raise ValueError(f"register file: alignment {align}")
        live_before = self.live_registers
        offset = self._first_fit(0, self._grf_bytes, nbytes, align)
        spilled = offset is None
        if offset is None:
            # overflow area: starts at the end of the GRF (a register boundary), grows as needed
            top = -(-self._data.size // align) * align + nbytes
            self._grow(top)
            offset = self._first_fit(self._grf_bytes, self._data.size, nbytes, align)
            assert offset is not None
            self.spills.append(Spill(key, label, nbytes, live_before))
        self._used[offset:offset + nbytes] = True
        place = Placement(key, offset, nbytes, self.register_bytes, spilled, label)
        self._places[key] = place
        self.live_registers = self._count_live()
        if self.live_registers > self.peak_registers:
            self.peak_registers = self.live_registers
            self.peak_label = label
        return place

    def free(self, key: Hashable) -> None:
        """Release ``key``'s bytes (contents are left as they are)."""
        place = self.placement(key)
        del self._places[key]
        self._used[place.offset:place.offset + place.nbytes] = False
        self.live_registers = self._count_live()

    def placement(self, key: Hashable) -> Placement:
        try:
            return self._places[key]
        except KeyError:
            raise KeyError(f"register file: {key!r} is not allocated") from None

    def __contains__(self, key: Hashable) -> bool:
        return key in self._places

    # ----------------------------------------------------------------------------------------- contents
    def write(self, key: Hashable, data: np.ndarray) -> None:
        """Store the raw bytes of ``data`` (a register image, any dtype) at ``key``'s placement; the image may be
        shorter than the allocation (the rest is left as it is), never longer."""
        place = self.placement(key)
        raw = _raw_bytes(data)
        if raw.size > place.nbytes:
            raise ValueError(f"register file: image of {raw.size} bytes for {place.label or key!r} "
                             f"allocated with {place.nbytes} bytes")
        self._data[place.offset:place.offset + raw.size] = raw

    def read(self, key: Hashable) -> np.ndarray:
        """A copy of ``key``'s bytes (uint8, length = allocated size)."""
        place = self.placement(key)
        return self._data[place.offset:place.offset + place.nbytes].copy()

    def check(self, key: Hashable, expected: np.ndarray) -> Mismatch | None:
        """Checked mode: compare the bytes at ``key`` with the raw bytes of ``expected`` (which may be shorter
        than the allocation; only its length is compared).  Returns None when equal, else the first
        :class:`Mismatch`."""
        place = self.placement(key)
        exp = _raw_bytes(expected)
        if exp.size > place.nbytes:
            raise ValueError(f"register file: expected image of {exp.size} bytes for {place.label or key!r} "
                             f"allocated with {place.nbytes} bytes")
        act = self._data[place.offset:place.offset + exp.size]
        diff = np.nonzero(act != exp)[0]
        if diff.size == 0:
            return None
        first = int(diff[0])
        rb = self.register_bytes
        reg, start = divmod(place.offset + first, rb)
        limit = min(exp.size, (reg + 1) * rb - place.offset)  # end of this register, in image bytes
        end = first
        while end < limit and act[end] != exp[end]:
            end += 1
        return Mismatch(key, place.label, reg, start, start + end - first,
                        exp[first:end].tobytes(), act[first:end].tobytes())

    def ownership(self, key: Hashable, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(register, byte in register) of image byte ``offsets`` of ``key`` (see :func:`ownership`)."""
        return ownership(self.placement(key), offsets)


def ownership(place: Placement, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which register and which byte in it hold the image bytes ``offsets`` (e.g. from
    :func:`dpas_operand_offsets`: the first byte of every element) of a value placed at ``place``."""
    return np.divmod(place.offset + np.asarray(offsets, dtype=np.int64), place.register_bytes)


# --------------------------------------------------------------------------------------------------- images
def _scatter_image(values: np.ndarray, offsets: np.ndarray, nbytes: int) -> np.ndarray:
    """uint8 image of ``nbytes`` bytes, zero except the elements of ``values`` at byte ``offsets``."""
    s = values.dtype.itemsize
    img = np.zeros(nbytes, dtype=np.uint8)
    src = _raw_bytes(values).reshape(-1, s)
    img[(offsets.reshape(-1, 1) + np.arange(s)).reshape(-1)] = src.reshape(-1)
    return img


def block_load_offsets(block: Block, register_bytes: int) -> tuple[np.ndarray, int]:
    """(byte offset in the §1.5 image of every element of the logical value, image size in bytes).

    The logical value has :func:`xesim.hw.block2d.image_to_values`' shape: plain ``[B, H, W]``
    (``reg[base + y*rowPitch + x]``), transpose ``[B, W, H]`` (``reg[base + x*rowPitch + y]``), VNNI
    ``[B, ceil(H/K), W, K]`` (``reg[base + r*rowPitch + x*K + i]``); ``base = b * blockPitch``."""
    g = geometry(block, register_bytes)
    b, w, h, k, s = block.count, block.width, block.height, block.k, block.elem_bytes
    bb = np.arange(b).reshape(-1, 1, 1) * g.block_pitch
    if block.transpose:
        pos = bb + np.arange(w).reshape(1, -1, 1) * g.row_pitch + np.arange(h).reshape(1, 1, -1)
    elif block.vnni:
        pos = (bb[..., None] + np.arange(g.rows).reshape(1, -1, 1, 1) * g.row_pitch
               + np.arange(w).reshape(1, 1, -1, 1) * k + np.arange(k).reshape(1, 1, 1, -1))
    else:
        pos = bb + np.arange(h).reshape(1, -1, 1) * g.row_pitch + np.arange(w).reshape(1, 1, -1)
    return pos.astype(np.int64) * s, g.total(b) * s


def image_of_block_load(values: np.ndarray, block: Block, target: Target) -> np.ndarray:
    """The §1.5 GRF image (uint8) of a 2D block load whose logical value is ``values`` (shape as
    :func:`block_load_offsets`; out-of-bounds elements already 0, §1.4).  Padding is 0."""
    values = np.asarray(values)
    if values.dtype.itemsize != block.elem_bytes:
        raise ValueError(f"values of {values.dtype} for a block of {block.elem_bytes}-byte elements")
    offsets, nbytes = block_load_offsets(block, int(target.grf.register_bytes))
    if values.size != offsets.size:
        raise ValueError(f"block value of shape {values.shape} does not match the block's {offsets.shape}")
    return _scatter_image(values, offsets, nbytes)


_ROLES = {"a": "a", "src2": "a", "b": "b", "src1": "b", "c": "c", "src0": "c", "d": "c", "dst": "c"}


def dpas_operand_offsets(role: str, shape: tuple[int, int], elem_bytes: int, target: Target,
                         ops_per_channel: int | None = None) -> tuple[np.ndarray, int]:
    """(byte offset of every element of a DPAS operand matrix in its register image, image size) (§3.3).

    * ``"c"``/``"d"`` (Src0/Dst, M x N, 32-bit types only): row-major, one row per repeat, each row one GRF —
      element (r, j) at ``r*register_bytes + 4j``.  16-bit accumulators are not modelled (§3.3 does not state
      their register layout).
    * ``"a"`` (Src2, M x K): row-major, each row ``systolic_depth`` dwords; within a dword ``OPS_PER_CHAN``
      consecutive K elements, lower K in lower bits — element (r, k) at ``r*4*SD + 4*(k // ops) + s*(k % ops)``
      (two rows per 64-byte register on PVC).
    * ``"b"`` (Src1, K x N, VNNI): column j is dword j of successive registers, each dword packing ``ops``
      consecutive K rows, lowest row in the lowest bits — element (k, j) at
      ``(k // ops)*register_bytes + 4j + s*(k % ops)``.

    ``ops_per_channel`` defaults to ``4 // elem_bytes`` (elements per dword; §3.1: tf32 1, f16/bf16 2, int8 4);
    sub-byte element types are not modelled.
    """
    op = _ROLES.get(role.lower())
    if op is None:
        raise ValueError(f"unknown DPAS operand role {role!r}")
    if elem_bytes not in (1, 2, 4):
        raise ValueError(f"DPAS operands of {elem_bytes}-byte elements are not modelled")
    ops = 4 // elem_bytes if ops_per_channel is None else int(ops_per_channel)
    if ops * elem_bytes != 4:
        raise ValueError(f"ops_per_channel {ops} does not fill a dword with {elem_bytes}-byte elements")
    rb, sd, n = int(target.grf.register_bytes), int(target.dpas.systolic_depth), int(target.dpas.exec_size)
    rows, cols = shape
    r = np.arange(rows).reshape(-1, 1)
    c = np.arange(cols).reshape(1, -1)
    if op == "c":
        if elem_bytes != 4:
            raise ValueError("DPAS C/D register layout is modelled for 32-bit types only (§3.3)")
        if cols != n or 4 * n > rb:
            raise ValueError(f"DPAS C/D has {cols} columns; exec size is {n}")
        return (r * rb + 4 * c).astype(np.int64), rows * rb
    if op == "a":
        if cols != sd * ops:
            raise ValueError(f"DPAS A has {cols} columns; K = systolic depth {sd} x ops per channel {ops}")
        row_bytes = 4 * sd
        return (r * row_bytes + 4 * (c // ops) + elem_bytes * (c % ops)).astype(np.int64), rows * row_bytes
    if cols != n or 4 * n > rb:
        raise ValueError(f"DPAS B has {cols} columns; exec size is {n}")
    if rows % ops:
        raise ValueError(f"DPAS B has {rows} rows, not a multiple of ops per channel {ops}")
    return (((r // ops) * rb) + 4 * c + elem_bytes * (r % ops)).astype(np.int64), (rows // ops) * rb


def image_of_dpas_operand(role: str, matrix: np.ndarray, target: Target,
                          ops_per_channel: int | None = None) -> np.ndarray:
    """The register image (uint8) of DPAS operand ``role`` ("a", "b", "c" or "d") holding ``matrix`` (a 2-D
    array whose dtype gives the element size), laid out as :func:`dpas_operand_offsets` (§3.3)."""
    matrix = np.asarray(matrix)
    if matrix.ndim != 2:
        raise ValueError(f"DPAS operand must be a matrix, got shape {matrix.shape}")
    offsets, nbytes = dpas_operand_offsets(role, matrix.shape, matrix.dtype.itemsize, target, ops_per_channel)
    return _scatter_image(matrix, offsets, nbytes)


def simt_offsets(lanes: int, components: int, elem_bytes: int) -> np.ndarray:
    """Byte offset of lane ``i``'s component ``k`` (array ``[lanes, components]``): slot ``k·lanes + i`` in element
    units (§1.6; :func:`xesim.hw.layout.image_slot`)."""
    i = np.arange(lanes).reshape(-1, 1)
    k = np.arange(components).reshape(1, -1)
    return ((k * lanes + i) * elem_bytes).astype(np.int64)


def image_of_simt_fragments(frags: np.ndarray) -> np.ndarray:
    """Register image (uint8) of per-lane fragments ``[lanes, k]``: lane ``i``'s component ``k`` at element slot
    ``k·lanes + i`` (§1.6)."""
    frags = np.asarray(frags)
    if frags.ndim != 2:
        raise ValueError(f"SIMT fragments must be [lanes, components], got shape {frags.shape}")
    lanes, comps = frags.shape
    return _scatter_image(frags, simt_offsets(lanes, comps, frags.dtype.itemsize), frags.size * frags.dtype.itemsize)
