"""`score stats` at a terminal prints each table when it fits, else one block per row;
whether it fits is worked out from its cells (``_TableOrCards.widest``), not by having
rich lay the table out twice: it must be exactly the width rich measures, for any names
and figures (wide and combining characters, right-to-left text, line separators)."""

from __future__ import annotations

import io

from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.measure import Measurement

from scorekeeper.views.stats_report import _TableOrCards

cells = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=14) | \
    st.sampled_from(["Ann", "ＡＮＮ", "李小龍", "e\u0301", "أحمد", "50 %", "—", "a\u2028b", "",
                     "👩‍👩‍👧", "▁▂▃█", "2,33", "x\ty"])


@st.composite
def tables(draw: st.DrawFn) -> _TableOrCards:
    width = draw(st.integers(1, 7))
    head = draw(st.lists(cells, min_size=width, max_size=width))
    rows = draw(st.lists(st.lists(cells, min_size=width, max_size=width), max_size=6))
    words = frozenset(draw(st.sets(st.integers(0, width - 1))))
    return _TableOrCards(draw(cells), head, rows, draw(st.none() | cells), words)


def rich_measure(table: _TableOrCards, console: Console) -> int:
    unbounded = console.options.update(width=10_000, max_width=10_000)
    return Measurement.get(console, unbounded, table.table()).maximum


@settings(max_examples=examples(300), deadline=None)
@given(tables())
def test_the_width_worked_out_is_the_width_rich_measures(table: _TableOrCards) -> None:
    console = Console(file=io.StringIO(), width=80)
    assert table.widest(console, console.options) == rich_measure(table, console)


def test_a_table_that_fits_is_printed_whole_and_one_a_column_too_wide_as_blocks() -> None:
    table = _TableOrCards("Players", ["Player", "Games", "Win %"],
                          [["Ann", "10", "50 %"], ["Bob", "9", "33 %"]], "a note")
    widest = rich_measure(table, Console(file=io.StringIO(), width=80))
    for width, whole in ((widest, True), (widest - 1, False)):
        out = io.StringIO()
        Console(file=out, width=width).print(table)
        assert ("┃ Player" in out.getvalue()) is whole, out.getvalue()
        assert ("Win %: 50 %" in out.getvalue()) is not whole
