"""Rich renderings of standings, rounds and sessions for the terminal.

Every string that came from a user or a file (a name, a session name, a time, a
history entry) goes to rich through :func:`plain`: a ``Text``, never markup, with
control characters shown escaped. Table titles, headers and cells given as ``str``
would be read as markup, so they are ``Text`` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from scorekeeper import i18n
from scorekeeper.card_printing import plain
from scorekeeper.i18n import _, ngettext, pgettext
from scorekeeper.kit.rounds import ScoredRound
from scorekeeper.ranking import (
    knocks_out,
    left_after,
    left_words,
    margin,
    margin_headings,
    ranked_players,
)
from scorekeeper.session import Session

if TYPE_CHECKING:
    from scorekeeper.unavailable import UnavailableSession


class Heading:
    """A rule with its title in it (``── Deal 3 — Ann deals ──``) when the title fits the
    terminal whole; else the title in full, wrapped at spaces, under a bare rule (a
    rich rule would cut the title short with ``…``)."""

    def __init__(self, title: Text, align: str = "center") -> None:
        self.title, self.align = title, align

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = 4 if self.align == "center" else 2  # what rich's Rule keeps around a title
        if cell_len(self.title.plain) + room <= options.max_width:
            yield Rule(self.title, align=self.align)  # type: ignore[arg-type]
        else:
            yield Rule()
            yield self.title


def player_status(session: Session, name: str) -> Text:
    standings = session.standings
    if name in standings.winners:
        return Text(pgettext("player status", "winner"), style="bold green")
    if name in standings.knocked_out:
        number = next(
            (r.number for r in standings.rounds if name in r.knocked_out), None
        )
        return Text(player_status_words(number), style="red")
    if name in standings.left:
        return Text(left_words(left_after(session, name)), style="dim")
    if standings.finished:
        return Text(pgettext("player status", "finished"), style="dim")
    if not knocks_out(session):
        return Text("")
    return Text(pgettext("player status", "in"), style="green")


def player_status_words(knocked_out_in: object) -> str:
    return _("knocked out (round {number})").format(number=knocked_out_in)


def standings_table(session: Session) -> Table:
    standings = session.standings
    session.rules.target(session.options)
    table = Table(title=plain(_("Standings — {session}").format(session=session.label)),
                  title_justify="left")
    table.add_column("#", justify="right")
    table.add_column(pgettext("table heading", "Player"))
    table.add_column(pgettext("table heading", "Total"), justify="right")
    margins = margin_headings(session)
    for heading in margins:
        table.add_column(heading, justify="right")
    ranked = ranked_players(session)
    statuses = [player_status(session, name) for _rank, name in ranked]
    shown = [statuses] if any(status.plain for status in statuses) else []
    if shown:  # a game without knock-outs has none while it is on (ranking.knocks_out)
        table.add_column(pgettext("table heading", "Status"))
    for index, (rank, name) in enumerate(ranked):
        table.add_row(str(rank), plain(name), str(standings.totals[name]),
                      *(margin(session, name) for _ in margins),
                      *(column[index] for column in shown))
    return table


def caption_text(session: Session, summary: ScoredRound) -> Text:
    """A round's role cell: who took the round's role, and whether it failed."""
    caption = summary.caption()
    if not caption.acted:
        return Text(caption.role, style="dim")
    text = plain(caption.role)
    if caption.suit:
        text.append(f" {caption.suit}")
    if caption.failure:
        text.append(f" ✗ {caption.failure}", style="bold red")
    return text


def rounds_table(session: Session) -> Table:
    """The round-by-round grid: each player's score for the deal and running total."""
    standings = session.standings
    declaration = session.declaration
    table = Table(title=_("Rounds"), title_justify="left")
    table.add_column(pgettext("table heading", "Rnd"), justify="right")
    table.add_column(pgettext("table heading", "Dealer"))
    table.add_column(_(declaration.role_heading))
    for name in session.players:
        table.add_column(plain(name), justify="right")
    for summary, running in zip(standings.rounds, standings.running_totals(), strict=True):
        marked = summary.caption().marked
        cells: list[RenderableType] = [str(summary.number),
                                       plain(summary.dealer or "—"),
                                       caption_text(session, summary)]
        for name in session.players:
            if name not in summary.scores:
                cells.append(Text("—", style="dim"))
                continue
            cell = Text(f"{summary.scores[name]:+d}")
            cell.append(f" ={running[name]}", style="dim")
            if name == marked:
                cell.stylize("bold")
                cell.append(" *")
            if name in summary.knocked_out:
                cell.append(" " + pgettext("knocked out in the grid", "out"), style="red")
            cells.append(cell)
        table.add_row(*cells)
    return table


