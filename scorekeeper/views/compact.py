"""The narrow layout of ``score show`` and ``score sessions``, for a phone in portrait.

Used when the terminal is narrower than the wide grid (or with ``--compact``). It keeps
what a table needs at a glance: the standings, each player's running total after every
round with the game's own signs (its declaration's ``narrow_marks``, else ``*`` after
the player its round caption marks) and a one-line legend. No cell
is ever broken over two lines: the players' columns get short headings (the start of
each name) and, when even those don't fit, the grid is split into several grids of a
few players each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from scorekeeper import ranking
from scorekeeper.card_printing import plain
from scorekeeper.i18n import _, ngettext, pgettext
from scorekeeper.kit.rounds import ScoredRound
from scorekeeper.session import Session
from scorekeeper.text import show_controls
from scorekeeper.views import render

if TYPE_CHECKING:
    from scorekeeper.kit.marks import GridMarks
    from scorekeeper.unavailable import UnavailableSession

OUT_SIGN = "†"
"""After a running total: this deal knocked the player out."""
SHORTEST_HEADING = 3
LONGEST_HEADING = 10


def fits(console: Console, renderable: RenderableType) -> bool:
    """Whether ``renderable`` shows at its natural width, no cell wrapped, on ``console``."""
    unbounded = console.options.update(width=10_000, max_width=10_000)
    measured = Measurement.get(console, unbounded, renderable)
    return measured.maximum <= console.width


# ---------------------------------------------------------------------------
# Short headings for the players' columns


def short_names(players: Sequence[str], length: int) -> dict[str, str]:
    """Each player's column heading: the first ``length`` characters of the name, or the
    whole name when shorter. Players whose starts collide get their seat number instead
    of the last characters (``Pl1``, ``Pl2``), so every heading is different.

    >>> short_names(["Annabelle", "Bob", "Annie"], 3)
    {'Annabelle': 'An1', 'Bob': 'Bob', 'Annie': 'An3'}
    """
    short = {name: name[:length] for name in players}
    seen: dict[str, list[str]] = {}
    for name in players:
        seen.setdefault(short[name].casefold(), []).append(name)
    for group in seen.values():
        if len(group) > 1:
            for name in group:
                seat = str(players.index(name) + 1)
                short[name] = name[:max(1, length - len(seat))] + seat
    return short


# ---------------------------------------------------------------------------
# The standings


def _status(session: Session, name: str) -> str:
    standings = session.standings
    if name in standings.winners:
        return pgettext("player status", "winner")
    if name in standings.knocked_out:
        number = next(r.number for r in standings.rounds if name in r.knocked_out)
        return _("out in {number}").format(number=number)
    if name in standings.left:
        return ranking.left_words(ranking.left_after(session, name))
    if standings.finished or not ranking.knocks_out(session):
        return ""
    return pgettext("player status", "in")


def standings_table(session: Session, width: int) -> Table:
    """Place, player, total, what is left (or still to reach), and the status; the names
    go last when the longest would not leave room for the figures."""
    standings = session.standings
    target = ranking.target_line(session) if ranking.shows_margin(session) else None
    margin_heading = (pgettext("points left before the limit", "Left")
                      if ranking.counts_to_limit(session)
                      else _("To {target}").format(target=target))
    rows = [(str(rank), show_controls(name), str(standings.totals[name]),
             ranking.margin(session, name) if target is not None else "",
             _status(session, name))
            for rank, name in ranking.ranked_players(session)]
    player, total = pgettext("table heading", "Player"), pgettext("table heading", "Total")
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    numbers = (max(widths[0], 1) + 1 + max(widths[2], len(total)) + 1 + max(widths[4], 6)
               + (1 + max(widths[3], len(margin_heading)) if target is not None else 0))
    names_last = numbers + 1 + max(widths[1], len(player)) > width
    title = (_("Standings") if target is None  # a game played for its deals: no target
             else _("Standings, limit {target}").format(target=target)
             if ranking.counts_to_limit(session)
             else _("Standings, to {target}").format(target=target))
    table = Table(box=None, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False,
                  title=Text(title), title_justify="left", title_style="bold")
    columns = [("#", "right"), (player, "left"), (total, "right"),
               (margin_heading, "right"), ("", "left")]
    order = [0, 2, 3, 4, 1] if names_last else [0, 1, 2, 3, 4]
    if target is None:
        order.remove(3)
    for index in order:
        heading, justify = columns[index]
        table.add_column(heading, justify=justify,  # type: ignore[arg-type]
                         no_wrap=index != 1, overflow="fold" if index == 1 else "ellipsis")
    for (_rank, name), row in zip(ranking.ranked_players(session), rows, strict=True):
        styled: list[RenderableType] = [Text(cell) for cell in row]
        styled[4] = Text(row[4], style="bold green" if name in standings.winners
                         else "red" if name in standings.knocked_out
                         else "dim" if name in standings.left else "")
        table.add_row(*(styled[index] for index in order))
    return table


# ---------------------------------------------------------------------------
# The rounds: running totals per player


class _Grid:
    """How the narrow grid is split: each player's heading, the groups of players shown
    together. A plain class: a dataclass costs about a millisecond to define, on every
    command that imports this module (start-up)."""

    __slots__ = ("groups", "headings")

    def __init__(self, headings: dict[str, str], groups: list[list[str]]) -> None:
        self.headings = headings
        self.groups = groups


def _cell_width(session: Session) -> int:
    """The widest running-total cell: the number, then up to two signs."""
    widest = 1
    for summary, running in zip(session.standings.rounds, session.standings.running_totals(),
                                strict=True):
        for name in summary.scores:
            widest = max(widest, len(str(running[name])))
    return widest + 2


def plan_grid(session: Session, width: int) -> _Grid:
    """The longest headings (up to :data:`LONGEST_HEADING`) with which every player's
    column fits in one grid; else the shortest, split over as few grids as needed."""
    players = list(session.players)
    rounds = len(session.standings.rounds)
    note = _note_heading(session)
    note_width = 0
    if note:
        notes = [round_marks(session, r).note for r in session.standings.rounds]
        note_width = 1 + max(cell_len(note), *(len(n) for n in notes))
    fixed = max(len(str(rounds)), 1) + note_width
    cell = _cell_width(session)
    shown = [show_controls(name) for name in players]
    longest = max(len(name) for name in shown)

    def headings_of(length: int) -> dict[str, str]:
        by_shown = short_names(shown, length)
        return {name: by_shown[text] for name, text in zip(players, shown, strict=True)}

    def columns_width(headings: dict[str, str], group: Sequence[str]) -> int:
        return sum(1 + max(cell, len(headings[name])) for name in group)

    for length in range(min(LONGEST_HEADING, longest), SHORTEST_HEADING - 1, -1):
        headings = headings_of(length)
        if fixed + columns_width(headings, players) <= width:
            return _Grid(headings, [players])
    headings = headings_of(SHORTEST_HEADING)
    per_grid = max(1, (width - fixed) // (1 + max(cell, SHORTEST_HEADING)))
    count = -(-len(players) // per_grid)
    size = -(-len(players) // count)  # as even as can be: 8 players in two grids of 4
    return _Grid(headings, [players[i:i + size] for i in range(0, len(players), size)])


def round_marks(session: Session, summary: ScoredRound) -> GridMarks:
    """The signs of one round in the narrow grid: the game's own (its declaration's
    ``narrow_marks``), else ``*`` after the player the round's caption marks (``!`` when
    the round's act failed)."""
    from scorekeeper.kit.marks import GridMarks  # start-up: the narrow grid's only

    declaration = session.declaration
    if declaration.narrow_marks is not None:
        return declaration.narrow_marks(summary)
    caption = summary.caption()
    if caption.marked is None:
        return GridMarks({})
    return GridMarks({caption.marked: "!" if caption.failure else "*"})


