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
from collections.abc import Callable, Sequence
from typing import Any

from scorekeeper.cli.export_formats import Format as Format  # re-exported
from scorekeeper.cli.render import describe_options, played_text, readable_time, round_notes
from scorekeeper.ranking import margin, margin_heading, ranked_players, status_word
from scorekeeper.session import Session
from scorekeeper.summary import summary_of
from scorekeeper.text import count, is_hidden, show_controls

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def export(session: Session, fmt: str) -> str:
    exporters: dict[str, Callable[[Session], str]] = {
        "json": to_json, "md": to_markdown, "csv": to_csv, "html": to_html,
    }
    return exporters[fmt](session)


def to_json(session: Session) -> str:
    return json_text(summary_of(session))


def json_text(data: object) -> str:
    """JSON with names as they are (UTF-8), except characters that act instead of being
    seen: those are written as JSON escapes (``\\u001b``), so the file reads back the same
    and no terminal it is printed to obeys them. ``json.dumps`` already escapes what is
    below U+0020; this adds DEL, the C1 controls, format characters and lone surrogates
    (which UTF-8 can't even encode)."""
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if text.replace("\n", "").isprintable():
        return text
    return "".join(_json_escape(ch) if ch != "\n" and is_hidden(ch) else ch for ch in text)


def _json_escape(character: str) -> str:
    units = character.encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{int.from_bytes(units[i:i + 2]):04x}" for i in range(0, len(units), 2))


_status = status_word  # the same word in every export


def _round_label(session: Session, summary: dict[str, Any]) -> str:
    caption = session.rules.caption(summary)
    label = caption.role
    if caption.suit:
        label += " " + SUIT_SYMBOLS.get(caption.suit, caption.suit)
    return label + (f" ({caption.failure})" if caption.failure else "")


def _round_failed(session: Session, summary: dict[str, Any]) -> bool:
    return bool(session.rules.caption(summary).failure)


def _running_totals(session: Session) -> list[dict[str, int]]:
    return session.standings.running_totals()


def _headline(session: Session) -> str:
    standings = session.standings
    if standings.finished:
        return f"Winner: {' and '.join(standings.winners)}"
    return f"In progress after {count(len(standings.rounds), 'round')}"


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
    standings = session.standings
    session.rules.target(session.options)
    options = describe_options(session.options)
    lines = [
        f"# {md(session.label)}",
        "",
        f"{session.rules.title} · {md(', '.join(session.players))} · started "
        f"{md(readable_time(session.created, at_the_table=True))}",
        f"House rules: {options}",
        *([played_text(session, at_the_table=True)] if played_text(session) else []),
        *([f"Note: {md(session.note)}"] if session.note else []),
        "",
        f"**{md(_headline(session))}**",
        "",
        "## Standings",
        "",
        f"| # | Player | Total | {margin_heading(session)} | Status |",
        "|---:|---|---:|---:|---|",
    ]
    for rank, name in ranked_players(session):
        lines.append(f"| {rank} | {md(name)} | {standings.totals[name]} | {margin(session, name)} "
                     f"| {_status(session, name)} |")
    lines += ["", "## Rounds", ""]
    if not standings.rounds:
        lines.append("No rounds yet.")
    else:
        role = session.declaration.role_heading
        lines.append(f"| Round | Dealer | {role} | " + " | ".join(md(n) for n in session.players)
                     + " |")
        lines.append("|---:|---|---|" + "---:|" * len(session.players))
        for summary, running in zip(standings.rounds, _running_totals(session), strict=True):
            cells = []
            for name in session.players:
                if name not in summary["scores"]:
                    cells.append("—")
                    continue
                cell = f"+{summary['scores'][name]} ({running[name]})"
                if name in summary.get("knocked_out", []):
                    cell += " out"
                cells.append(cell)
            lines.append(f"| {summary['number']} | {md(summary.get('dealer') or '—')} | "
                         f"{md(_round_label(session, summary))} | " + " | ".join(cells) + " |")
        lines += ["", "Each cell: the deal's score (running total)."]
        notes = round_notes(session)
        if notes:
            lines += ["", *(f"- Round {number}: {md(note)}" for number, note in notes)]
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
    """One row per round: who did what, then each player's score and running total."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    declaration = session.declaration
    head = ["round", "dealer", *declaration.csv_columns]
    for name in session.players:
        head += [f"{name} {declaration.value_column}", f"{name} score", f"{name} total"]
    notes = bool(round_notes(session))
    if notes:  # only then: a spreadsheet without notes keeps its columns
        head.append("note")
    writer.writerow([csv_cell(cell) for cell in head])
    for summary, running in zip(session.standings.rounds, _running_totals(session), strict=True):
        row: list[Any] = [summary["number"], summary.get("dealer") or ""]
        row += [_csv_value(summary.get(key)) for key in declaration.csv_columns]
        values = summary[declaration.values_key]
        for name in session.players:
            row += [values.get(name, ""), summary["scores"].get(name, ""), running[name]]
        if notes:
            row.append(summary.get("note", ""))
        writer.writerow([csv_cell(cell) for cell in row])
    return buffer.getvalue()


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
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.9rem;background:#fff}
th,td{padding:.3rem .35rem;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th{white-space:normal;vertical-align:bottom}
th:nth-child(-n+2),td:nth-child(-n+2){text-align:left}
.rounds th:nth-child(3),.rounds td:nth-child(3){text-align:left}
.out{color:#b42318}.false{color:#b42318;font-weight:600}.run{color:#777;font-size:.85em}
svg{width:100%;height:auto;background:#fff;border:1px solid #ddd}
.legend span{display:inline-block;margin-right:1rem;font-size:.9rem}
.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;border-radius:2px}
"""