class WithLegend:
    """A grid with its legend: under it as its caption when the legend is no wider than
    the grid, else on lines of its own at the terminal's width (a caption would be
    wrapped to the grid's width, a few words a line)."""

    def __init__(self, table: Table, legend: str) -> None:
        self.table, self.legend = table, legend

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        measured = Measurement.get(console, options, self.table).maximum
        if cell_len(self.legend) <= measured:
            self.table.caption = self.legend
            yield self.table
        else:
            self.table.caption = None
            yield self.table
            yield Text(" " + self.legend, style="table.caption")


def rounds_view(session: Session) -> WithLegend:
    """:func:`rounds_table` with the game's legend."""
    return WithLegend(rounds_table(session), _(session.declaration.grid_legend))


def round_result(session: Session, standings: RenderableType | None = None) -> RenderableType:
    """What an accepted round shows: its scores, knock-outs, the standings, the winner."""
    summary = session.standings.rounds[-1]
    parts: list[RenderableType] = []
    scores = comma().join(f"{name} {points:+d}" for name, points in summary.scores.items())
    headline = plain(_("Round {number} recorded: {scores}").format(number=summary.number,
                                                                  scores=scores))
    failure_note = summary.caption().failure_note
    if failure_note:
        headline.append_text(plain(f"  ({failure_note})", style="bold red"))
    parts.append(headline)
    for name in summary.knocked_out:
        parts.append(plain(_("{name} is knocked out.").format(name=name), style="bold red"))
    parts.append(standings_table(session) if standings is None else standings)
    parts.append(ending(session))
    return Group(*parts)


def ending(session: Session) -> Text:
    standings = session.standings
    if standings.finished:
        return plain(ngettext("Game over: {winners} wins!", "Game over: {winners} win!",
                              len(standings.winners)).format(winners=names_and(standings.winners)),
                     style="bold green")
    notes = Text("\n").join(plain(note) for note in standings.all_notes)
    if session.mode == "virtual":
        notes.append_text(Text(("\n" if notes else "") + _(
            "Not finished: `score play --resume {id}` plays on.").format(id=session.id)))
    return notes


def comma() -> str:
    """What separates the items of a list in the active language (Arabic: ``، ``)."""
    return pgettext("between the items of a list", ", ")


def names_and(names: Sequence[str]) -> str:
    """``Ann and Bob``: names joined as the active language joins them."""
    joined = names[0] if names else ""
    for name in names[1:]:
        joined = _("{names} and {name}").format(names=joined, name=name)
    return joined


def duration_text(minutes: int) -> str:
    """``2 h 25 min``, ``40 min``, ``under a minute``."""
    if minutes < 1:
        return _("under a minute")
    if minutes < 60:
        return _("{minutes} min").format(minutes=minutes)
    return _("{hours} h {minutes} min").format(hours=minutes // 60,
                                                 minutes=f"{minutes % 60:02d}")