def _note_heading(session: Session) -> str:
    """The heading of the game's own column in the run's language ("" for none)."""
    heading = session.declaration.narrow_note_heading
    return _(heading) if heading else ""


def rounds_tables(session: Session, width: int) -> list[Table]:
    grid = plan_grid(session, width)
    note_heading = _note_heading(session)
    marks = [round_marks(session, summary) for summary in session.standings.rounds]
    running = session.standings.running_totals()
    tables = []
    for group in grid.groups:
        table = Table(box=None, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False)
        table.add_column("#", justify="right", no_wrap=True)
        if note_heading:
            table.add_column(note_heading, justify="right", no_wrap=True)
        for name in group:
            table.add_column(Text(grid.headings[name]), justify="right", no_wrap=True)
        for summary, after, marked in zip(session.standings.rounds, running, marks,
                                          strict=True):
            cells: list[RenderableType] = [str(summary.number)]
            if note_heading:
                cells.append(marked.note)
            for name in group:
                if name not in summary.scores:
                    cells.append(Text("·", style="dim"))
                    continue
                sign = marked.marks.get(name, "")
                if name in summary.knocked_out:
                    sign += OUT_SIGN
                cell = Text(str(after[name]))
                cell.append(sign.ljust(2), style="bold red" if "!" in sign or OUT_SIGN in sign
                            else "bold")
                cells.append(cell)
            table.add_row(*cells)
        tables.append(table)
    return tables


