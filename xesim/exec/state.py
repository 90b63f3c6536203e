"""The state of the executing kernel: its launch (grid, block, level), the executing workgroup and its shared local
memory, the instances on the axis and their ids, the active mask, and the yield points a scheduler fills in
(spec/programs-and-runner.md §3.2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xesim.exec.faults import ExecFault
from xesim.hw.memory import AddressSpace


def _sequential_nbarrier_arrive(bid: int, participants: int, op: Any) -> None:
    if participants > 1:
        raise ExecFault(f"named barrier {bid} has {participants} participants but only one instance runs")


def _sequential_nbarrier_wait(bid: int, op: Any) -> None:
    return None


class KernelState:
    """Ids of the executing kernel instance, read by the gpu id ops (spec/programs-and-runner.md §3.2)."""

    def __init__(self) -> None:
        self.grid = (1, 1, 1)
        self.block = (1, 1, 1)
        self.block_id = (0, 0, 0)
        self.thread_id = (0, 0, 0)
        self.subgroup_id = 0
        # The instance axis of the executing code (xesim/exec/axis.py): a kernel value is uniform or a Varying of
        # ``slots`` items, one per instance the level forms -- a subgroup (SG, VC), a workgroup (WG), a work-item
        # (lane level: ``group`` = 16 slots per subgroup) -- for ``groups`` subgroups (or workgroups) at once.
        self.slots = 16
        self.group = 16  # slots per subgroup: the subgroup size at lane level, 1 when a slot is a whole subgroup
        self.groups = 1
        self.mask: tuple[int, ...] = ()  # the active slots
        self.full: tuple[int, ...] = ()  # the slots launched (a partial last subgroup has fewer lanes)
        self.slot: int | None = 0  # the slot an op executes for one at a time (None: all active), for messages
        # the workgroup of a batch (bank of shared local memory) an op executes for (xesim/exec/axis.py run_per_bank)
        self.bank: int | None = None
        self.group_ids: Any = None  # the groups' (block ids [G, 3], subgroup ids [G], first work-items [G])
        self.num_subgroups = 1
        self.subgroup_size = 16
        self.slm: AddressSpace | None = None
        self.slm_allocs: dict[int, Any] = {}
        self.kernel_name = ""
        self.level = ""
        self.active = False
        self.printf_buffer: list[str] = []
        # yield points, replaced by the launcher's Scheduler while a workgroup runs as coroutines
        self.barrier: Callable[[Any], None] = lambda op: None
        self.yield_point: Callable[[Any], None] = lambda op: None
        self.nbarrier_arrive: Callable[[int, int, Any], None] = _sequential_nbarrier_arrive
        self.nbarrier_wait: Callable[[int, Any], None] = _sequential_nbarrier_wait
        self.lockstep: Any = None  # the running batch's synchronisation (xesim/exec/lockstep.py)

    def context(self) -> str:
        if not self.active:
            return ""
        parts = [f"kernel {self.kernel_name}", f"workgroup ({', '.join(map(str, self.block_id))})",
                 f"subgroup {self.subgroup_id}"]
        if self.level == "lane":
            if self.slot is not None:
                parts.append(f"lane {self.slot}")
            elif self.mask != self.full:
                parts.append(f"active lanes {list(self.mask)}")
        return ", ".join(parts)
