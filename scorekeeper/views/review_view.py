"""How a review (``score review``) is shown: in the terminal, as Markdown, as HTML.

No Typer here: the command (``cli/review.py``) parses, :mod:`scorekeeper.review`
computes, this renders. Names, and every text that holds them (the positions), are
user text: plain rich Text in the terminal, escaped in Markdown and HTML.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from scorekeeper.card_printing import plain
from scorekeeper.i18n import _, ngettext
from scorekeeper.review import PlayerSummary, Review, ReviewedDecision
from scorekeeper.views.export import CSS, bdi, html_language, ltr, md, right_to_left
from scorekeeper.views.export import html_text as _e
from scorekeeper.views.render import Heading


def points(value: float) -> str:
    return f"{value:.1f}"


def kind_name(review: Review, kind: str) -> str:
    return _(review.coach.kinds.get(kind, kind))


def summary_line(review: Review, summary: PlayerSummary) -> str:
    """``4 mistakes, 12.5 points given away, most in declaring`` (``in 34 decisions``)."""
    decisions = ngettext("{n} decision", "{n} decisions", summary.decisions).format(
        n=summary.decisions)
    if not summary.mistakes:
        return _("no mistakes over {threshold} points in {decisions}").format(
            threshold=points(review.coach.threshold), decisions=decisions)
    line = ngettext("{n} mistake, {points} points given away",
                    "{n} mistakes, {points} points given away", summary.mistakes).format(
        n=summary.mistakes, points=points(summary.points_given_away))
    most = summary.most_in
    if most is not None and len(summary.by_kind) > 1:
        line = _("{line}, most in {kind}").format(line=line, kind=kind_name(review, most))
    elif most is not None:
        line = _("{line}, all in {kind}").format(line=line, kind=kind_name(review, most))
    return _("{line} ({decisions})").format(line=line, decisions=decisions)


def heading(review: Review) -> str:
    session = review.session
    return _("Review of {label} ({game}) by the {bot} bot").format(
        label=session.label, game=session.rules.title, bot=review.coach.evaluator)


def explanation(review: Review) -> str:
    return _("Each decision is weighed from what the player saw then (never the other "
             "hands). Points are {meaning}. A mistake gives away more than {threshold}.").format(
        meaning=_(review.coach.points_meaning), threshold=points(review.coach.threshold))


def player_title(review: Review, summary: PlayerSummary) -> str:
    who = summary.name if summary.bot is None else _("{name} (bot {level})").format(
        name=summary.name, level=summary.bot)
    return f"{who}: {summary_line(review, summary)}"


def played_line(reviewed: ReviewedDecision) -> str:
    d = reviewed.decision
    return _("Played: {played} ({points}). The bot: {best} ({best_points}); {loss} points "
             "given away.").format(played=d.played.text, points=points(d.played.points),
                                   best=d.best.text, best_points=points(d.best.points),
                                   loss=points(d.loss))


def where(review: Review, reviewed: ReviewedDecision) -> str:
    d = reviewed.decision
    return _("Deal {deal}, action {step}, {kind}").format(
        deal=reviewed.deal, step=d.step, kind=kind_name(review, d.kind))


def mistake_rows(review: Review, summary: PlayerSummary) -> list[list[str]]:
    rows = []
    for reviewed in review.decisions:
        d = reviewed.decision
        if d.player == summary.name and reviewed.mistake:
            rows.append([str(reviewed.deal), str(d.step), kind_name(review, d.kind),
                         f"{d.played.text} ({points(d.played.points)})",
                         f"{d.best.text} ({points(d.best.points)})", points(d.loss)])
    return rows


def mistake_head() -> list[str]:
    return [_("Deal"), _("Action"), _("Decision"), _("Played"), _("The bot"),
            _("Given away")]


# ---------------------------------------------------------------------------
# The terminal


def renderables(review: Review) -> RenderableType:
    parts: list[RenderableType] = [plain(heading(review), style="bold"),
                                   Text(explanation(review), style="dim")]
    if not review.session.rounds:
        parts.append(Text(_("No deal has been played yet: nothing to review.")))
    for summary in review.summaries:
        parts.append(Heading(plain(player_title(review, summary)), align="left"))
        rows = mistake_rows(review, summary)
        if rows:
            parts.append(Mistakes(rows))
        if summary.costliest:
            parts.append(Text(ngettext("The costliest, as the position was:",
                                       "The {n} costliest, as the position was:",
                                       len(summary.costliest)).format(
                n=len(summary.costliest)), style="bold"))
        for reviewed in summary.costliest:
            parts.append(_position(review, reviewed))
    return Group(*parts)


NARROW_REVIEW = 72
"""Below this width each mistake is a block of its own: the table's six columns would
cut every word to a letter or two ("Acti… Deci… disc…")."""


class Mistakes:
    """A player's mistakes: a table where it fits, else one block per decision."""

    def __init__(self, rows: Sequence[Sequence[str]]) -> None:
        self.rows = rows

    def __rich_console__(self, console: Console,
                         options: ConsoleOptions) -> Iterator[RenderableType]:
        head = mistake_head()
        if options.max_width >= NARROW_REVIEW:
            table = Table(show_edge=False, pad_edge=False)
            for index, column in enumerate(head):
                table.add_column(column, justify="right" if index in (0, 1, 5) else "left")
            for row in self.rows:
                table.add_row(*(plain(cell) for cell in row))
            yield table
            return
        for deal, step, kind, played, best, loss in self.rows:
            yield plain(_("Deal {deal}, action {step}, {kind}").format(
                deal=deal, step=step, kind=kind), style="bold")
            for label, value in ((head[3], played), (head[4], best), (head[5], loss)):
                yield Padding(plain(f"{label}: {value}"), (0, 0, 0, 2))


