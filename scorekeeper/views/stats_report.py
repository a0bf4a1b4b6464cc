"""``score stats`` shown: rich tables for the terminal, Markdown, and an HTML page.

:func:`stats_page` and :func:`stats_json` are pure (sessions in, text or data out) so
``score serve`` can show the same page. Every name is user text: plain ``Text`` in
the terminal, escaped in Markdown and HTML.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from scorekeeper import i18n
from scorekeeper.card_printing import plain
from scorekeeper.i18n import N_, _, ngettext, pgettext
from scorekeeper.kit.rounds import JSONObject
from scorekeeper.kit.standings import StatFigure
from scorekeeper.session import Session
from scorekeeper.stats import (
    GameStats,
    PlayerRecord,
    Stats,
    StatsQuery,
    as_json,
    compute,
    ranked_ratings,
)
from scorekeeper.store import StoreView
from scorekeeper.views import render


def stats_json(sessions: Sequence[Session], query: StatsQuery | None = None) -> JSONObject:
    return as_json(compute(sessions, query))


def stats_page(sessions: Sequence[Session], query: StatsQuery | None = None) -> str:
    return to_html(compute(sessions, query))


def store_page(view: StoreView) -> str:
    """The statistics of every session in the store as the body of a page (score serve)."""
    return html_body(compute(view.sessions()), on_page=True)


# ---------------------------------------------------------------------------
# Numbers


def number(value: float | None, digits: int = 2) -> str:
    """A figure as the language writes it (``2.33``, Danish ``2,33``), whole numbers bare."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return str(int(value))
    if i18n.active_language() == i18n.ENGLISH:
        return f"{value:.{digits}f}"
    return i18n.format_number(value, digits)


def percent(value: float | None) -> str:
    if value is None:
        return "—"
    if i18n.active_language() == i18n.ENGLISH:
        return f"{value * 100:.0f} %"
    return i18n.format_percent(value, 0)


def decimal(value: float) -> str:
    """A rating's figure, one decimal (``12.3``, Danish ``12,3``)."""
    if i18n.active_language() == i18n.ENGLISH:
        return f"{value:.1f}"
    return i18n.format_number(value, 1)


def figure_text(game: GameStats, key: str, figure: StatFigure) -> str:
    value = game.figure(key, figure)
    return percent(value) if figure.percent else number(value)


def sessions_text(count: int) -> str:
    return ngettext("{n} session", "{n} sessions", count).format(n=count)


def headline(stats: Stats, *, on_page: bool = False) -> str:
    per_game = render.comma().join(f"{game.title} {game.sessions}" for game in stats.games)
    text = ngettext("Statistics over {n} finished session", "Statistics over {n} finished sessions",
                    stats.finished).format(n=stats.finished)
    if per_game:
        text = _("{statistics} ({per_game})").format(statistics=text, per_game=per_game)
    text = _("{statistics}; left out: {abandoned} abandoned, {unfinished} unfinished").format(
        statistics=text, abandoned=stats.abandoned, unfinished=stats.unfinished)
    if stats.query.virtual:
        return _("{statistics}; virtual games counted, their bots listed apart").format(
            statistics=text)
    if stats.virtual_left_out and on_page:  # a phone can't add --virtual
        return ngettext("{statistics}; {n} game played on the virtual deck not counted",
                        "{statistics}; {n} games played on the virtual deck not counted",
                        stats.virtual_left_out).format(statistics=text,
                                                       n=stats.virtual_left_out)
    if stats.virtual_left_out:
        return ngettext("{statistics}; {n} virtual game not counted (--virtual adds it)",
                        "{statistics}; {n} virtual games not counted (--virtual adds them)",
                        stats.virtual_left_out).format(statistics=text,
                                                       n=stats.virtual_left_out)
    return text


PLAYER_HEAD = (N_("Player"), N_("Games"), N_("Wins"), N_("Win %"), N_("95 % CI"), N_("Place"),
               N_("Streak"), N_("Best"), N_("Last 10"))


def player_head() -> list[str]:
    return [_(word) for word in PLAYER_HEAD]


def shown_name(stats: Stats, key: str) -> str:
    """A name as the tables show it: a bot's seat says it is a bot."""
    if key in {bot.key for bot in stats.bots}:
        return _("{name} (bot)").format(name=stats.names[key])
    return stats.names[key]


