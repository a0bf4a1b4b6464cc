"""The session summary in JSON (FORMAT.md), Markdown, CSV and self-contained HTML.

Names and titles are data in every format: Markdown escapes what would make a
table lose its columns or become a link or HTML (:func:`md`); a CSV cell that a
spreadsheet would run as a formula is neutralised (:func:`csv_cell`); HTML
escapes everything (:func:`_e`). Control characters are shown escaped in all of
them (``scorekeeper.text.show_controls``).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from scorekeeper import i18n
from scorekeeper.i18n import _, ngettext, pgettext
from scorekeeper.kit.entries import RoundEntry
from scorekeeper.kit.rounds import ScoredRound
from scorekeeper.ranking import (
    counts_to_limit,
    margin,
    margin_headings,
    ranked_players,
    status_text,
    target_line,
)
from scorekeeper.session import Session
from scorekeeper.summary import summary_of
from scorekeeper.text import is_hidden, show_controls
from scorekeeper.views.export_formats import Format as Format  # re-exported
from scorekeeper.views.render import (
    comma,
    describe_house_rules,
    names_and,
    played_text,
    readable_time,
    roster_text,
    round_notes,
)

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def export(session: Session, fmt: str) -> str:
    exporters: dict[str, Callable[[Session], str]] = {
        "json": to_json, "md": to_markdown, "csv": to_csv, "html": to_html,
        "bgstats": lambda one: to_bgstats([one]),
    }
    return exporters[fmt](session)


def to_bgstats(sessions: Sequence[Session]) -> str:
    """A BG Stats play file of ``sessions`` (views/bgstats.py)."""
    from scorekeeper.views.bgstats import play_file  # start-up: only its export needs it

    return json_text(play_file(sessions))


def to_json(session: Session) -> str:
    return json_text(summary_of(session))


def json_text(data: object, indent: int | None = 2) -> str:
    """JSON with names as they are (UTF-8), except characters that act instead of being
    seen: those are written as JSON escapes (``\\u001b``), so the file reads back the same
    and no terminal it is printed to obeys them. ``json.dumps`` already escapes what is
    below U+0020; this adds DEL, the C1 controls, format characters and lone surrogates
    (which UTF-8 can't even encode)."""
    text = json.dumps(data, ensure_ascii=False, indent=indent) + "\n"
    if text.replace("\n", "").isprintable():
        return text
    return "".join(_json_escape(ch) if ch != "\n" and is_hidden(ch) else ch for ch in text)


def _json_escape(character: str) -> str:
    units = character.encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{int.from_bytes(units[i:i + 2]):04x}" for i in range(0, len(units), 2))


_status = status_text  # the same word in every export, in the language of the run

RIGHT_TO_LEFT = frozenset({"ar"})
"""The languages written from right to left: their HTML pages are mirrored."""


def right_to_left() -> bool:
    """Whether the active language is written from right to left."""
    return i18n.active_language() in RIGHT_TO_LEFT


def html_language() -> str:
    """The attributes of ``<html>``: the language, and its direction when right to left
    (``lang="ar" dir="rtl"``)."""
    language = i18n.active_language()
    return f'lang="{language}"' + (' dir="rtl"' if right_to_left() else "")


def _round_label(session: Session, summary: ScoredRound) -> str:
    caption = summary.caption()
    label = caption.role
    if caption.suit:
        label += " " + SUIT_SYMBOLS.get(caption.suit, caption.suit)
    return label + (f" ({caption.failure})" if caption.failure else "")


def _round_failed(session: Session, summary: ScoredRound) -> bool:
    return bool(summary.caption().failure)


def _running_totals(session: Session) -> list[dict[str, int]]:
    return session.standings.running_totals()


def _headline(session: Session) -> str:
    standings = session.standings
    if standings.finished:
        return _("Winner: {winners}").format(winners=names_and(standings.winners))
    played = len(standings.rounds)
    return ngettext("In progress after {n} round", "In progress after {n} rounds",
                    played).format(n=played)


MARKDOWN_SPECIAL = frozenset("\\`*_[]|~#")
"""What Markdown acts on inside a line (a backslash before it shows it as is): escapes,
code, emphasis, links and images (``![`` needs the ``[``), table columns, strikethrough,
a heading's closing ``#``. Names and titles never start a line, so ``-`` or ``1.``
can't make a list."""
HTML_IN_MARKDOWN = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def md(text: object) -> str:
    """User text as a Markdown table cell or title shows it: no column break (``|``), no
    emphasis, link or HTML, no control character."""
    out: list[str] = []
    for character in show_controls(str(text)):
        if character in HTML_IN_MARKDOWN:
            out.append(HTML_IN_MARKDOWN[character])
        elif character in MARKDOWN_SPECIAL:
            out.append("\\" + character)
        else:
            out.append(character)
    return "".join(out)


def to_markdown(session: Session) -> str:
    """The session as Markdown; in a right-to-left language inside ``<div dir="rtl">``,
    which GitHub and most Markdown viewers honour (Markdown itself has no direction)."""
    standings = session.standings
    session.rules.target(session.options)
    options = describe_house_rules(session)
    played = played_text(session, at_the_table=True)
    lines = [
        f"# {md(session.label)}",
        "",
        _("{game} · {players} · started {time}").format(
            game=md(session.rules.title), players=md(comma().join(session.players)),
            time=md(readable_time(session.created, at_the_table=True))),
        _("House rules: {options}").format(options=options),
        *([played] if played else []),
        *([_("Note: {note}").format(note=md(session.note))] if session.note else []),
        *([md(roster_text(session))] if session.roster else []),
        "",
        f"**{md(_headline(session))}**",
        *(md(note) for note in standings.notes),  # the game's own words (Hearts' passing)
        "",
        "## " + _("Standings"),
        "",
        "| # | " + " | ".join(md(word) for word in (
            pgettext("table heading", "Player"), pgettext("table heading", "Total"),
            *margin_headings(session), pgettext("table heading", "Status"))) + " |",
        "|---:|---|---:|" + "---:|" * len(margin_headings(session)) + "---|",
    ]
    for rank, name in ranked_players(session):
        lines.append(f"| {rank} | {md(name)} | {standings.totals[name]} | "
                     + "".join(f"{margin(session, name)} | " for _ in margin_headings(session))
                     + f"{md(_status(session, name))} |")
    lines += ["", "## " + _("Rounds"), ""]
    if not standings.rounds:
        lines.append(_("No rounds yet."))
    else:
        role = _(session.declaration.role_heading)
        lines.append("| " + " | ".join(md(word) for word in (
            pgettext("table heading", "Round"), pgettext("table heading", "Dealer"), role))
            + " | " + " | ".join(md(n) for n in session.players) + " |")
        lines.append("|---:|---|---|" + "---:|" * len(session.players))
        out = pgettext("knocked out in the grid", "out")
        for summary, running in zip(standings.rounds, _running_totals(session), strict=True):
            cells = []
            for name in session.players:
                if name not in summary.scores:
                    cells.append("—")
                    continue
                cell = f"{summary.scores[name]:+d} ({running[name]})"
                if name in summary.knocked_out:
                    cell += " " + md(out)
                cells.append(cell)
            lines.append(f"| {summary.number} | {md(summary.dealer or '—')} | "
                         f"{md(_round_label(session, summary))} | " + " | ".join(cells) + " |")
        lines += ["", _("Each cell: the deal's score (running total).")]
        notes = round_notes(session)
        if notes:
            lines += ["", *("- " + _("Round {number}: {note}").format(number=number,
                                                                    note=md(note))
                            for number, note in notes)]
    if right_to_left():
        lines = [f'<div dir="rtl" lang="{i18n.active_language()}">', "", *lines, "",
                 "</div>"]
    return "\n".join(lines) + "\n"


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""OWASP's list: a cell starting so may be run as a formula by a spreadsheet."""


def csv_cell(value: object) -> object:
    """A CSV cell that a spreadsheet shows and never runs: numbers stay numbers; text
    that could start a formula gets a leading single quote; control characters escaped."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        text = "'" + text
    return show_controls(text)


def _csv_value(value: Any) -> Any:
    """A round's value as a CSV cell: nothing for none, ``true``/``false`` for a yes/no."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return value


def to_csv(session: Session) -> str:
    """One row per round: who did what, then each player's score and running total.

    The headings are in the language of the run, except the game's own columns (its
    declaration's ``csv_columns``), which are its FORMAT.md round keys: data, as in the
    JSON."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    declaration = session.declaration
    entries = _entries(session)
    typed = [option for option in declaration.round_options
             if option.key not in declaration.csv_columns] if entries else []
    head = [pgettext("CSV column", "round"), pgettext("CSV column", "dealer"),
            *declaration.csv_columns, *(option.key for option in typed)]
    for name in session.players:
        head += [f"{name} {declaration.value_column}",
                 _("{name} score").format(name=name), _("{name} total").format(name=name)]
    notes = bool(round_notes(session))
    if notes:  # only then: a spreadsheet without notes keeps its columns
        head.append(pgettext("CSV column", "note"))
    roster = _roster_by_round(session)
    if roster:  # only then, as notes: each row says who joined or left before its deal
        head.append(pgettext("CSV column", "joined or left before"))
    writer.writerow([csv_cell(cell) for cell in head])
    for summary, running in zip(session.standings.rounds, _running_totals(session), strict=True):
        row: list[Any] = [summary.number, summary.dealer or ""]
        shown = summary.shown_json()  # the declared columns: FORMAT.md's round keys, and
        # what the game shows beside them (Hearts' passing)
        row += [_csv_value(shown.get(key)) for key in declaration.csv_columns]
        entry = entries[summary.number - 1] if entries else None
        row += [_csv_value(entry.get(option.key)) for option in typed if entry is not None]
        values = summary.values if entry is None else dict(
            (name, _number_or_text(value)) for name, value in entry.values)
        for name in session.players:
            row += [values.get(name, ""), summary.scores.get(name, ""), running[name]]
        if notes:
            row.append(summary.note)
        if roster:
            row.append(roster.get(summary.number, ""))
        writer.writerow([csv_cell(cell) for cell in row])
    since = roster.get(len(session.rounds) + 1)
    if since:  # changes since the last deal: a row of their own, with no deal
        writer.writerow([csv_cell(cell) for cell in
                         ["", "", *[""] * (len(head) - 3), since]])
    return buffer.getvalue()


def _entries(session: Session) -> list[RoundEntry] | None:
    """Each round as it would be typed with ``add-round`` (the game's questions say it),
    so that ``score import FILE.csv --game GAME`` reads the export back; None for a game
    that does not say."""
    questions = session.declaration.questions
    if questions is None:
        return None
    return [questions.entry_of(round_) for round_ in session.rounds]


def _number_or_text(value: str) -> int | str:
    """``-10`` as the number a spreadsheet adds up, ``AH,3S`` as it was typed."""
    return int(value) if re.fullmatch(r"[+-]?[0-9]{1,15}", value.strip()) else value


def _roster_by_round(session: Session) -> dict[int, str]:
    """Round number -> the roster changes made just before its deal, in words."""
    before: dict[int, list[str]] = {}
    for change in session.roster:
        before.setdefault(change.after + 1, []).append(change.describe())
    return {number: "; ".join(changes) for number, changes in before.items()}


# ---------------------------------------------------------------------------
# HTML: one self-contained page, readable on a phone, with an inline SVG chart

PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf")

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:1rem;
color:#1b1b1b;background:#fafafa;line-height:1.4}
main{max-width:48rem;margin:auto}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin-top:1.5rem}
.meta{color:#555;font-size:.9rem}.winner{font-weight:700;color:#1a7f37}
/* names wrap at spaces, never inside a word; a word too long for a line alone breaks */
body{overflow-wrap:break-word;word-break:normal;hyphens:manual}
/* a table wider than the phone scrolls in its own box, a shadow at each edge where
   there is more to see (the covers scroll with the table, the shadows stay put) */
.scroll{overflow-x:auto;background:
linear-gradient(to right,#fff 40%,rgba(255,255,255,0)) left/2.5rem 100% no-repeat local,
linear-gradient(to left,#fff 40%,rgba(255,255,255,0)) right/2.5rem 100% no-repeat local,
radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.3),transparent) left/.8rem 100% no-repeat,
radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.3),transparent) right/.8rem 100%
no-repeat,#fff}
table{border-collapse:collapse;width:100%;font-size:.9rem;background:#fff}
.scroll table{background:transparent}
.stats td{white-space:nowrap}.stats td:first-child{white-space:normal}
th,td{padding:.3rem .35rem;border-bottom:1px solid #ddd;text-align:end;white-space:nowrap;
overflow-wrap:normal}
th{white-space:normal;vertical-align:bottom}
td:nth-child(2),td:last-child,.rounds td:nth-child(3){white-space:normal}
.stats td:nth-child(2),.stats td:last-child{white-space:nowrap}
.stats td.word{white-space:nowrap;text-align:start}.stats th.word{text-align:start}
.rounds td:last-child{white-space:nowrap}
th:nth-child(-n+2),td:nth-child(-n+2){text-align:start}
.rounds th:nth-child(3),.rounds td:nth-child(3){text-align:start}
.out{color:#b42318}.false{color:#b42318;font-weight:600}.run{color:#777;font-size:.85em}
svg{width:100%;height:auto;background:#fff;border:1px solid #ddd}
svg.swatch{width:12px;height:12px;border:0;background:none;vertical-align:-1px}
.legend span{display:inline-block;margin-inline-end:1rem;font-size:.9rem}
.legend i{display:inline-block;width:.8rem;height:.8rem;margin-inline-end:.3rem;border-radius:2px}
"""


def html_text(text: object) -> str:
    """User text in HTML: markup escaped, control characters written as their escapes
    (a name edited into the store by hand may hold an ESC)."""
    return html.escape(show_controls(str(text)))


_e = html_text


def bdi(text: object) -> str:
    """User text (a name) in HTML, isolated in a right-to-left page: a Latin name keeps
    its own direction and does not drag the words around it along. (A left-to-right page
    leaves it as it is: its cells and lines are plain as they always were.)"""
    return f"<bdi>{_e(text)}</bdi>" if right_to_left() else _e(text)


def ltr(html_text: str) -> str:
    """Figures that read left to right in every language (``+5``, ``12/40``, a card):
    without it a right-to-left page shows ``+5`` as ``5+``."""
    return f'<bdi dir="ltr">{html_text}</bdi>' if right_to_left() else html_text


def html_template(message: str, **values: str) -> str:
    """A translated message as HTML: the message escaped, then filled with ``values``,
    which are HTML already (escaped user text in :func:`bdi`)."""
    return _e(message).format(**values)


def html_round_cells(session: Session) -> list[list[str]]:
    """Each round's cells as HTML (number, dealer, caption, each player's score and running
    total), oldest first: the HTML export's grid and the live page's share them."""
    rows = []
    for summary, running in zip(session.standings.rounds, _running_totals(session),
                                strict=True):
        label = bdi(_round_label(session, summary))
        if _round_failed(session, summary):
            label = f'<span class="false">{label}</span>'
        row = [str(summary.number), bdi(summary.dealer or "—"), label]
        for name in session.players:
            if name not in summary.scores:
                row.append("—")
                continue
            cell = ltr(f'{summary.scores[name]:+d} <span class="run">{running[name]}</span>')
            if name in summary.knocked_out:
                out = _e(pgettext("knocked out in the grid", "out"))
                cell += f' <span class="out">{out}</span>'
            row.append(cell)
        rows.append(row)
    return rows


def nice_step(top: float, most_ticks: int = 6) -> int:
    """A round step for an axis from 0 to ``top``: 1, 2 or 5 times a power of ten, the
    smallest that needs no more than ``most_ticks`` steps.

    >>> nice_step(116), nice_step(30), nice_step(8), nice_step(1200)
    (20, 5, 2, 200)
    """
    power = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * power
            if top / step <= most_ticks:
                return step
        power *= 10


def _target_line(session: Session, target: int, height: float, left: float, right: float,
                 label_x: float, mirror: bool) -> list[str]:
    """The chart's dashed line at the limit or target, and its label."""
    label = (_("limit {limit}").format(limit=target) if counts_to_limit(session)
             else _("target {target}").format(target=target))
    label_direction = ' direction="rtl"' if mirror else ""
    label_at = ' text-anchor="start"' if mirror else ""  # right-to-left text starts right
    return [f'<line x1="{left}" x2="{right}" y1="{height:.1f}" '
            f'y2="{height:.1f}" stroke="#b42318" stroke-dasharray="6 4"/>',
            f'<text x="{label_x}" y="{height - 6:.1f}" font-size="16"'
            f'{label_at}{label_direction} fill="#b42318">{_e(label)}</text>']


def chart_svg(session: Session) -> str:
    """Each player's running total after every round, with the limit or target as a line.

    A knocked-out player's line ends at the deal that knocked them out; the value axis is
    marked at round numbers. In a right-to-left language the chart is mirrored: the rounds
    run from the right, the value axis is on the right."""
    starting = session.standings.starting
    totals = [{name: starting.get(name, 0) for name in session.players},
              *_running_totals(session)]
    out_after = {name: summary.number for summary in session.standings.rounds
                 for name in summary.knocked_out}
    # a late player's line starts where they joined; a leaver's ends where they left
    # (one who came back plays on from their total: flat while they were away)
    first = {change.player: change.after for change in session.roster if change.late}
    out_after |= {change.player: change.after for change in session.roster
                  if not change.joined and change.player in session.standings.left}
    target = target_line(session)
    width, height, pad_left, pad_right, pad_top, pad_bottom = 480, 280, 40, 12, 16, 30
    highest = max([target or 0, *(max(t.values()) for t in totals)])
    step = nice_step(highest * 1.04)
    top_value = step * -(-highest * 1.04 // step) or step  # (no target and no points yet)
    rounds = max(len(totals) - 1, 1)
    mirror = right_to_left()

    def x(index: float) -> float:
        across = pad_left + (width - pad_left - pad_right) * index / rounds
        return width - across if mirror else across

    def at(offset: float) -> float:
        """The x of a label ``offset`` from the chart's left edge (its right when mirrored)."""
        return width - offset if mirror else offset

    axis_anchor = "start" if mirror else "end"

    def y(value: float) -> float:
        return pad_top + (height - pad_top - pad_bottom) * (1 - value / top_value)

    # The figures keep a left-to-right direction; the label's words take the page's.
    direction = ' direction="ltr"' if mirror else ""
    described = _e(_("Running totals over the rounds"))
    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{described}"'
             f'{direction} xmlns="http://www.w3.org/2000/svg">']
    left, right = sorted((at(pad_left), at(width - pad_right)))
    for value in range(0, int(top_value) + 1, step):
        parts.append(f'<line x1="{left}" x2="{right}" y1="{y(value):.1f}" '
                     f'y2="{y(value):.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{at(pad_left - 6)}" y="{y(value) + 4:.1f}" font-size="15" '
                     f'text-anchor="{axis_anchor}" fill="#777">{value}</text>')
    round_step = nice_step(rounds, most_ticks=10)
    for index in range(0, len(totals), round_step):
        parts.append(f'<text x="{x(index):.1f}" y="{height - 8}" font-size="15" '
                     f'text-anchor="middle" fill="#777">{index}</text>')
    if target is not None:  # a game played for its deals has no line to draw
        parts += _target_line(session, target, y(target), left, right, at(pad_left + 6),
                              mirror)
    for number, name in enumerate(session.players):
        colour = PALETTE[number % len(PALETTE)]
        last = out_after.get(name, len(totals) - 1)
        start = first.get(name, 0)
        points = " ".join(f"{x(i):.1f},{y(t[name]):.1f}"
                          for i, t in enumerate(totals[:last + 1]) if i >= start)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" '
                     f'points="{points}"><title>{_e(name)}</title></polyline>')
        parts.append(f'<circle cx="{x(last):.1f}" cy="{y(totals[last][name]):.1f}" r="3.5" '
                     f'fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], css: str = "") -> str:
    # The box that scrolls a wide table sideways takes the keyboard's focus (the arrow
    # keys scroll it) and is named by the table's kind.
    label = _e(_("Rounds") if css == "rounds" else _("Standings"))
    out = [f'<div class="scroll" tabindex="0" role="region" aria-label="{label}">'
           f'<table class="{css}"><thead><tr>']
    out += [f"<th>{cell}</th>" for cell in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def to_html(session: Session) -> str:
    """The session as one self-contained page; in a right-to-left language a mirrored
    one (``<html dir="rtl">``: the tables, the chart and the legend run from the right)."""
    standings = session.standings
    session.rules.target(session.options)
    standing_rows = []
    for rank, name in ranked_players(session):
        css = ("winner" if name in standings.winners
               else "out" if name in standings.knocked_out or name in standings.left
               else "")
        standing_rows.append([str(rank), bdi(name), str(standings.totals[name]),
                              *(ltr(_e(margin(session, name))) for _ in margin_headings(session)),
                              f'<span class="{css}">{_e(_status(session, name))}</span>'])
    round_rows = html_round_cells(session)
    legend = "".join(
        f'<span><i style="background:{PALETTE[i % len(PALETTE)]}"></i>{bdi(name)}</span>'
        for i, name in enumerate(session.players)
    )
    role = _e(_(session.declaration.role_heading))
    options = describe_house_rules(session)
    headline = _e(_headline(session))
    played = played_text(session, at_the_table=True)
    heading = partial(pgettext, "table heading")
    each_cell = _e(_("Each cell: the deal's score, then the running total."))
    body = [
        "<!DOCTYPE html>",
        f"<html {html_language()}><head><meta charset=\"utf-8\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(session.label)} — scorekeeper</title>",
        f"<style>{CSS}</style></head><body><main>",
        f"<h1>{bdi(session.label)}</h1>",
        '<p class="meta">' + html_template(
            _("{game} · {players} · started {time}"), game=_e(session.rules.title),
            players=comma().join(bdi(name) for name in session.players),
            time=_e(readable_time(session.created, at_the_table=True)))
        + "<br>" + html_template(_("House rules: {options}"), options=ltr(_e(options)))
        + (f"<br>{_e(played)}" if played else "")
        + (f"<br>{bdi(roster_text(session))}" if session.roster else "") + "</p>",
        '<p class="note">' + html_template(_("Note: {note}"), note=bdi(session.note)) + "</p>"
        if session.note else "",
        f'<p class="{"winner" if standings.finished else ""}">{headline}</p>',
        *(f'<p class="note">{_e(note)}</p>' for note in standings.notes),
        "<h2>" + _e(_("Standings")) + "</h2>",
        _table(["#", *(_e(word) for word in (heading("Player"), heading("Total"),
                                             *margin_headings(session), heading("Status")))],
               standing_rows),
        "<h2>" + _e(_("Running totals")) + "</h2>",
        chart_svg(session),
        f'<p class="legend">{legend}</p>',
        "<h2>" + _e(_("Rounds")) + "</h2>",
        _table([_e(heading("Round")), _e(heading("Dealer")), role,
                *(bdi(n) for n in session.players)], round_rows, "rounds")
        if round_rows else "<p>" + _e(_("No rounds yet.")) + "</p>",
        f'<p class="meta">{each_cell}</p>',
        "".join("<p>" + html_template(_("Round {number}: {note}"), number=str(number),
                                      note=bdi(note)) + "</p>"
                for number, note in round_notes(session)),
        "</main></body></html>",
    ]
    return "\n".join(body) + "\n"
