"""``xesim trace view OUT.xetrace``: the interactive terminal trace viewer (issue 28 item 2), built with textual.

Layout: on the left a tree of launches, workgroups and subgroups and the selected subgroup's op list (one line per
executed op, nested ops indented); on the right the workgroup's timeline (:func:`xesim.trace.panes.timeline`) and
four panes, one at a time: the op, the register file, memory, DPAS (:mod:`xesim.trace.panes`).  Everything works
from the keyboard (``?`` lists the keys); the layout fits 80x24 and uses the width of a wide terminal.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static, TabbedContent, TabPane, Tree
from textual.widgets.option_list import Option

from xesim.trace import analysis as A  # noqa: N812
from xesim.trace import panes as P  # noqa: N812
from xesim.trace.format import Trace

HELP = """\
xesim trace viewer — keys

  up/down, j/k     previous / next op of the subgroup (op list: event
                   number, source line, op)
  enter            in the tree: show that subgroup
  tab / shift+tab  move the focus: tree, op list, panes
  1 2 3 4          op pane, registers, memory, DPAS
  m                memory pane: the next allocation
  /                search: an op name, a location (:LINE or file:LINE) or
                   a value (a number); enter jumps to the next match,
                   n to the one after
  t                hide or show the tree
  ?                this help          q  quit

Panes: the op with its source line and caret, the active lanes and its
values (per-lane fragments one row per lane); the register file after
the op (which value each byte holds, the elements per register, the bytes,
the launch's peak); memory (which workgroup wrote each element; the 2D
block window with its out-of-bounds part); the DPAS operands and result.
Timeline: L load, S store, D dpas, | barrier, a/w named-barrier arrive/
wait, : scf; ops of all subgroups of the workgroup aligned at barriers.

Press escape, q or ? to close this help."""


class HelpScreen(ModalScreen):
    """The keyboard help."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help { width: 80; max-width: 100%; height: 28; max-height: 100%; border: round $accent;
            background: $surface; padding: 0 1; }
    #help-text { width: 100%; height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield VerticalScroll(Static(HELP, id="help-text"), id="help")


