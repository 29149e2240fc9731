"""The live step list: one row per training step, drawn only where it is on screen.

Row ``k`` is step ``k``: row 0 is the state before any step (the initial alphabet) and row ``r + 1``
is step ``r + 1`` (a merge of rank ``r``, or a Unigram seed, EM or pruning step). The columns are
those the run's trainer declares, each row made by its step's kind
(:mod:`bpe_engine.explore.step_rows`): a merge shows the count or score that chose it, a tie marked
``=``; a Unigram step its vocabulary size and likelihood. The app owns the step: the list never
moves its own cursor. A user's move
(arrows, page keys, home/end, a click) posts :class:`StepTable.Selected` with the row asked
for; the app seeks and puts the cursor there with :meth:`StepTable.select_step`, which posts
nothing -- so no echo can start a seek (the first release ping-ponged between two steps forever
on a late highlight event).

Why not a ``DataTable``: it builds, measures and keys every row when it is added. Training 5 MB
appends ~2,000 merges a second, and the UI thread spent most of its time adding rows, so keys
waited seconds behind them. Here a batch only extends a list of frozen steps; :meth:`render_line`
draws the ~40 visible rows from it (Textual's line API), so a step, a key or a tab switch costs
the same after 100 merges as after 100,000.

Numeric columns keep the width their numbers need (each batch's largest, and any row drawn) and the
flexible column takes the rest, so the numbers stay visible at any
width and after any tokenizer.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from bpe_engine.explore.step_rows import Column, column_widths, columns_for, row_of, start_row
from bpe_engine.training.registry import TrainerSpec, specs, step_kind
from bpe_engine.training.steps import TrainingStep

GAP = 2  # spaces between columns
STRIP_CACHE = 4000  # drawn rows kept (a few screens at every cursor state)


class StepTable(ScrollView, can_focus=True):
    """step · what it did · the numbers that decided it (columns per model)."""

    HELP_TITLE = "the step list"
    BINDINGS = [
        Binding("up", "cursor_up", "Up", show=False, tooltip="the previous step: the corpus shows it"),
        Binding("down", "cursor_down", "Down", show=False, tooltip="the next step: the corpus shows it"),
        Binding("pageup", "page_up", "Page up", show=False, tooltip="a page of steps back"),
        Binding("pagedown", "page_down", "Page down", show=False, tooltip="a page of steps on"),
        Binding("home", "scroll_top", "Top", show=False, tooltip="the first step"),
        Binding("end", "scroll_bottom", "Bottom", show=False, tooltip="the last step"),
    ]
    COMPONENT_CLASSES = {"step-table--header", "step-table--cursor", "step-table--even-row"}
    DEFAULT_CSS = """
    StepTable {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        &:focus {
            background-tint: $foreground 5%;
            & > .step-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
        & > .step-table--header { text-style: bold; background: $panel; color: $foreground; }
        & > .step-table--even-row { background: $surface-lighten-1 50%; }
        & > .step-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """

    class Selected(Message):
        """The user moved the cursor to step ``step`` (merges ``0..step-1`` applied)."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.byte_level = True
        first = specs()[0]
        self._columns: tuple[Column, ...] = columns_for(first)
        self._steps: list[TrainingStep] = []
        self._start: tuple[str, ...] = start_row(first, None)
        self._has_start_row = False
        self._cursor = 0
        self._widths_of: list[int] = [len(c.title) for c in self._columns]
        self._rows: dict[int, tuple[str, ...]] = {}  # formatted rows drawn so far (a row never changes)
        self._strips: dict[tuple[int, Style, tuple[int, ...]], Strip] = {}
        self._bases: dict[str, Style] = {}  # the row styles of the current CSS state, by kind
        self._shown_size = Size(0, 0)  # the size the last Resize laid the rows out for

    # -- data ------------------------------------------------------------------------------------
    @property
    def row_count(self) -> int:
        return len(self._steps) + self._has_start_row

    @property
    def cursor_row(self) -> int:
        return self._cursor

    def reset(self, *, spec: TrainerSpec | None = None, byte_level: bool, alphabet: int | None = None) -> None:
        """Empty the list for a new run (of ``spec``'s trainer; the first registered, BPE, when
        None) or a loaded tokenizer; row 0 stands for step 0."""
        spec = spec or specs()[0]
        self.byte_level = byte_level
        self._columns = columns_for(spec)
        self._steps = []
        self._has_start_row = True
        self._start = start_row(spec, alphabet)
        self._cursor = 0
        self._widths_of = [len(c.title) for c in self._columns]
        self._rows.clear()
        self._strips.clear()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._resize()

    def add_steps(self, steps: Sequence[TrainingStep]) -> None:
        """Append a batch of steps (rows keep the engine's order): no row is drawn here; the
        numeric columns widen to the batch's largest numbers (the engine measures them)."""
        if not steps:
            return
        if not self._steps:
            self._columns_of_kind(steps[0].kind)
        self._steps.extend(steps)
        for i, width in enumerate(column_widths(steps, byte_level=self.byte_level)):
            self._widths_of[i] = max(self._widths_of[i], width)
        self._resize()

    def _columns_of_kind(self, kind: str) -> None:
        """A trainer with more than one kind of step (WordPiece by count or by score) shows the
        columns of the kind its run makes: the first steps tell."""
        columns = step_kind(kind).columns
        if columns != self._columns:
            self._columns = columns
            self._start = (*self._start[:2], *("" for _ in columns[2:]))
            self._widths_of = [len(c.title) for c in columns]

    def cells(self, row: int) -> tuple[str, ...]:
        """The text of each column of ``row`` (user text made visible by the engine's labels)."""
        if row == 0:
            return self._start
        cells = self._rows.get(row)
        if cells is None:
            cells = self._rows[row] = row_of(self._steps[row - 1], byte_level=self.byte_level)
        return cells

    def _measure(self, cells: Sequence[str]) -> bool:
        """Widen the numeric columns to ``cells``; True when one grew."""
        grew = False
        for i, (column, cell) in enumerate(zip(self._columns, cells)):
            if column.numeric and len(cell) > self._widths_of[i]:
                self._widths_of[i] = len(cell)
                grew = True
        return grew

    def select_step(self, step: int) -> None:
        """Put the cursor on step ``step`` (the app's step) and keep it in view; posts nothing."""
        if step >= self.row_count or step < 0:
            return
        if step != self._cursor:
            self._cursor = step
            self.refresh()
        body = max(1, self.scrollable_content_region.height - 1)  # rows under the header
        top = round(self.scroll_y)
        if step < top:
            self.scroll_to(y=step, animate=False, immediate=True)
        elif step >= top + body:
            self.scroll_to(y=step - body + 1, animate=False, immediate=True)

    def _resize(self) -> None:
        """Fit the scrollable height to the rows (+ the header; never wider than the view).

        While a run streams in, a batch only lengthens a list whose scrollbar is already shown: the
        scrollbar is updated in place instead of setting ``virtual_size`` (a reactive that lays out
        the whole screen, ten times a second, which keys pressed meanwhile waited behind).
        """
        size = Size(0, self.row_count + 1)
        old = self.virtual_size
        body = self.scrollable_content_region.height
        grows_past = old.height > body and size.height > old.height and old.width == size.width
        scroll_update = getattr(self, "_scroll_update", None)  # Textual's own scrollbar refresh
        if grows_past and body > 0 and self.show_vertical_scrollbar and scroll_update is not None:
            self.set_reactive(StepTable.virtual_size, size)
            scroll_update(size)
        else:
            self.virtual_size = size
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        """Lay the rows out for a new size. Textual also sends Resize when the list is shown again
        at the size it had (each switch back to Train): its lines are still right, and redrawing
        them cost a second frame right after the one that showed the tab."""
        if event.size == self._shown_size:
            return
        self._shown_size = event.size
        self._resize()
        self.select_step(self._cursor)

    # -- drawing ---------------------------------------------------------------------------------
    def _widths(self) -> tuple[int, ...]:
        """Each column's width: the numbers' widths, the step numbers', and the rest for the flexible one."""
        widths = list(self._widths_of)
        widths[0] = max(1, len(f"{max(self.row_count - 1, 0):,}"))
        fixed = sum(w for c, w in zip(self._columns, widths) if not c.flexible) + GAP * (len(widths) - 1) + 2
        for i, column in enumerate(self._columns):
            if column.flexible:
                widths[i] = max(5, self.scrollable_content_region.width - fixed)
        return tuple(widths)

    def _line(self, cells: Sequence[str], base: Style, styles: Sequence[str] = ()) -> Strip:
        parts: list[Text | str] = [" "]
        for i, (column, cell, width) in enumerate(zip(self._columns, cells, self._widths())):
            text = Text(cell, style=styles[i] if i < len(styles) else "", no_wrap=True, end="")
            if column.numeric:
                text.align("right", width)
            else:
                text.truncate(width, overflow="ellipsis", pad=True)
            parts.extend((text, " " * GAP) if i < len(self._columns) - 1 else (text,))
        parts.append(" ")
        line = Text.assemble(*parts, no_wrap=True, end="")
        segments = Segment.apply_style(line.render(self.app.console), base)
        width = self.scrollable_content_region.width
        return Strip(segments).adjust_cell_length(width, base).simplify()

    def _base(self, kind: str) -> Style:
        """The style a row of ``kind`` is drawn in (computed once per CSS state: ``rich_style``
        walks the ancestors)."""
        base = self._bases.get(kind)
        if base is None:
            if kind == "header":
                base = self.get_component_rich_style("step-table--header")
            elif kind == "odd":
                base = self.rich_style
            else:
                base = self._base("odd") + self.get_component_rich_style("step-table--even-row" if kind == "even" else "step-table--cursor")
            self._bases[kind] = base
        return base

    def render_line(self, y: int) -> Strip:
        row = y - 1 + round(self.scroll_y) if y else -1  # -1: the header
        if row >= self.row_count:
            return Strip.blank(self.scrollable_content_region.width, self._base("odd"))
        if row < 0:
            kind = "header"
        elif row == self._cursor:
            kind = "cursor"
        else:
            kind = ("even", "odd")[row % 2]
        base = self._base(kind)
        key = (row, base, (*self._widths(), self.scrollable_content_region.width))
        strip = self._strips.get(key)
        if strip is None:  # a step or a focus change redraws the whole list: rows drawn before come from here
            if row < 0:
                strip = self._line([c.title for c in self._columns], base)
            else:
                cells = self.cells(row)
                if self._measure(cells):  # a wider number than measured: lay every row out again
                    self._strips.clear()
                    self.refresh()
                dim = ("dim",) if row else ("dim", "italic dim")
                strip = self._line(cells, base, dim).apply_meta({"row": row})
            if len(self._strips) > STRIP_CACHE:
                self._strips.clear()
            self._strips[key] = strip
        return strip

    def notify_style_update(self) -> None:
        """Focus (a tint and the cursor's colours) or a theme changed the row styles. Drawn rows
        stay cached under the styles they were drawn in, so showing Train again, which gives the
        list focus, draws no row anew."""
        super().notify_style_update()
        self._bases.clear()

    # -- user moves: ask the app, never move the cursor here ------------------------------------
    def _ask(self, row: int) -> None:
        if self.row_count:
            self.post_message(self.Selected(max(0, min(row, self.row_count - 1))))

    def action_cursor_down(self) -> None:
        self._ask(self._cursor + 1)

    def action_cursor_up(self) -> None:
        self._ask(self._cursor - 1)

    def action_page_down(self) -> None:
        self._ask(self._cursor + max(1, self.scrollable_content_region.height - 2))

    def action_page_up(self) -> None:
        self._ask(self._cursor - max(1, self.scrollable_content_region.height - 2))

    def action_scroll_top(self) -> None:
        self._ask(0)

    def action_scroll_bottom(self) -> None:
        self._ask(self.row_count - 1)

    def on_click(self, event: events.Click) -> None:
        row = event.style.meta.get("row")
        if isinstance(row, int) and row >= 0:
            event.stop()
            self._ask(row)
