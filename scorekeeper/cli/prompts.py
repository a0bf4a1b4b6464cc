"""Asking at a terminal for what a round lacks, one answer at a time.

Each answer is checked as it is typed, with the same rules and messages as the
command line (the game's :meth:`~scorekeeper.games.common.TableGame.next_question`),
and asked again with the reason; nothing typed is lost to a refusal at the end. What
the command line gave that no answer could make right is refused before the first
question. Every prompt reads with :func:`input`, so with :mod:`readline` loaded the
arrow keys, Ctrl-A/E and Up (the previous answers) work.

No store lock is held while asking (see ``cli/app.py``): the caller reads the session,
asks, then locks, re-reads and writes.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import replace

import typer
from rich.console import Console
from rich.text import Text

from scorekeeper.cli.context import console
from scorekeeper.games.common import EntryError, RoundEntry, Standings
from scorekeeper.session import Session
from scorekeeper.text import show_controls


def enable_line_editing() -> None:
    """Line editing and history for every :func:`input` at a terminal (readline is in the
    standard library on Linux and macOS; elsewhere input stays as it is)."""
    if not sys.stdin.isatty():
        return
    with contextlib.suppress(ImportError):  # Windows: input() stays as it is
        import readline  # noqa: F401 - importing it is what turns it on for input()


def read_line(out: Console, prompt: Text) -> str:
    """A line typed after ``prompt``. At a terminal the prompt goes to :func:`input`
    itself, so readline knows where the answer starts (history and Ctrl-A redraw the
    line without eating the prompt); elsewhere rich prints it, as it always has."""
    if sys.stdin.isatty():
        enable_line_editing()
        return input(prompt.plain)
    return out.input(prompt)


def ask(prompt: str, default: str | None = None) -> str:
    """One line typed at the terminal; Enter alone gives ``default`` when there is one."""
    shown = show_controls(prompt) + (f" [{show_controls(default)}]" if default else "") + ": "
    try:
        typed = input(shown)
    except EOFError:  # Ctrl-D: give up this command, changing nothing
        raise typer.Abort() from None
    return default if not typed.strip() and default is not None else typed


def say_refused(reason: str) -> None:
    console.print(f"  ✗ {show_controls(reason)}; type it again", style="red",
                  markup=False, highlight=False)


def standings_before(session: Session, number: int | None) -> Standings:
    """What a round is entered against: the standings now, or before round ``number``."""
    if number is None:
        return session.standings
    return replace(session, rounds=session.rounds[:number - 1]).standings


def collect(session: Session, entry: RoundEntry, *, number: int | None = None) -> RoundEntry:
    """``entry`` completed at the terminal (add-round, or edit-round of round ``number``).

    Refuses first, asking nothing, what can never be accepted; then asks for each
    missing value until it is one the rules take."""
    if number is None:
        session.check_takes_rounds()
    else:
        session.check_rounds_can_change("edit-round")
        session.check_round_number(number)
    rules = session.rules
    standings = standings_before(session, number)
    rules.check_given(session.players, session.options, standings, entry)
    previous = None if number is None else rules.entry_of(session.rounds[number - 1])
    question = rules.next_question(session.players, session.options, standings, entry,
                                   previous)
    if question is None:
        return entry
    enable_line_editing()
    if number is not None:
        held = session.describe_round(number).partition(": ")[2]
        console.print(f"Round {number} is now: {held}. Enter keeps what is in [brackets].",
                      markup=False, highlight=False)
    while question is not None:
        typed = ask(question.prompt, question.default)
        try:
            entry = question.answer(typed)
        except EntryError as refused:
            say_refused(str(refused))
            continue
        question = rules.next_question(session.players, session.options, standings, entry,
                                       previous)
    if previous is not None and entry.trump is None and not entry.no_bid \
            and entry.bidder == previous.bidder:
        entry = replace(entry, trump=previous.trump)  # the edit keeps what it did not ask
    return entry


__all__ = ["EntryError", "ask", "collect", "enable_line_editing"]