def legend(session: Session, width: int) -> Text:
    """What the cells are and each sign the grid uses, packed in as few lines as fit
    ``width``, never breaking an item."""
    declaration = session.declaration
    signs = list(declaration.narrow_legend or (("*", _(declaration.role_heading).lower()),))
    if any(summary.knocked_out for summary in session.standings.rounds):
        signs.append((OUT_SIGN, pgettext("player status", "knocked out")))
    text = Text(_("Running totals"), style="bold")
    used = len(text)
    for sign, meaning in signs:
        item = f"{sign} {_(meaning)}"
        if used + 2 + len(item) > width:
            text.append("\n")
            used = 0
        else:
            text.append("  ")
            used += 2
        text.append(item)
        used += len(item)
    return text


def session_view(session: Session, width: int, head: Sequence[RenderableType]) -> Group:
    """``score show`` for a narrow terminal: ``head`` (the title lines), the standings,
    the running totals, who deals next or who won."""
    parts: list[RenderableType] = [*head, standings_table(session, width)]
    if session.standings.rounds:
        parts.append(Text())
        parts.append(legend(session, width))
        tables = rounds_tables(session, width)
        for index, table in enumerate(tables):
            if index:
                parts.append(Text())
            parts.append(table)
        parts += [plain(_("Round {number}: {note}").format(number=number, note=note))
                  for number, note in render.round_notes(session)]
    else:
        parts.append(render.no_rounds_yet(session))
    parts.append(render.ending(session))
    return Group(*parts)


# ---------------------------------------------------------------------------
# score sessions


def sessions_list(sessions: Sequence[Session], current: int | None) -> Table:
    """Each session in two or three short lines: id, name; game, rounds, status, leader;
    the players. Words wrap, cells don't."""
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right", no_wrap=True)
    table.add_column()
    for session in sessions:
        marker = "*" if session.id == current else ""
        try:
            title = session.rules.title
            lines = plain(session.label if session.label != f"{title} #{session.id}"
                                 else title, style="bold")
            leader = render.comma().join(session.leader())
            status = render.session_status_text(session.status)
            rounds = len(session.rounds)
            about = ngettext("{n} round, {status}", "{n} rounds, {status}", rounds).format(
                n=rounds, status=status)
            if title not in lines.plain:
                about = _("{game}, {about}").format(game=title, about=about)
            about = render.virtual_marked(session, about)
            if leader and session.finished:
                about = _("{about}; won: {leader}").format(about=about, leader=leader)
            elif leader:
                about = _("{about}; leads: {leader}").format(about=about, leader=leader)
        except Exception as error:  # a damaged session must not hide the others
            lines = plain(session.name or session.game, style="bold")
            about = _("{game}, damaged: {error}").format(game=session.game, error=error)
        lines.append("\n")
        lines.append_text(plain(about))
        lines.append("\n")
        lines.append_text(plain(render.comma().join(session.players), style="dim"))
        table.add_row(Text(f"{marker}{session.id}"), lines)
    table.caption = _("* current session")
    table.caption_justify = "left"
    return table