def player_rows(stats: Stats, bots: bool = False) -> list[list[str]]:
    """The people's rows, best record first; with ``bots``, the bots' (by name)."""
    rows = []
    for player in stats.bots if bots else stats.players:
        low, high = player.ci95
        rows.append([player.name, str(player.games), number(player.wins), percent(player.win_rate),
                     f"{low * 100:.0f}–{high * 100:.0f}", number(player.average_place),
                     str(player.current_streak), str(player.longest_streak), player.sparkline])
    return rows


RECORD_WORDS = frozenset({3, 4, 5})
"""The record's columns of words (the favourite, the best game, the day)."""


def record_head() -> list[str]:
    return [pgettext("table heading", "Player"), pgettext("table heading", "Played"),
            pgettext("table heading", "Unfinished"), pgettext("table heading", "Favourite"),
            pgettext("table heading", "Best game"), pgettext("table heading", "Last played")]


def _record_name(record: PlayerRecord) -> str:
    return record.name if record.bot is None else _("{name} (bot)").format(name=record.name)


def record_rows(stats: Stats) -> list[list[str]]:
    """Each person's record across games (most wins first), then each bot's: what they
    played, their favourite and best game, the day they last played."""
    rows = []
    for record in [*stats.records, *stats.bot_records]:
        favourite, best, last = record.favourite, record.best, record.last
        day = last.day if last is not None else None
        rows.append([_record_name(record), str(record.played), str(record.unfinished),
                     favourite.title if favourite else "—", best.title if best else "—",
                     day.isoformat() if day else "—"])
    return rows


def by_game_head(stats: Stats) -> list[str]:
    return [pgettext("table heading", "Player"), *(title for _game, title in stats.record_games)]


def by_game_rows(stats: Stats) -> list[list[str]]:
    """Per player (as :func:`record_rows`) and game, their wins over the game's finished
    sessions; ``—`` for a game they never sat down to."""
    rows = []
    for record in [*stats.records, *stats.bot_records]:
        row = [_record_name(record)]
        for game, _title in stats.record_games:
            played = record.games.get(game)
            row.append("—" if played is None else f"{number(played.wins)}/{played.finished}")
        rows.append(row)
    return rows


def record_tables(stats: Stats) -> list[tuple[str, list[str], list[list[str]], str,
                                              frozenset[int]]]:
    """The record across games as two tables, each narrow enough for most screens:
    (title, head, rows, note, columns of words); none when nobody has played."""
    if not stats.records and not stats.bot_records:
        return []
    return [(_("Across games"), record_head(), record_rows(stats), _(RECORD_NOTE),
             RECORD_WORDS),
            (_("Wins by game"), by_game_head(stats), by_game_rows(stats), _(BY_GAME_NOTE),
             frozenset())]


def game_head(game: GameStats) -> list[str]:
    return [_("Player"), _("Games"), *(_(figure.label) for figure in game.figures), _("Rating"),
            "μ", "σ"]


def game_rows(stats: Stats, game: GameStats) -> list[list[str]]:
    """The people by rating, then the bots by rating: a bot is never ranked among them."""
    people = {player.key for player in stats.players}
    bots = {player.key for player in stats.bots}
    ranked = ranked_ratings(game)
    rows = []
    for key, history in [*((k, h) for k, h in ranked if k in people),
                         *((k, h) for k, h in ranked if k in bots)]:
        last = history[-1]
        rows.append([shown_name(stats, key), str(len(history)),
                     *(figure_text(game, key, figure) for figure in game.figures),
                     decimal(last.ordinal), decimal(last.mu), decimal(last.sigma)])
    return rows


def versus_rows(stats: Stats) -> tuple[list[str], list[list[str]]]:
    """The people's rows; the columns the people's, then the bots' (how the people did
    against them)."""
    keys = [player.key for player in stats.everyone]
    head = ["", *(shown_name(stats, key) for key in keys)]
    rows = []
    for a in (player.key for player in stats.players):
        row = [shown_name(stats, a)]
        for b in keys:
            met = stats.met.get(a, {}).get(b, 0)
            row.append("—" if a == b or not met else f"{stats.ahead.get(a, {}).get(b, 0)}/{met}")
        rows.append(row)
    return head, rows


def figures_note(game: GameStats) -> str:
    return _("{figures}.").format(figures="; ".join(
        _("{label}: {meaning}").format(label=_(figure.label), meaning=_(figure.meaning))
        for figure in game.figures))


RATING_NOTE = N_("Rating: openskill Plackett–Luce, μ − 3σ (a newcomer starts at 0; it rises "
                 "as results come in and σ shrinks).")
VERSUS_NOTE = N_("Each cell: the games the row's player finished ahead of the column's / both "
                 "played.")