class TraceViewer(App):
    """The viewer app for one loaded trace."""

    TITLE = "xesim trace"
    CSS = """
    #left { width: 34; min-width: 24; }
    #tree { height: 40%; border: round $primary-darken-2; }
    #ops { height: 1fr; border: round $primary-darken-2; }
    #right { width: 1fr; }
    #status { height: 1; background: $primary-darken-3; }
    #timeline-box { height: auto; max-height: 7; border: round $primary-darken-2; }
    #search { dock: bottom; display: none; }
    #search.shown { display: block; }
    #panes { height: 1fr; }
    #panes ContentSwitcher { height: 1fr; }
    #panes TabPane { height: 1fr; padding: 0; }
    .pane { height: 1fr; overflow-x: auto; }
    .pane Static { width: auto; }
    #timeline { width: auto; }
    """
    BINDINGS = [
        Binding("q", "quit", "quit"),
        Binding("question_mark", "help", "help"),
        Binding("slash", "search", "search"),
        Binding("n", "search_next", "next match", show=False),
        Binding("1", "pane('op')", "op"),
        Binding("2", "pane('regs')", "registers"),
        Binding("3", "pane('mem')", "memory"),
        Binding("4", "pane('dpas')", "DPAS"),
        Binding("m", "next_alloc", "allocation", show=False),
        Binding("t", "toggle_tree", "tree", show=False),
        Binding("j", "move(1)", "", show=False),
        Binding("k", "move(-1)", "", show=False),
    ]

    def __init__(self, trace: Trace) -> None:
        super().__init__()
        self.trace = trace
        self.instances = A.instances(trace)
        self.instance: A.Instance | None = None
        self.events: list[int] = []
        self.event: int | None = None
        self.alloc: int | None = None
        self.query_text = ""

    # ------------------------------------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="status")
        with Horizontal():
            with Vertical(id="left"):
                yield self._tree()
                yield OptionList(id="ops")
            with Vertical(id="right"):
                with VerticalScroll(id="timeline-box"):
                    yield Static(id="timeline")
                with TabbedContent(id="panes", initial="op"):
                    for pane, title in (("op", "1 Op"), ("regs", "2 Registers"), ("mem", "3 Memory"),
                                        ("dpas", "4 DPAS")):
                        with TabPane(title, id=pane):
                            with VerticalScroll(classes="pane"):
                                yield Static(id=f"{pane}-text")
        yield Input(placeholder="search: op name, :LINE, or a number (a value); enter", id="search")
        yield Footer()

    def _title(self) -> str:
        tr = self.trace
        extra = "  [TRUNCATED]" if tr.meta.get("truncated") else ""
        extra += "  [run ended with an error]" if tr.meta.get("error") else ""
        return (f" {tr.path}  {tr.meta.get('program') or ''}  {len(tr.events)} op executions, "
                f"{len(tr.launches)} launch(es){extra}   ? help")

    def _tree(self) -> Tree:
        tr = self.trace
        tree: Tree = Tree("trace", id="tree")
        tree.root.expand()
        la = tr.launches
        by_launch: dict[int, dict[tuple, list[A.Instance]]] = {}
        for inst in self.instances:
            by_launch.setdefault(inst[0], {}).setdefault(inst[1:4], []).append(inst)
        for L in range(len(la)):
            recorded = by_launch.get(L, {})
            kernel = str(la["kernel"][L]).split("::")[-1]
            node = tree.root.add(f"launch {L} {kernel}" + ("" if recorded else " (not recorded)"),
                                 expand=L == min(by_launch, default=-1))
            for wg, insts in recorded.items():
                wnode = node.add(f"wg ({wg[0]},{wg[1]},{wg[2]})", expand=len(recorded) == 1)
                for inst in insts:
                    n = A.instance_events(tr, inst).size
                    wnode.add_leaf(f"sg {inst[4]}  ({n} ops)", data=inst)
        return tree

    def on_resize(self) -> None:
        # a wider op list on a wide terminal; at 80 columns the panes keep 46 (they scroll sideways)
        self.query_one("#left").styles.width = 38 if self.size.width >= 100 else 34

    def on_mount(self) -> None:
        if self.instances:
            self.show_instance(self.instances[0])
        else:
            self.query_one("#op-text", Static).update("nothing was recorded (see the filters in the trace's options)")
        self.query_one("#ops", OptionList).focus()

    # ------------------------------------------------------------------------------------------- selection
    def show_instance(self, inst: A.Instance, event: int | None = None) -> None:
        """List the ops of subgroup ``inst`` and select ``event`` (default: its first)."""
        tr = self.trace
        self.instance = inst
        self.events = A.instance_events(tr, inst).tolist()
        ol = self.query_one("#ops", OptionList)
        ol.clear_options()
        depth, names = tr.events["depth"], tr.ops["name"]
        lines = tr.ops["line"]
        w = len(str(self.events[-1])) if self.events else 1
        ol.add_options([Option(f"{e:>{w}} {lines[tr.events['op'][e]]:>3} {' ' * int(depth[e])}"
                               f"{names[tr.events['op'][e]]}", id=str(e)) for e in self.events])
        self.alloc = None
        target = event if event is not None and event in self.events else (self.events[0] if self.events else None)
        if target is not None:
            ol.highlighted = self.events.index(target)
            self.select(target)

    def select(self, event: int) -> None:
        """Show ``event`` in the timeline and the panes."""
        self.event = event
        tr = self.trace
        self.query_one("#timeline", Static).update(P.timeline(tr, event, width=max(20, self.size.width - 44)))
        self.query_one("#op-text", Static).update(P.op_pane(tr, event))
        self.query_one("#regs-text", Static).update(P.register_pane(tr, event))
        self.query_one("#mem-text", Static).update(P.memory_pane(tr, event, self.alloc))
        self.query_one("#dpas-text", Static).update(P.dpas_pane(tr, event))

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        if message.option.id is not None and int(message.option.id) != self.event:
            self.select(int(message.option.id))

    def on_tree_node_selected(self, message: Tree.NodeSelected) -> None:
        data: Any = message.node.data
        if data is not None:
            self.show_instance(data)
            self.query_one("#ops", OptionList).focus()

    # ------------------------------------------------------------------------------------------- actions
    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_pane(self, pane: str) -> None:
        self.query_one("#panes", TabbedContent).active = pane

    def action_move(self, step: int) -> None:
        ol = self.query_one("#ops", OptionList)
        if self.events:
            ol.highlighted = max(0, min(len(self.events) - 1, (ol.highlighted or 0) + step))

    def action_toggle_tree(self) -> None:
        tree = self.query_one("#tree", Tree)
        tree.display = not tree.display

    def action_next_alloc(self) -> None:
        allocs = P.written_allocs(self.trace)
        if not allocs or self.event is None:
            return
        cur = self.alloc if self.alloc is not None else -1
        later = [a for a in allocs if a > cur]
        self.alloc = later[0] if later else allocs[0]
        self.query_one("#mem-text", Static).update(P.memory_pane(self.trace, self.event, self.alloc))
        self.action_pane("mem")

    def action_search(self) -> None:
        box = self.query_one("#search", Input)
        box.add_class("shown")
        box.value = ""
        box.focus()

    def on_input_submitted(self, message: Input.Submitted) -> None:
        box = self.query_one("#search", Input)
        box.remove_class("shown")
        self.query_text = message.value
        self.query_one("#ops", OptionList).focus()
        self.action_search_next()

    def action_search_next(self) -> None:
        if not self.query_text:
            return
        found = A.search(self.trace, self.query_text, self.event if self.event is not None else -1)
        if found is None:
            self.notify(f"no op matches {self.query_text!r}", severity="warning")
            return
        inst = P.instance_of(self.trace, found)
        if inst != self.instance:
            self.show_instance(inst, found)
        else:
            self.query_one("#ops", OptionList).highlighted = self.events.index(found)
            self.select(found)

    def key_escape(self) -> None:
        box = self.query_one("#search", Input)
        if box.has_class("shown"):
            box.remove_class("shown")
            self.query_one("#ops", OptionList).focus()