def _e(text: object) -> str:
    return html.escape(show_controls(str(text)))


def html_round_cells(session: Session) -> list[list[str]]:
    """Each round's cells as HTML (number, dealer, caption, each player's score and running
    total), oldest first: the HTML export's grid and the live page's share them."""
    rows = []
    for summary, running in zip(session.standings.rounds, _running_totals(session),
                                strict=True):
        label = _e(_round_label(session, summary))
        if _round_failed(session, summary):
            label = f'<span class="false">{label}</span>'
        row = [str(summary["number"]), _e(summary.get("dealer") or "—"), label]
        for name in session.players:
            if name not in summary["scores"]:
                row.append("—")
                continue
            cell = f'+{summary["scores"][name]} <span class="run">{running[name]}</span>'
            if name in summary.get("knocked_out", []):
                cell += ' <span class="out">out</span>'
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


def chart_svg(session: Session) -> str:
    """Each player's running total after every round, with the limit or target as a line.

    A knocked-out player's line ends at the deal that knocked them out; the value axis is
    marked at round numbers."""
    totals = [dict.fromkeys(session.players, 0), *_running_totals(session)]
    out_after = {name: summary["number"] for summary in session.standings.rounds
                 for name in summary.get("knocked_out", [])}
    target = session.rules.target(session.options)
    width, height, pad_left, pad_right, pad_top, pad_bottom = 480, 280, 40, 12, 16, 30
    highest = max([target, *(max(t.values()) for t in totals)])
    step = nice_step(highest * 1.04)
    top_value = step * -(-highest * 1.04 // step)
    rounds = max(len(totals) - 1, 1)

    def x(index: int) -> float:
        return pad_left + (width - pad_left - pad_right) * index / rounds

    def y(value: float) -> float:
        return pad_top + (height - pad_top - pad_bottom) * (1 - value / top_value)

    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="Running totals over the rounds" xmlns="http://www.w3.org/2000/svg">']
    for value in range(0, int(top_value) + 1, step):
        parts.append(f'<line x1="{pad_left}" x2="{width - pad_right}" y1="{y(value):.1f}" '
                     f'y2="{y(value):.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{pad_left - 6}" y="{y(value) + 4:.1f}" font-size="15" '
                     f'text-anchor="end" fill="#777">{value}</text>')
    round_step = nice_step(rounds, most_ticks=10)
    for index in range(0, len(totals), round_step):
        parts.append(f'<text x="{x(index):.1f}" y="{height - 8}" font-size="15" '
                     f'text-anchor="middle" fill="#777">{index}</text>')
    label = "limit" if session.rules.lower_is_better else "target"
    parts.append(f'<line x1="{pad_left}" x2="{width - pad_right}" y1="{y(target):.1f}" '
                 f'y2="{y(target):.1f}" stroke="#b42318" stroke-dasharray="6 4"/>')
    parts.append(f'<text x="{pad_left + 6}" y="{y(target) - 6:.1f}" font-size="16" '
                 f'fill="#b42318">{label} {target}</text>')
    for number, name in enumerate(session.players):
        colour = PALETTE[number % len(PALETTE)]
        last = out_after.get(name, len(totals) - 1)
        points = " ".join(f"{x(i):.1f},{y(t[name]):.1f}" for i, t in enumerate(totals[:last + 1]))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" '
                     f'points="{points}"><title>{_e(name)}</title></polyline>')
        parts.append(f'<circle cx="{x(last):.1f}" cy="{y(totals[last][name]):.1f}" r="3.5" '
                     f'fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], css: str = "") -> str:
    out = [f'<div class="scroll"><table class="{css}"><thead><tr>']
    out += [f"<th>{cell}</th>" for cell in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def to_html(session: Session) -> str:
    standings = session.standings
    session.rules.target(session.options)
    standing_rows = []
    for rank, name in ranked_players(session):
        status = _status(session, name)
        css = "winner" if status == "winner" else "out" if status == "knocked out" else ""
        standing_rows.append([str(rank), _e(name), str(standings.totals[name]),
                              margin(session, name),
                              f'<span class="{css}">{status}</span>'])
    round_rows = html_round_cells(session)
    legend = "".join(
        f'<span><i style="background:{PALETTE[i % len(PALETTE)]}"></i>{_e(name)}</span>'
        for i, name in enumerate(session.players)
    )
    role = session.declaration.role_heading
    options = describe_options(session.options)
    headline = _e(_headline(session))
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(session.label)} — scorekeeper</title>",
        f"<style>{CSS}</style></head><body><main>",
        f"<h1>{_e(session.label)}</h1>",
        f'<p class="meta">{_e(session.rules.title)} · {_e(", ".join(session.players))} · '
        f"started {_e(readable_time(session.created, at_the_table=True))}"
        f"<br>House rules: {_e(options)}"
        + (f"<br>{_e(played_text(session, at_the_table=True))}" if played_text(session)
           else "") + "</p>",
        f'<p class="note">Note: {_e(session.note)}</p>' if session.note else "",
        f'<p class="{"winner" if standings.finished else ""}">{headline}</p>',
        "<h2>Standings</h2>",
        _table(["#", "Player", "Total", margin_heading(session), "Status"], standing_rows),
        "<h2>Running totals</h2>",
        chart_svg(session),
        f'<p class="legend">{legend}</p>',
        "<h2>Rounds</h2>",
        _table(["Round", "Dealer", role, *(_e(n) for n in session.players)], round_rows,
               "rounds")
        if round_rows else "<p>No rounds yet.</p>",
        '<p class="meta">Each cell: the deal\'s score, then the running total.</p>',
        "".join(f"<p>Round {number}: {_e(note)}</p>" for number, note in round_notes(session)),
        "</main></body></html>",
    ]
    return "\n".join(body) + "\n"