def played_text(session: Session, *, at_the_table: bool = False) -> str:
    """``Played Fri 27 Nov, 20:15 to 22:40 (2 h 25 min)``: the night's span, or "" when
    unknown (times as :func:`readable_time` gives them)."""
    span = session.played_span()
    if span is None:
        return ""
    start, end = span
    length = duration_text(int((end - start).total_seconds()) // 60)
    begun = readable_time(start.isoformat(), at_the_table=at_the_table)
    ended = readable_time(end.isoformat(), at_the_table=at_the_table)
    if begun == ended:
        return _("Played {start} ({length})").format(start=begun, length=length)
    begun_day = readable_time(start.isoformat(), at_the_table=at_the_table, part="day")
    if begun_day == readable_time(end.isoformat(), at_the_table=at_the_table, part="day"):
        ended = readable_time(end.isoformat(), at_the_table=at_the_table, part="clock")
    return _("Played {start} to {end} ({length})").format(start=begun, end=ended,
                                                          length=length)


def round_notes(session: Session) -> list[tuple[int, str]]:
    return [(summary.number, str(summary.note)) for summary in session.standings.rounds
            if summary.note]


def roster_text(session: Session) -> str:
    """The players who joined and left between deals, in one line ("" when none did)."""
    if not session.roster:
        return ""
    changes = "; ".join(_("{change} after round {after}").format(change=change.describe(),
                                                               after=change.after)
                        for change in session.roster)
    return _("Joined and left: {changes}").format(changes=changes)


def session_head(session: Session) -> list[RenderableType]:
    """The lines above the standings in ``score show``: the session, its house rules,
    when it was played and its note."""
    head = plain(session.label, style="bold")
    head.append_text(plain("  " + _("(session {id}, {game}, {mode}, {status})").format(
        id=session.id, game=session.rules.title, mode=mode_text(session.mode),
        status=session_status_text(session.status)), style="dim"))
    options = describe_house_rules(session)
    lines: list[RenderableType] = [head, plain(_("House rules: {options}").format(
        options=options), style="dim")]
    played = played_text(session)
    if played:
        lines.append(plain(played, style="dim"))
    elif session.created:
        lines.append(plain(_("Started {time}").format(time=readable_time(session.created)),
                           style="dim"))
    if session.note:
        lines.append(plain(_("Note: {note}").format(note=session.note)))
    if session.roster:
        lines.append(plain(roster_text(session)))
    return lines


def session_view(session: Session) -> RenderableType:
    standings = session.standings
    parts: list[RenderableType] = [*session_head(session), standings_table(session)]
    if standings.rounds:
        parts.append(rounds_view(session))
        parts += [plain(_("Round {number}: {note}").format(number=number, note=note))
                  for number, note in round_notes(session)]
    else:
        parts.append(no_rounds_yet(session))
    parts.append(ending(session))
    return Group(*parts)


def no_rounds_yet(session: Session) -> Text:
    """What a session with no rounds says comes next: a table's next deal is typed in,
    a virtual game's is played on."""
    if session.mode == "virtual":
        return Text(_("No deal played yet: `score play --resume {id}` plays on.").format(
            id=session.id))
    return Text(_("No rounds yet: after each deal, `score add-round ...`."))


def sessions_table(sessions: Sequence[Session], current: int | None) -> Table:
    table = Table(title=_("Sessions"), title_justify="left")
    for column, justify in (("", "left"), (pgettext("table heading", "ID"), "right"),
                            (pgettext("table heading", "Name"), "left"),
                            (pgettext("table heading", "Game"), "left"),
                            (pgettext("table heading", "Players"), "left"),
                            (pgettext("table heading", "Rounds"), "right"),
                            (pgettext("table heading", "Status"), "left"),
                            (pgettext("table heading", "Leader"), "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for session in sessions:
        marker = "*" if session.id == current else ""
        try:
            leader = comma().join(session.leader()) or "—"
            status = session_status_text(session.status)
        except Exception as error:  # a damaged session must not hide the others
            leader, status = "—", _("damaged: {error}").format(error=error)
        table.add_row(marker, str(session.id), plain(session.name or session.generated_name
                                                     or "—"), plain(virtual_marked(session,
                                                                                 session.game)),
                      plain(comma().join(session.players)), str(len(session.rounds)),
                      plain(status), plain(leader))
    table.caption = _("* current session")
    return table


def virtual_marked(session: Session, text: str) -> str:
    """``text`` about a session, marked when the game was played on the virtual deck
    (``score sessions``: bots may sit at it; it leaves the statistics alone)."""
    if session.mode != "virtual":
        return text
    # TRANSLATORS: {what}: a game or a line about a session played with `score play`
    return _("{what} (virtual)").format(what=text)


def history_table(session: Session | UnavailableSession) -> Table:
    table = Table(title=plain(_("History — {session}").format(session=session.label)),
                  title_justify="left")
    table.add_column(pgettext("table heading", "Time"))
    table.add_column(pgettext("table heading", "Change"))
    table.add_column(pgettext("table heading", "What"))
    for entry in session.history:
        table.add_row(plain(readable_time(entry.get("time", ""))), plain(entry.get("change", "")),
                      plain(entry.get("detail", "")))
    return table


def describe_house_rules(session: Session) -> str:
    """A session's house rules on one line, each as the user types it (``limit 100``)
    unless the game words it (One Card's ``JK is the joker``, not ``joker joker``)."""
    declared = {option.key: option for option in session.declaration.house_rules}
    return ", ".join(declared[key].summary(value) if key in declared
                     else f"{key.replace('_', '-')} {value}"
                     for key, value in session.stored_options.items())


def session_status_text(status: str) -> str:
    """A session's status (``finished``, ``in-progress``, ``abandoned``: FORMAT.md's words)
    as shown to people."""
    shown = {"finished": pgettext("session status", "finished"),
             "in-progress": pgettext("session status", "in-progress"),
             "abandoned": pgettext("session status", "abandoned")}
    return shown.get(status, status)


def mode_text(mode: str) -> str:
    """How a session was played (``table``, ``virtual``: FORMAT.md's words) as shown."""
    shown = {"table": pgettext("session mode", "table"),
             "virtual": pgettext("session mode", "virtual")}
    return shown.get(mode, mode)


def readable_time(stamp: object, *, at_the_table: bool = False,
                  now: datetime | None = None, part: str = "both") -> str:
    """An ISO 8601 time as people read it: ``Fri 29 Nov, 21:22``.

    At the terminal the time is turned into the local time, and the year is given only
    when it is not this year. ``at_the_table`` (exports, which are read later and
    elsewhere) keeps the clock of the table it was typed at and always gives the year.
    Anything that is not an ISO time is shown as it is. ``part``: ``day`` or ``clock``
    for only the date or only the time. Other languages than English write it as
    Babel's CLDR data says (``fre. 27. nov. 2026, 20.15``).

    >>> readable_time("2026-11-27T20:15:00+01:00", at_the_table=True)
    'Fri 27 Nov 2026, 20:15'
    >>> readable_time("2026-11-29T21:22:05", now=datetime(2026, 12, 1))
    'Sun 29 Nov, 21:22'
    >>> readable_time("yesterday")
    'yesterday'
    """
    try:
        moment = datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp)
    if not at_the_table and moment.tzinfo is not None:
        moment = moment.astimezone()
    today = now or datetime.now()
    with_year = at_the_table or moment.year != today.year
    if i18n.active_language() == i18n.ENGLISH:
        day = f"{moment:%a} {moment.day} {moment:%b}{f' {moment.year}' if with_year else ''}"
        clock = f"{moment:%H:%M}"
    else:
        from babel.dates import format_skeleton, format_time

        language = i18n.active_language()
        day = format_skeleton("yMMMEd" if with_year else "MMMEd", moment, locale=language)
        clock = format_time(moment, "short", locale=language)
    if part == "day":
        return day
    if part == "clock":
        return clock
    return _("{day}, {clock}").format(day=day, clock=clock)
