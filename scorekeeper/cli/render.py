"""Rich renderings of standings, rounds and sessions for the terminal.

Every string that came from a user or a file (a name, a session name, a time, a
history entry) goes to rich through :func:`plain`: a ``Text``, never markup, with
control characters shown escaped. Table titles, headers and cells given as ``str``
would be read as markup, so they are ``Text`` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from scorekeeper.cards import parse_card
from scorekeeper.ranking import margin, margin_heading, ranked_players
from scorekeeper.session import Session
from scorekeeper.text import show_controls


def plain(text: object, style: str = "") -> Text:
    """User text as rich shows it safely: no markup, control characters escaped."""
    return Text(show_controls(str(text)), style=style)


def card_text(card: str) -> Text:
    """A card string with its suit symbol, red for hearts and diamonds."""
    parsed = parse_card(card)
    if parsed.suit is None:
        return Text("JK", style="bold magenta")
    return Text(parsed.pretty(), style="red" if parsed.suit.is_red else "bold")


def cards_text(cards: Sequence[str]) -> Text:
    text = Text()
    for index, card in enumerate(cards):
        if index:
            text.append(" ")
        text.append_text(card_text(card))
    return text


def player_status(session: Session, name: str) -> Text:
    standings = session.standings
    if name in standings.winners:
        return Text("winner", style="bold green")
    if name in standings.knocked_out:
        number = next(
            (r["number"] for r in standings.rounds if name in r.get("knocked_out", [])), None
        )
        return Text(f"knocked out (round {number})", style="red")
    if standings.finished:
        return Text("finished", style="dim")
    return Text("in", style="green")


def standings_table(session: Session) -> Table:
    standings = session.standings
    session.rules.target(session.options)
    table = Table(title=plain(f"Standings — {session.label}"), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Player")
    table.add_column("Total", justify="right")
    table.add_column(margin_heading(session), justify="right")
    table.add_column("Status")
    for rank, name in ranked_players(session):
        table.add_row(str(rank), plain(name), str(standings.totals[name]), margin(session, name),
                      player_status(session, name))
    return table


def caption_text(session: Session, summary: dict[str, Any]) -> Text:
    """A round's role cell: who took the round's role, and whether it failed."""
    caption = session.rules.caption(summary)
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
    table = Table(title="Rounds", title_justify="left")
    table.add_column("Rnd", justify="right")
    table.add_column("Dealer")
    table.add_column(declaration.role_heading)
    for name in session.players:
        table.add_column(plain(name), justify="right")
    for summary, running in zip(standings.rounds, standings.running_totals(), strict=True):
        marked = session.rules.caption(summary).marked
        cells: list[RenderableType] = [str(summary["number"]),
                                       plain(summary.get("dealer") or "—"),
                                       caption_text(session, summary)]
        for name in session.players:
            if name not in summary["scores"]:
                cells.append(Text("—", style="dim"))
                continue
            cell = Text(f"+{summary['scores'][name]}")
            cell.append(f" ={running[name]}", style="dim")
            if name == marked:
                cell.stylize("bold")
                cell.append(" *")
            if name in summary.get("knocked_out", []):
                cell.append(" out", style="red")
            cells.append(cell)
        table.add_row(*cells)
    table.caption = declaration.grid_legend
    return table


def round_result(session: Session) -> RenderableType:
    """What an accepted round shows: its scores, knock-outs, the standings, the winner."""
    summary = session.standings.rounds[-1]
    parts: list[RenderableType] = []
    scores = ", ".join(f"{name} +{points}" for name, points in summary["scores"].items())
    headline = plain(f"Round {summary['number']} recorded: {scores}")
    failure_note = session.rules.caption(summary).failure_note
    if failure_note:
        headline.append_text(plain(f"  ({failure_note})", style="bold red"))
    parts.append(headline)
    for name in summary.get("knocked_out", []):
        parts.append(plain(f"{name} is knocked out.", style="bold red"))
    parts.append(standings_table(session))
    parts.append(ending(session))
    return Group(*parts)


def ending(session: Session) -> Text:
    standings = session.standings
    if standings.finished:
        return plain(f"Game over: {' and '.join(standings.winners)} "
                     f"win{'s' if len(standings.winners) == 1 else ''}!", style="bold green")
    notes = Text("\n").join(plain(note) for note in standings.notes)
    return notes


def played_text(session: Session) -> str:
    """``Played 20:15 to 22:40 (2 h 25 min)``: the night's span, or "" when unknown."""
    span = session.played_span()
    if span is None:
        return ""
    start, end = span
    minutes = int((end - start).total_seconds()) // 60
    length = "under a minute" if minutes < 1 else \
        f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"
    until = end.strftime("%H:%M") if end.date() == start.date() else \
        end.strftime("%Y-%m-%d %H:%M")
    return f"Played {start.strftime('%Y-%m-%d %H:%M')} to {until} ({length})"


def round_notes(session: Session) -> list[tuple[int, str]]:
    return [(summary["number"], str(summary["note"])) for summary in session.standings.rounds
            if summary.get("note")]


def session_view(session: Session) -> RenderableType:
    standings = session.standings
    head = plain(session.label, style="bold")
    head.append_text(plain(f"  (session {session.id}, {session.rules.title}, {session.mode}, "
                           f"{session.status})", style="dim"))
    options = ", ".join(f"{key} {value}" for key, value in session.options.items())
    parts: list[RenderableType] = [head, plain(f"House rules: {options}", style="dim")]
    if played_text(session):
        parts.append(plain(played_text(session), style="dim"))
    if session.note:
        parts.append(plain(f"Note: {session.note}"))
    parts.append(standings_table(session))
    if standings.rounds:
        parts.append(rounds_table(session))
        parts += [plain(f"Round {number}: {note}") for number, note in round_notes(session)]
    else:
        parts.append(Text("No rounds yet: after each deal, `score add-round ...`."))
    parts.append(ending(session))
    return Group(*parts)


def sessions_table(sessions: Sequence[Session], current: int | None) -> Table:
    table = Table(title="Sessions", title_justify="left")
    for column, justify in (("", "left"), ("ID", "right"), ("Name", "left"), ("Game", "left"),
                            ("Players", "left"), ("Rounds", "right"), ("Status", "left"),
                            ("Leader", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for session in sessions:
        marker = "*" if session.id == current else ""
        try:
            leader = ", ".join(session.leader()) or "—"
            status = session.status
        except Exception as error:  # a damaged session must not hide the others
            leader, status = "—", f"damaged: {error}"
        table.add_row(marker, str(session.id), plain(session.name or "—"), plain(session.game),
                      plain(", ".join(session.players)), str(len(session.rounds)),
                      plain(status), plain(leader))
    table.caption = "* current session"
    return table


def history_table(session: Session) -> Table:
    table = Table(title=plain(f"History — {session.label}"), title_justify="left")
    table.add_column("Time")
    table.add_column("Change")
    table.add_column("What")
    for entry in session.history:
        table.add_row(plain(entry.get("time", "")), plain(entry.get("change", "")),
                      plain(entry.get("detail", "")))
    return table


def describe_options(options: dict[str, Any]) -> str:
    return ", ".join(f"{key}={value}" for key, value in options.items())