BOTS_NOTE = N_("The bots' seats in virtual games: listed apart, never ranked among the "
               "people.")
SPARK_NOTE = N_("Wins: a shared win counts 1/k. Place: the average. Streak: wins in a row now, "
                "and the best run. Last 10: oldest first; a full bar is a win, the lowest "
                "bar last place.")


RECORD_NOTE = N_("Played: every session sat in, unfinished ones included (never a win); "
                 "abandoned ones left out. Favourite: the game played most. Best game: the "
                 "best win rate, of two games or more. Last played: the day the latest "
                 "session started.")
BY_GAME_NOTE = N_("Each cell: wins / finished sessions of the game (a shared win counts "
                  "1/k); — never played it.")


def game_heading(game: GameStats) -> str:
    return _("{game} ({sessions})").format(game=game.title, sessions=sessions_text(game.sessions))


# ---------------------------------------------------------------------------
# The terminal


class _TableOrCards:
    """A table when it fits the terminal, every cell whole; else (a phone in portrait)
    one short block per row: the name, then each figure with its heading
    (``Win %: 50 %``), as many to a line as fit, a figure never broken over two lines.
    Chosen when printed, at the console's width."""

    def __init__(self, title: str, head: Sequence[str], rows: Sequence[Sequence[str]],
                 caption: str | None, words: frozenset[int] = frozenset()) -> None:
        self.title, self.head, self.rows, self.caption = title, head, rows, caption
        self.words = words | {0}
        """The columns of words, not figures: aligned to the start."""

    def table(self) -> Table:
        # a game's title may be the group's own (a TOML file): text, never markup
        table = Table(title=plain(self.title), title_justify="left", caption=self.caption,
                      caption_justify="left")
        for index, column in enumerate(self.head):
            table.add_column(plain(column), justify="left" if index in self.words else "right")
        for row in self.rows:
            table.add_row(*(plain(cell) for cell in row))  # names are data, never markup
        return table

    def cards(self, width: int) -> Group:
        parts: list[RenderableType] = [plain(self.title, style="italic")]
        for row in self.rows:
            parts.append(plain(row[0], style="bold"))
            line = Text("  ")
            for heading, cell in zip(self.head[1:], row[1:], strict=True):
                # TRANSLATORS: a figure and its heading in the narrow statistics
                item = _("{label}: {meaning}").format(label=heading, meaning=cell)
                if len(line) > 2 and len(line) + 2 + len(item) > width:
                    parts.append(line)
                    line = Text("  ")
                elif len(line) > 2:
                    line.append("  ")
                line.append(item)
            if len(line) > 2:
                parts.append(line)
        if self.caption:
            parts.append(Text(self.caption, style="dim italic"))
        return Group(*parts)

    def widest(self, console: Console, options: ConsoleOptions) -> int:
        """The table's width with every cell whole: what rich measures of it (the widest
        cell of each column, padded by one each side, and a rule between columns and at
        each edge), without laying the whole table out twice to learn it (rich's measure
        of a table works out its columns' widths, then measures them again)."""
        unbounded = options.update(width=10_000, max_width=10_000)
        columns = [[plain(heading)] for heading in self.head]
        for row in self.rows:
            for column, cell in zip(columns, row, strict=True):
                column.append(plain(cell))
        return sum(max(Measurement.get(console, unbounded, cell).maximum for cell in column) + 2
                   for column in columns) + len(columns) + 1

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.widest(console, options) <= options.max_width:
            yield self.table()
        else:
            yield self.cards(options.max_width)


def _rich_table(title: str, head: Sequence[str], rows: Sequence[Sequence[str]],
                caption: str | None = None, words: frozenset[int] = frozenset()
                ) -> _TableOrCards:
    return _TableOrCards(title, head, rows, caption, words)


def renderables(stats: Stats, versus: bool) -> RenderableType:
    parts: list[RenderableType] = [Text(headline(stats), style="bold")]
    records = [_rich_table(*table) for table in record_tables(stats)]
    if not stats.everyone:
        parts.append(Text(_("No finished sessions match: statistics count finished games "
                            "only.")))
        return Group(*parts, *records)
    if stats.players:
        parts.append(_rich_table(_("Players"), player_head(), player_rows(stats),
                                 _(SPARK_NOTE)))
    if stats.bots:
        parts.append(_rich_table(_("Bots"), player_head(), player_rows(stats, bots=True),
                                 _(BOTS_NOTE)))
    parts += records
    for game in stats.games:
        rows = game_rows(stats, game)
        if rows:
            parts.append(_rich_table(game_heading(game), game_head(game), rows,
                                     f"{figures_note(game)} {_(RATING_NOTE)}"))
    if versus:
        head, rows = versus_rows(stats)
        parts.append(_rich_table(_("Head to head"), head, rows, _(VERSUS_NOTE)))
    return Group(*parts)


