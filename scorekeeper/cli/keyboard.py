"""Reading a move at the keyboard: the loop every game's UI shares."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from rich.text import Text

Move = TypeVar("Move")


def read_move(ask: Callable[[str], str], say: Callable[[Any], None], prompt: str,
              help_text: str, legal_moves: Callable[[], Iterable[str]],
              parse: Callable[[str], Move]) -> Move:
    """Ask until ``parse`` accepts the answer; ``?`` shows the help and the legal moves.

    ``parse`` raises ValueError (CardError included) with a reason the player sees.
    The engine still checks the move; its refusal comes back through the match layer.
    """
    while True:
        text = ask(prompt)
        if text.strip() in ("?", "help"):
            say(Text(help_text, style="dim"))
            for line in legal_moves():
                say(line)
            continue
        try:
            return parse(text)
        except ValueError as error:
            say(Text(str(error), style="red"))