# ---------------------------------------------------------------------------
# Choosing the layout


def _boxed_width(columns: Sequence[int]) -> int:
    """The width of a rich table with rich's default box and padding: each column, a
    space either side, and the rules between and around them."""
    return sum(width + 2 for width in columns) + len(columns) + 1


def widest_wide_view(session: Session) -> int:
    """The widest the wide view's tables can get in this session, whatever rounds are
    still to come: from its players' names and the game's widest round (a knock-out
    status, the longest caption, the highest totals), never less than what the rounds
    so far need. It depends on the session, not on how far the night has gone."""
    declaration = session.declaration
    players = list(session.players)
    names = max((cell_len(show_controls(name)) for name in players), default=1)
    line = ranking.target_line(session)
    target = line or 0
    widest = (declaration.widest_round(players, session.options)
              if declaration.widest_round is not None else None)
    highest = max(widest.scores.values(), default=0) if widest else 0
    total = len(str(target + highest))
    status = max(cell_len(render.player_status_words(999)), len(pgettext("table heading",
                                                                         "Status")))
    standings = _boxed_width([1, max(names, len(pgettext("table heading", "Player"))),
                              max(total, len(pgettext("table heading", "Total"))),
                              *([max(total, cell_len(ranking.margin_heading(session)))]
                                if ranking.margin_headings(session) else []), status])
    grid = 0
    if widest is not None:
        caption = widest.caption()
        out = " " + pgettext("knocked out in the grid", "out")
        cells = [max(cell_len(show_controls(name)),
                     len(f"+{widest.scores[name]} ={target + widest.scores[name]}")
                     + (2 if caption.marked == name else 0)
                     + (len(out) if name in widest.knocked_out else 0))
                 for name in players]
        grid = _boxed_width([3, max(names, len(pgettext("table heading", "Dealer"))),
                             max(cell_len(_(declaration.role_heading)),
                                 cell_len(render.caption_text(session, widest).plain)),
                             *cells])
    return max(standings, grid)


def wide_fits(console: Console, session: Session) -> bool:
    """Whether the wide view fits the terminal for the whole session (see
    :func:`widest_wide_view`): the choice is made once, not round by round."""
    tables = [render.standings_table(session)]
    if session.standings.rounds:
        tables.append(render.rounds_table(session))
    return (widest_wide_view(session) <= console.width
            and all(fits(console, table) for table in tables))


def show(console: Console, session: Session, compact: bool = False) -> RenderableType:
    """``score show``: the wide view when it fits the terminal for the whole session,
    else the narrow one. The lines above the tables wrap at spaces, so they don't
    count."""
    if not compact and wide_fits(console, session):
        return render.session_view(session)
    return session_view(session, console.width, render.session_head(session))


def standings(console: Console, session: Session) -> RenderableType:
    """The standings as ``add-round`` prints them: wide when that fits."""
    wide = render.standings_table(session)
    return wide if fits(console, wide) else standings_table(session, console.width)


def unavailable_line(session: UnavailableSession, current: int | None) -> str:
    """A session whose game is not installed, on one line under the list: its id, game,
    players and rounds, and what to do."""
    marker = "*" if session.id == current else ""
    rounds = ngettext("{n} round", "{n} rounds", session.rounds).format(n=session.rounds)
    return show_controls(_("{marker}{id} {label} ({players}; {rounds}): {problem}").format(
        marker=marker, id=session.id, label=session.label,
        players=render.comma().join(session.players), rounds=rounds,
        problem=session.problem))


def sessions(console: Console, found: Sequence[Session], current: int | None,
             compact: bool = False) -> RenderableType:
    wide = render.sessions_table(found, current)
    if not compact and fits(console, wide):
        return wide
    return sessions_list(found, current)
