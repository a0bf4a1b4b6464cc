"""``score import FILE.csv --game GAME``: past deals from a spreadsheet, each row entered
as if typed with ``score add-round``.

The header names the players and the game's round words: a column per player (``Ann``, or
``Ann`` and the game's value word, as ``score export --format csv`` writes it) holds what
``add-round`` takes after ``Ann=``; a column named after one of the game's round options
(its key, as in ``--KEY``) holds that option's value; ``dealer`` says who dealt (the first row's
dealer deals first; a later row's is checked against the rotation); ``note`` is the
deal's note. What an export adds to read it back (``round``, ``Ann score``,
``Ann total`` and the game's own derived columns) is checked against what the rules
make of the deal, so an export imports back to the same session. A ``joined or left
before`` column (an export's, when players joined, left or came back) holds the changes
made before that row's deal, made as ``add-player``/``drop-player`` make them; a row with
only that cell holds the changes after the last deal. Every row goes through the game's
own checks; the first refused names its line and column, and nothing is written.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.i18n import _, pgettext
from scorekeeper.kit.entries import EntryError, RoundEntry, name_key
from scorekeeper.kit.options import RoundOption
from scorekeeper.registry import declaration_of
from scorekeeper.session import Session

MAX_ROWS = 10_000
"""The most deals a file may hold (a long night has 40)."""

TRUE_WORDS = frozenset({"true", "yes", "y", "1", "x", "on", "ja", "j"})
FALSE_WORDS = frozenset({"false", "no", "n", "0", "", "off", "nej"})


def refused(line: int, column: str | None, reason: str) -> EntryError:
    if column is None:
        return EntryError(_("line {line}: {reason}").format(line=line, reason=reason))
    return EntryError(_("line {line}, column {column}: {reason}").format(
        line=line, column=repr(column), reason=reason))


@dataclass
class Columns:
    """What each column of the header holds."""

    players: list[tuple[int, str]] = field(default_factory=list)
    options: list[tuple[int, RoundOption]] = field(default_factory=list)
    scores: list[tuple[int, str]] = field(default_factory=list)
    totals: list[tuple[int, str]] = field(default_factory=list)
    dealer: int | None = None
    note: int | None = None
    roster: int | None = None
    header: list[str] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [name for _index, name in self.players]


def _words(context: str, english: str) -> set[str]:
    """A column's name in English and in the run's language, folded for comparing."""
    return {english.casefold(), pgettext(context, english).casefold()}


def _templates(english: str) -> list[tuple[str, str]]:
    """``{name} score`` in English and in the run's language, as the words before and
    after the name, folded."""
    found = []
    for template in (english, _(english)):
        before, _brace, after = template.casefold().partition("{name}")
        if (before, after) not in found:
            found.append((before, after))
    return found


def _named(heading: str, templates: Sequence[tuple[str, str]]) -> str | None:
    """The name in ``Ann score`` (a heading made by one of ``templates``)."""
    folded = heading.casefold()
    for before, after in templates:
        if folded.startswith(before) and folded.endswith(after) \
                and len(folded) > len(before) + len(after):
            return heading[len(before):len(heading) - len(after)].strip()
    return None


def read_header(game: str, header: Sequence[str]) -> Columns:
    declaration = declaration_of(game)
    options = {spelling: option for option in declaration.round_options
               for spelling in (option.key, option.key.replace("_", "-"), option.flag)}
    derived = {key.casefold() for key in declaration.csv_columns} - set(options)
    value_words = [("", " " + declaration.value_column.casefold())]
    score_words = _templates("{name} score")
    total_words = _templates("{name} total")
    columns = Columns(header=list(header))
    seen: dict[str, str] = {}
    for index in range(len(header)):
        heading = cell_text(header, index)
        folded = heading.casefold()
        if folded in _words("CSV column", "round") or folded in derived:
            continue
        if folded in _words("CSV column", "dealer"):
            columns.dealer = index
        elif folded in _words("CSV column", "note"):
            columns.note = index
        elif folded in _words("CSV column", "joined or left before"):
            columns.roster = index
        elif folded in options:
            columns.options.append((index, options[folded]))
        elif (name := _named(heading, score_words)) is not None:
            columns.scores.append((index, name))
        elif (name := _named(heading, total_words)) is not None:
            columns.totals.append((index, name))
        else:
            name = _named(heading, value_words) or heading
            if not name:
                raise refused(1, heading, _("a column needs a heading: a player's name or "
                                            "one of the game's round words"))
            if name_key(name) in seen:
                raise refused(1, heading, _("{name} has two columns").format(
                    name=seen[name_key(name)]))
            seen[name_key(name)] = name
            columns.players.append((index, name))
    for index, name in (*columns.scores, *columns.totals):
        if name_key(name) not in seen:
            raise refused(1, header[index].strip(), _("{name} has no column of their own "
                                                       "for what they scored").format(name=name))
    return columns


def _option_value(option: RoundOption, cell: str, line: int, heading: str) -> Any:
    if option.kind == "switch":
        word = cell.casefold()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise refused(line, heading, _("{value} is not yes or no").format(value=repr(cell)))
    if not cell:
        return None
    if option.kind == "number":
        try:
            return int(cell)
        except ValueError:
            raise refused(line, heading, _("{value} is not a whole number").format(
                value=repr(cell))) from None
    return cell


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What ``score export --format csv`` quotes with a leading ``'`` (views/export.py)."""