# ---------------------------------------------------------------------------
# Markdown


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    from scorekeeper.views.export import md  # --format only: stats on a terminal loads no export

    lines = ["| " + " | ".join(md(cell) or " " for cell in head) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"]
    lines += ["| " + " | ".join(md(cell) for cell in row) + " |" for row in rows]
    return lines


def to_markdown(stats: Stats, versus: bool) -> str:
    from scorekeeper.views.export import right_to_left  # md/html only

    lines = ["# " + _("Game nights"), "", headline(stats), ""]
    if stats.everyone:
        lines += ["## " + _("Players"), "", *_md_table(player_head(), player_rows(stats)), "",
                  _(SPARK_NOTE), ""]
        if stats.bots:
            lines += ["## " + _("Bots"), "",
                      *_md_table(player_head(), player_rows(stats, bots=True)), "",
                      _(BOTS_NOTE), ""]
    for title, head, rows, note, _words in record_tables(stats):
        lines += ["## " + title, "", *_md_table(head, rows), "", note, ""]
    if stats.everyone:
        for game in stats.games:
            rows = game_rows(stats, game)
            if rows:
                lines += ["## " + game_heading(game), "",
                          *_md_table(game_head(game), rows), "", figures_note(game),
                          _(RATING_NOTE), ""]
        if versus:
            head, rows = versus_rows(stats)
            lines += ["## " + _("Head to head"), "", *_md_table(head, rows), "",
                      _(VERSUS_NOTE), ""]
    if right_to_left():  # Markdown has no direction: GitHub honours the HTML around it
        lines = [f'<div dir="rtl" lang="{i18n.active_language()}">', "", *lines, "", "</div>"]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# HTML


def _keep_percent(html_text: str) -> str:
    """A number and its ``%`` (``50 %``, ``95 % CI``) never on two lines."""
    return html_text.replace(" %", "\u00a0%")


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]],
                words: frozenset[int] = frozenset(), *, label: str = "") -> str:
    """A table in a box that scrolls sideways on a phone: the box takes the keyboard's
    focus (the arrow keys scroll it) and is named by ``label`` (its heading)."""
    from scorekeeper.views.export import bdi, ltr  # md/html only
    from scorekeeper.views.export import html_text as _e  # md/html only

    named = f' aria-label="{_e(label)}"' if label else ""
    out = [f'<div class="scroll" tabindex="0" role="region"{named}>'
           '<table class="stats"><thead><tr>']
    word = ' class="word"'
    out += [f"<th{word if index in words else ''}>{_keep_percent(bdi(cell))}</th>"
            for index, cell in enumerate(head)]
    out.append("</tr></thead><tbody>")
    for row in rows:  # the first cell a name, the others figures (or ``words``)
        out.append("<tr>" + "".join(
            f'<td class="word">{bdi(cell)}</td>' if index in words
            else f"<td>{bdi(cell) if index == 0 else ltr(_keep_percent(_e(cell)))}</td>"
            for index, cell in enumerate(row)) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def rating_chart(stats: Stats, game: GameStats) -> str:
    """Each shown player's rating after each session of the game, in the order played."""
    from scorekeeper.views.export import PALETTE, bdi, right_to_left  # md/html only
    from scorekeeper.views.export import html_text as _e  # md/html only

    shown = [player.key for player in stats.players if player.key in game.ratings]
    # a player keeps one colour in every chart of the page
    colours = {player.key: PALETTE[index % len(PALETTE)]
               for index, player in enumerate(stats.players)}
    sessions = game.played
    position = {sid: index + 1 for index, sid in enumerate(sessions)}
    values = [p.ordinal for key in shown for p in game.ratings[key]] or [0.0]
    low, high = min(0.0, min(values)), max(1.0, max(values))
    span = high - low or 1.0
    width, height, pad_left, pad_right, pad_top, pad_bottom = 480, 260, 40, 12, 14, 28
    count = max(len(sessions), 1)
    mirror = right_to_left()  # the sessions run from the right, the value axis on the right

    def x(index: float) -> float:
        across = pad_left + (width - pad_left - pad_right) * index / count
        return width - across if mirror else across

    def at(offset: float) -> float:
        return width - offset if mirror else offset

    def y(value: float) -> float:
        return pad_top + (height - pad_top - pad_bottom) * (1 - (value - low) / span)

    described = _e(_("{game} ratings after each session").format(game=game.title))
    direction = ' direction="ltr"' if mirror else ""
    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{described}"'
             f'{direction} xmlns="http://www.w3.org/2000/svg">']
    left, right = sorted((at(pad_left), at(width - pad_right)))
    anchor = "start" if mirror else "end"
    for step in range(5):
        value = low + span * step / 4
        parts.append(f'<line x1="{left}" x2="{right}" y1="{y(value):.1f}" '
                     f'y2="{y(value):.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{at(pad_left - 6)}" y="{y(value) + 4:.1f}" font-size="14" '
                     f'text-anchor="{anchor}" fill="#777">{round(value)}</text>')
    for index in range(count + 1):
        if count <= 20 or index % max(1, count // 10) == 0:
            parts.append(f'<text x="{x(index):.1f}" y="{height - 8}" font-size="14" '
                         f'text-anchor="middle" fill="#777">{index}</text>')
    for key in shown:
        colour = colours[key]
        points = [(0, 0.0)] + [(position[p.session_id], p.ordinal) for p in game.ratings[key]]
        line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" '
                     f'points="{line}"><title>{_e(stats.names[key])}</title></polyline>')
        last_x, last_y = points[-1]
        parts.append(f'<circle cx="{x(last_x):.1f}" cy="{y(last_y):.1f}" r="3.5" '
                     f'fill="{colour}"/>')
    parts.append("</svg>")
    # swatches drawn in SVG, not inline style: score serve's page allows no inline CSS
    legend = "".join(f'<span><svg class="swatch" width="12" height="12" aria-hidden="true">'
                     f'<rect width="12" height="12" rx="2" fill="{colours[key]}"/></svg> '
                     f"{bdi(stats.names[key])}</span>" for key in shown)
    return "".join(parts) + f'<p class="legend">{legend}</p>'