def _position(review: Review, reviewed: ReviewedDecision) -> RenderableType:
    d = reviewed.decision
    lines: list[RenderableType] = [plain(where(review, reviewed), style="bold")]
    for label, shown in d.position:
        lines.append(plain(f"  {label}: {shown}"))
    for note in d.notes:
        lines.append(plain(f"  {note}", style="dim"))
    lines.append(plain("  " + played_line(reviewed), style="yellow"))
    return Group(*lines)


# ---------------------------------------------------------------------------
# Markdown


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(md(cell) for cell in head) + " |",
             "|" + "|".join("---:" if i in (0, 1, 5) else "---" for i in range(len(head))) + "|"]
    lines += ["| " + " | ".join(md(cell) for cell in row) + " |" for row in rows]
    return lines


def to_markdown(review: Review) -> str:
    lines = ["# " + md(heading(review)), "", md(explanation(review)), ""]
    for summary in review.summaries:
        lines += ["## " + md(player_title(review, summary)), ""]
        rows = mistake_rows(review, summary)
        if rows:
            lines += [*_md_table(mistake_head(), rows), ""]
        for reviewed in summary.costliest:
            d = reviewed.decision
            lines += ["### " + md(where(review, reviewed)), ""]
            lines += [f"- {md(label)}: {md(shown)}" for label, shown in d.position]
            lines += [f"- {md(note)}" for note in d.notes]
            lines += [f"- **{md(played_line(reviewed))}**", ""]
    if right_to_left():
        lines = ['<div dir="rtl">', "", *lines, "", "</div>"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# HTML


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = ['<div class="scroll"><table><thead><tr>']
    out += [f"<th>{_e(cell)}</th>" for cell in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{ltr(_e(cell)) if i in (0, 1, 5) else bdi(cell)}</td>"
                                    for i, cell in enumerate(row)) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def to_html(review: Review) -> str:
    parts = [f"<h1>{bdi(heading(review))}</h1>", f'<p class="meta">{_e(explanation(review))}</p>']
    for summary in review.summaries:
        parts.append(f"<h2>{bdi(player_title(review, summary))}</h2>")
        rows = mistake_rows(review, summary)
        if rows:
            parts.append(_html_table(mistake_head(), rows))
        for reviewed in summary.costliest:
            d = reviewed.decision
            parts.append(f"<h3>{_e(where(review, reviewed))}</h3><ul>")
            parts += [f"<li>{_e(label)}: {bdi(shown)}</li>" for label, shown in d.position]
            parts += [f'<li class="meta">{bdi(note)}</li>' for note in d.notes]
            parts.append(f"<li><strong>{bdi(played_line(reviewed))}</strong></li></ul>")
    return "\n".join([
        "<!DOCTYPE html>",
        f'<html {html_language()}><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>" + _e(heading(review)) + "</title>",
        f"<style>{CSS}</style></head><body><main>",
        *parts,
        "</main></body></html>",
    ]) + "\n"