def cell_text(row: Sequence[str], index: int) -> str:
    """A cell's text, without the quote an export put before what a spreadsheet would run."""
    text = row[index].strip() if index < len(row) else ""
    return text[1:] if text.startswith("'") and text[1:2] in FORMULA_STARTS else text


def entry_of_row(columns: Columns, row: Sequence[str], line: int) -> tuple[RoundEntry, str]:
    """The row as ``add-round`` would take it, and its note."""
    def cell(index: int) -> str:
        return cell_text(row, index)

    values = [(name, cell(index)) for index, name in columns.players if cell(index)]
    fields = {option.key: _option_value(option, cell(index), line,
                                        columns.header[index].strip())
              for index, option in columns.options}
    note = cell(columns.note) if columns.note is not None else ""
    return RoundEntry(values, **fields), note


def _change_patterns(names: Sequence[str]) -> list[tuple[re.Pattern[str], str, str]]:
    """Each way a roster cell may say a change (``Dan joined at 27``, ``Bob left``, ``Bob
    came back``: :meth:`RosterChange.describe`, in English and in the run's language), as
    a pattern matching it at the start of what is left of the cell, with the player and
    the kind of change."""
    found: list[tuple[re.Pattern[str], str, str]] = []
    for english, kind in (("{name} joined at {total}", "join"), ("{name} left", "leave"),
                          ("{name} came back", "back")):
        for template in dict.fromkeys((english, _(english))):
            for name in sorted(names, key=len, reverse=True):
                pattern = re.escape(template).replace(re.escape("{name}"), re.escape(name))
                pattern = pattern.replace(re.escape("{total}"), r"(?P<total>[+-]?[0-9]{1,7})")
                found.append((re.compile(pattern + r"(?:;\s*|$)", re.IGNORECASE), name, kind))
    return found


def roster_of_cell(text: str, patterns: Sequence[tuple[re.Pattern[str], str, str]],
                   line: int, heading: str) -> list[tuple[str, str, int | None]]:
    """The changes a ``joined or left before`` cell says, in order, as (kind, name,
    total): kind ``join`` (with its total), ``leave`` or ``back`` (``patterns``: the
    :func:`_change_patterns` of the header's players)."""
    changes: list[tuple[str, str, int | None]] = []
    rest = text.strip()
    while rest:
        for pattern, name, kind in patterns:
            if (match := pattern.match(rest)) is not None:
                total = int(match["total"]) if kind == "join" else None
                changes.append((kind, name, total))
                rest = rest[match.end():].strip()
                break
        else:
            raise refused(line, heading, _(
                "{text} is not a change of players: each is 'NAME joined at N', 'NAME left' "
                "or 'NAME came back', separated by ';', naming a player of the header")
                .format(text=repr(rest)))
    return changes


def _apply_roster(session: Session, changes: Sequence[tuple[str, str, int | None]],
                  line: int, heading: str) -> Session:
    """The session with the changes made, each as ``score add-player`` / ``drop-player``
    makes it (a player who left and comes back keeps their seat and total)."""
    for kind, name, total in changes:
        try:
            if kind == "leave":
                session = session.drop_player(name)
            else:
                session = session.add_player(name, total)
        except EntryError as error:
            raise refused(line, heading, str(error)) from None
    return session


def _blame(columns: Columns, reason: str) -> str | None:
    """The column a refusal speaks of, when it names a player or a round word."""
    for index, option in columns.options:
        if option.flag in reason or option.key in reason:
            return columns.header[index].strip()
    for index, name in columns.players:
        if name in reason:
            return columns.header[index].strip()
    return None


