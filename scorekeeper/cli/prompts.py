"""Asking at a terminal for what a round lacks, one answer at a time.

Each answer is checked as it is typed, with the same rules and messages as the
command line (the game's :meth:`~scorekeeper.kit.standings.TableGame.next_question`),
and asked again with the reason; nothing typed is lost to a refusal at the end. What
the command line gave that no answer could make right is refused before the first
question. Every prompt reads with :func:`input`, so with :mod:`readline` loaded the
arrow keys, Ctrl-A/E and Up (the previous answers) work.

No store lock is held while asking (see ``cli/app.py``): the caller reads the session,
asks, then locks, re-reads and writes.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from scorekeeper.cli.context import Declined, Interrupted, console
from scorekeeper.i18n import _, pgettext
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.entries import (
    EntryError,
    EntryValue,
    Question,
    RoundEntry,
    collect_values,
    match_at_prompt,
    parse_whole_number,
)
from scorekeeper.kit.rounds import Round
from scorekeeper.kit.standings import RoundQuestions, Standings
from scorekeeper.session import Session
from scorekeeper.text import show_controls


def enable_line_editing() -> None:
    """Line editing and history for every :func:`input` at a terminal (readline is in the
    standard library on Linux and macOS; elsewhere input stays as it is)."""
    if not sys.stdin.isatty():
        return
    with contextlib.suppress(ImportError):  # Windows: input() stays as it is
        import readline  # noqa: F401 - importing it is what turns it on for input()


ANSWER_ROOM = 10
"""Columns a prompt leaves free on its line for the answer."""


def prompt_lines(prompt: str, width: int) -> tuple[list[str], str]:
    """``prompt`` for a terminal ``width`` columns wide: the lines to print first (none
    when it fits with room for the answer) and the last line, for :func:`input`. Lines
    break at spaces only, so the closing ``:`` stays with the last word.

    >>> prompt_lines("Maximiliana Oberholzer, your move (? for help): ", 45)
    (['Maximiliana Oberholzer, your move'], '(? for help): ')
    """
    if len(prompt) + ANSWER_ROOM <= width:
        return [], prompt
    glued = _OPENER.sub(lambda found: found.group(1) + _GLUE, prompt)
    lines = [line.replace(_GLUE, " ") for line in textwrap.wrap(
        glued, max(width - ANSWER_ROOM, 10), break_long_words=False, break_on_hyphens=False)]
    return lines[:-1], lines[-1] + " "


_GLUE = "\u00a0"  # textwrap breaks at ASCII white space only
_OPENER = re.compile(r"(?<!\S)(\(\S?) ")
"""An opening bracket with at most one character after it (``(?``), kept on the line of
the word that follows it: ``(?`` alone at a line's end reads as a broken word."""


def read_line(out: Console, prompt: Text) -> str:
    """A line typed after ``prompt``. At a terminal the prompt goes to :func:`input`
    itself, so readline knows where the answer starts (history and Ctrl-A redraw the
    line without eating the prompt); elsewhere rich prints it, as it always has. A
    prompt too long for the terminal's line is printed first but for its last words."""
    if sys.stdin.isatty():
        enable_line_editing()
        before, last = prompt_lines(prompt.plain, out.width)
        for line in before:
            out.print(Text(line, style=prompt.style))
        return input(last)
    return out.input(prompt)


def ask(prompt: str, default: str | None = None) -> str:
    """One line typed at the terminal; Enter alone gives ``default`` when there is one."""
    shown = show_controls(prompt) + (f" [{show_controls(default)}]" if default else "") + ": "
    before, shown = prompt_lines(shown, shutil.get_terminal_size().columns)
    if before:
        sys.stdout.write("".join(line + "\n" for line in before))
    try:
        typed = input(shown)
    except EOFError:  # Ctrl-D: give up this command, changing nothing
        raise typer.Abort() from None
    except KeyboardInterrupt:  # Ctrl-C: said once for every command (cli/app.py)
        raise Interrupted() from None
    return default if not typed.strip() and default is not None else typed


def confirm(question: str, *, default: bool, abort: bool = False) -> bool:
    """A yes/no question in the active language (Danish ``[J/n]``, taking j/ja and n/nej);
    the English y/yes and n/no are taken in every language, Enter alone is ``default``.
    With ``abort``, no ends the command (:class:`Declined`)."""
    yes = {w.strip().lower() for w in ("y, yes," + pgettext(
        "the answers that say yes, comma-separated", "y, yes")).split(",") if w.strip()}
    no = {w.strip().lower() for w in ("n, no," + pgettext(
        "the answers that say no, comma-separated", "n, no")).split(",") if w.strip()}
    choices = (pgettext("a yes/no question whose Enter means yes", "[Y/n]") if default
               else pgettext("a yes/no question whose Enter means no", "[y/N]"))
    while True:
        try:
            typed = input(f"{show_controls(question)} {choices}: ").strip().lower()
        except EOFError:  # Ctrl-D: give up this command, changing nothing
            raise typer.Abort() from None
        except KeyboardInterrupt:  # Ctrl-C: an interrupt, as at every question
            raise Interrupted() from None
        answer = default if not typed else True if typed in yes else False if typed in no \
            else None
        if answer is None:
            say_refused(_("answer {choices}").format(choices=choices))
            continue
        if abort and not answer:
            raise Declined()
        return answer


def say_refused(reason: str) -> None:
    console.print(_("  ✗ {reason}; type it again").format(reason=show_controls(reason)),
                  style="red",
                  markup=False, highlight=False)


def standings_before(session: Session, number: int | None) -> Standings:
    """What a round is entered against: the standings now, or before round ``number``."""
    if number is None:
        return session.standings
    return session.before_round(number).standings


class PlainQuestions:
    """The questions of a game that declares none of its own: each missing player or
    number option and each missing value, asked plainly; the rules check the whole round
    at the end."""

    def __init__(self, declaration: GameDeclaration) -> None:
        self.declaration = declaration

    def check_given(self, players: Sequence[str], options: object,
                    standings: Standings, entry: RoundEntry) -> None:
        collect_values(players, entry, self.declaration.value_word)

    def next_question(self, players: Sequence[str], options: object,
                      standings: Standings, entry: RoundEntry,
                      previous: RoundEntry | None = None) -> Question | None:
        for option in self.declaration.round_options:
            if option.kind not in ("name", "number") or entry.get(option.key) is not None:
                continue
            question = _(option.help).rstrip(".")
            default = None if previous is None or previous.get(option.key) is None \
                else str(previous.get(option.key))

            def answer(text: str, key: str = option.key, kind: str = option.kind) -> RoundEntry:
                value: str | int = match_at_prompt(players, text) if kind == "name" \
                    else parse_whole_number(text, key.replace("_", " "))
                return entry.with_fields(**{key: value})

            return Question(_("{question}?").format(question=question[:1].upper()
                                                     + question[1:]), answer, default)
        entered = collect_values(players, entry, self.declaration.value_word)
        before = {} if previous is None else dict(previous.values)
        for name in standings.still_in:
            if name not in entered:
                def value(text: str, name: str = name) -> RoundEntry:
                    if not text.strip():
                        raise EntryError(_("type {name}'s {value}").format(
                            name=name, value=_(self.declaration.value_word)))
                    return entry.with_values((*entry.values, (name, text.strip())))

                return Question(_("{name}'s {value}").format(
                    name=name, value=_(self.declaration.value_word)), value, before.get(name))
        return None

    def entry_of(self, round_: Round) -> RoundEntry:
        stored = round_.to_json()  # the declared keys are FORMAT.md's round keys
        values = stored.get(self.declaration.values_key) or {}
        fields: dict[str, EntryValue] = {}
        for option in self.declaration.round_options:
            value = stored.get(option.key)
            if option.key in stored and (value is None or isinstance(value, str | int | bool)):
                fields[option.key] = value
        return RoundEntry(tuple((name, str(value)) for name, value in
                                (values.items() if isinstance(values, Mapping) else ())),
                          **fields)


def _kept_from(previous: RoundEntry, entry: RoundEntry, declaration: GameDeclaration
               ) -> RoundEntry:
    """An edit keeps the round's free-text options (kind ``text``) it did not ask about,
    as long as the names and numbers it did ask about are the round's own."""
    kinds = {option.key: option.kind for option in declaration.round_options}
    asked = {key: entry.get(key) for key, kind in kinds.items() if kind in ("name", "number")}
    if any(previous.get(key) != value for key, value in asked.items()):
        return entry
    kept = {key: previous.get(key) for key, kind in kinds.items()
            if kind == "text" and entry.get(key) is None and previous.get(key) is not None}
    return entry.with_fields(**kept) if kept else entry


def collect(session: Session, entry: RoundEntry, *, number: int | None = None) -> RoundEntry:
    """``entry`` completed at the terminal (add-round, or edit-round of round ``number``).

    Refuses first, asking nothing, what can never be accepted; then asks for each
    missing value until it is one the rules take."""
    if number is None:
        session.check_takes_rounds()
    else:
        session.check_rounds_can_change("edit-round")
        session.check_round_number(number)
    session.check_entry_fields(entry)
    declaration = session.declaration
    questions: RoundQuestions[Any] = declaration.questions or PlainQuestions(declaration)
    players = session.seated if number is None else session.before_round(number).seated
    options = session.options
    standings = standings_before(session, number)
    questions.check_given(players, options, standings, entry)
    previous = None if number is None else questions.entry_of(session.rounds[number - 1])
    question = questions.next_question(players, options, standings, entry, previous)
    if question is None:
        return entry
    enable_line_editing()
    if number is not None:
        held = session.describe_round(number).partition(": ")[2]
        console.print(_("Round {number} is now: {round}. Enter keeps what is in [brackets].")
                      .format(number=number, round=held),
                      markup=False, highlight=False)
    while question is not None:
        typed = ask(question.prompt, question.default)
        try:
            entry = question.answer(typed)
        except EntryError as refused:
            say_refused(str(refused))
            continue
        question = questions.next_question(players, options, standings, entry, previous)
    return entry if previous is None else _kept_from(previous, entry, declaration)


__all__ = ["EntryError", "ask", "collect", "confirm", "enable_line_editing"]
