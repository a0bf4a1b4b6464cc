"""House rules and round options as a game declares them, parsed from text or JSON into the
game's typed options, and said in words."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib.resources.abc import Traversable
from typing import Any, Literal, NamedTuple, TypeVar

from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, looks_like_whole_number, parse_whole_number

__all__ = [
    "HouseRule",
    "HouseRuleOption",
    "Language",
    "RoundOption",
    "option_choice",
    "option_flag",
    "option_whole_number",
    "parsed_once",
    "read_rules_text",
]


def option_whole_number(value: Any, what: str) -> int:
    """A whole-number house rule, from JSON (int) or the command line (text)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and looks_like_whole_number(value):
        return parse_whole_number(value, what)
    raise EntryError(_("{what} must be a whole number, not {value}").format(
        what=what, value=repr(value)))


_Parsed = TypeVar("_Parsed")


def parsed_once(parse: Callable[[Mapping[str, object]], _Parsed]
                ) -> Callable[[Mapping[str, object]], _Parsed]:
    """``parse`` (house rules -> the game's typed Options) memoised on the options' values
    and types: a session's options are parsed once, not again on every recompute, check
    and view (an add-round used to parse them about ten times). Refusals are not kept.
    """

    @functools.lru_cache(maxsize=256)
    def cached(items: tuple[tuple[str, str, Any], ...]) -> _Parsed:
        return parse({key: value for key, _kind, value in items})

    def parsed(options: Mapping[str, object]) -> _Parsed:
        items = tuple(sorted((key, type(value).__name__, value)
                             for key, value in options.items()))
        try:
            hash(items)
        except TypeError:  # a list or object from a file: parse (and refuse) it as it is
            return parse(options)
        return cached(items)

    parsed.cache_info = cached.cache_info  # type: ignore[attr-defined]
    return parsed


_Choice = TypeVar("_Choice", bound=StrEnum)


def option_choice(kind: type[_Choice], value: Any, option: str) -> _Choice:
    """A house rule with named values (``--end low``), ignoring case."""
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        choices = _(" or ").join(member.value for member in kind)
        raise EntryError(_("{flag} must be {choices}, not {value}").format(
            flag=f"--{option}", choices=choices, value=repr(value))) from None


class Language(StrEnum):
    """A language the rules texts are written in (``score --lang``)."""

    ENGLISH = "en"
    DANISH = "da"
    ARABIC = "ar"


class HouseRule(NamedTuple):
    """One house rule of a session, as the user types it and in words.

    >>> HouseRule("speed", "quick", "slow", "...").as_typed
    '--speed quick'
    """

    key: str
    """Its key in the session's options (FORMAT.md): ``speed``."""
    value: int | str
    default: int | str
    description: str
    """What the value means, in the language asked for."""

    @property
    def option(self) -> str:
        """The command-line option that sets it: ``--speed``."""
        return option_flag(self.key)

    @property
    def as_typed(self) -> str:
        return f"{self.option} {self.value}"


def option_flag(key: str) -> str:
    """The command-line spelling of an option key: ``speed`` -> ``--speed``."""
    return "--" + key.replace("_", "-")


@dataclass(frozen=True, slots=True)
class HouseRuleOption:
    """One house rule a game takes (``score new --KEY VALUE``): its key in the session's
    options (FORMAT.md), its default, its allowed values and its help.

    >>> HouseRuleOption("speed", "full", "cards dealt", ("full", "short")).metavar
    'full|short'
    """

    key: str
    default: int | str
    help: str
    """What it sets, without the game's title (the CLI adds it)."""
    choices: tuple[str, ...] = ()
    """The named values; empty for a whole number."""
    said: tuple[tuple[str, str], ...] = ()
    """How a value reads in the house rules' summary (N_-marked), when ``KEY VALUE``
    would not read as words (``joker joker``); other values read ``KEY VALUE``."""

    @property
    def flag(self) -> str:
        return option_flag(self.key)

    def summary(self, value: object) -> str:
        """This house rule as the one-line summary says it (``limit 100``)."""
        phrase = dict(self.said).get(str(value))
        return _(phrase) if phrase else f"{self.key.replace('_', '-')} {value}"

    @property
    def is_number(self) -> bool:
        return not self.choices

    @property
    def metavar(self) -> str:
        return "|".join(self.choices) if self.choices else "N"


@dataclass(frozen=True, slots=True)
class RoundOption:
    """One option of ``add-round``/``edit-round`` for a game's rounds (``--leader NAME``).

    ``kind``: ``name`` (a player), ``text``, ``number`` (a whole number) or ``switch``.
    """

    key: str
    kind: Literal["name", "text", "number", "switch"]
    help: str
    """What it gives, without the game's title (the CLI adds it)."""
    value_name: str = ""
    """What its value is called in ``--help`` (``SUIT``); else by its kind."""

    @property
    def flag(self) -> str:
        return option_flag(self.key)

    @property
    def metavar(self) -> str:
        """``--leader NAME``, ``--pick N``, ``--suit SUIT``."""
        return self.value_name or {"name": "NAME", "number": "N"}.get(self.kind, "TEXT")


def read_rules_text(folder: Traversable, language: Language) -> str:
    """A game's rules text in ``language``, as shipped in the package."""
    return (folder / f"{language.value}.md").read_text(encoding="utf-8")