def _check_figures(session: Session, columns: Columns, row: Sequence[str], line: int) -> None:
    """The row's dealer, scores and totals, where given, are what the rules make them."""
    summary = session.standings.rounds[-1]
    running = session.standings.running_totals()[-1]

    def cell(index: int) -> str:
        return cell_text(row, index)

    if columns.dealer is not None and cell(columns.dealer) and summary.dealer is not None \
            and name_key(cell(columns.dealer)) != name_key(summary.dealer):
        raise refused(line, columns.header[columns.dealer].strip(), _(
            "{dealer} deals this deal by the rotation, not {given}").format(
            dealer=summary.dealer, given=cell(columns.dealer)))
    for figures, expected in ((columns.scores, summary.scores), (columns.totals, running)):
        for index, typed in figures:
            name = next((n for n in expected if name_key(n) == name_key(typed)), None)
            given = cell(index)
            if not given or (name is None and expected is running
                             and typed not in session.players):
                continue  # (a late player's total, before they join, is theirs to come)
            made = expected.get(name, "") if name is not None else ""
            if given != str(made):
                raise refused(line, columns.header[index].strip(), _(
                    "the rules make it {made}, not {given}").format(
                    made=made if made != "" else _("nothing"), given=given))


def read_rows(text: str) -> list[tuple[int, list[str]]]:
    """The file's rows with their line numbers; blank rows left out."""
    reader = csv.reader(io.StringIO(text))
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((reader.line_num, row))
            if len(rows) > MAX_ROWS + 1:
                raise EntryError(_("the file holds more than {count} deals").format(
                    count=MAX_ROWS))
    except csv.Error as error:
        raise refused(reader.line_num, None, _("not CSV: {reason}").format(
            reason=error)) from None
    if not rows:
        raise EntryError(_("the file is empty: a CSV file starts with a header of the "
                           "players' names"))
    return rows


def _roster_cells(columns: Columns, deals: Sequence[tuple[int, list[str]]]
                  ) -> dict[int, list[tuple[str, str, int | None]]]:
    """Line -> the changes of players its ``joined or left before`` cell says."""
    if columns.roster is None:
        return {}
    heading = columns.header[columns.roster].strip()
    patterns = _change_patterns(columns.names)
    return {line: roster_of_cell(text, patterns, line, heading)
            for line, row in deals if (text := cell_text(row, columns.roster))}


def _late_players(changes: Mapping[int, Sequence[tuple[str, str, int | None]]]) -> set[str]:
    """The players whose first change is a join: not at the table when it started."""
    first: dict[str, str] = {}
    for line in sorted(changes):
        for kind, name, _total in changes[line]:
            first.setdefault(name, kind)
    return {name for name, kind in first.items() if kind == "join"}


def session_from_csv(text: str, game: str, options: Mapping[str, object], *,
                     name: str = "",
                     dealer: str | None = None) -> Session:
    """The session the file's deals make, every deal checked by the game's rules."""
    rows = read_rows(text)
    (_header_line, header), deals = rows[0], rows[1:]
    columns = read_header(game, header)
    if not deals:
        raise EntryError(_("the file has a header but no deal"))
    if dealer is None and columns.dealer is not None:
        first = deals[0][1]
        dealer = first[columns.dealer].strip() or None if columns.dealer < len(first) else None
    changes = _roster_cells(columns, deals)
    late = _late_players(changes)
    session = Session.new(game, [player for player in columns.names if player not in late],
                          name=name, options=dict(options),
                          dealer=dealer)  # the players of the header, the house rules
    roster_heading = columns.header[columns.roster].strip() if columns.roster is not None \
        else ""
    for line, row in deals:
        if len(row) > len(header):
            raise refused(line, None, _("{count} cells, but the header has {columns}").format(
                count=len(row), columns=len(header)))
        if line in changes:
            session = _apply_roster(session, changes[line], line, roster_heading)
            if not any(cell_text(row, index) for index in range(len(row))
                       if index != columns.roster):
                continue  # the changes made after the last deal: a row with no deal
        entry, note = entry_of_row(columns, row, line)
        try:
            session = session.add_round(entry, note=note)
        except EntryError as error:
            raise refused(line, _blame(columns, str(error)), str(error)) from None
        _check_figures(session, columns, row, line)
    return session