def html_body(stats: Stats, versus: bool = True, *, on_page: bool = False) -> str:
    """The page's content (no <html> around it), for ``score serve`` to embed
    (``on_page``: read on a phone, where no command-line option can be added)."""
    from scorekeeper.views.export import html_text as _e  # md/html only

    parts = ["<h1>" + _e(_("Game nights"))
             + f'</h1><p class="meta">{_e(headline(stats, on_page=on_page))}</p>']
    records = [part for title, head, rows, note, words in record_tables(stats)
               for part in ("<h2>" + _e(title) + "</h2>",
                            _html_table(head, rows, words, label=title),
                            f'<p class="meta">{_e(note)}</p>')]
    if not stats.everyone:
        parts += ["<p>" + _e(_("No finished sessions match.")) + "</p>", *records]
        return "\n".join(parts)
    parts += ["<h2>" + _e(_("Players")) + "</h2>",
              _html_table(player_head(), player_rows(stats), label=_("Players")),
              f'<p class="meta">{_e(_(SPARK_NOTE))}</p>']
    if stats.bots:
        parts += ["<h2>" + _e(_("Bots")) + "</h2>",
                  _html_table(player_head(), player_rows(stats, bots=True), label=_("Bots")),
                  f'<p class="meta">{_e(_(BOTS_NOTE))}</p>']
    parts += records
    for game in stats.games:
        rows = game_rows(stats, game)
        if not rows:
            continue
        parts += [f"<h2>{_e(game_heading(game))}</h2>",
                  _html_table(game_head(game), rows, label=game_heading(game)),
                  f'<p class="meta">{_e(figures_note(game))}</p>',
                  "<h3>" + _e(_("{game}: rating after each session").format(game=game.title))
                  + "</h3>",
                  rating_chart(stats, game), f'<p class="meta">{_e(_(RATING_NOTE))}</p>']
    if versus:
        head, rows = versus_rows(stats)
        parts += ["<h2>" + _e(_("Head to head")) + "</h2>",
                  _html_table(head, rows, label=_("Head to head")),
                  f'<p class="meta">{_e(_(VERSUS_NOTE))}</p>']
    return "\n".join(parts)


def to_html(stats: Stats, versus: bool = True) -> str:
    from scorekeeper.views.export import CSS, html_language  # md/html only
    from scorekeeper.views.export import html_text as _e  # md/html only

    return "\n".join([
        "<!DOCTYPE html>",
        f'<html {html_language()}><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>" + _e(_("Game nights — scorekeeper")) + "</title>",
        f"<style>{CSS}</style></head><body><main>",
        html_body(stats, versus),
        "</main></body></html>",
    ]) + "\n"
