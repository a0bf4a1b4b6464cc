"""What every game's scorekeeper side shares: entries, refusals and standings.

A *round* is stored as what was entered at the table (or dealt by the virtual
deck); everything else — scores, totals, knock-outs, dealer, winners — is
recomputed from the list of rounds by the game's ``table`` module.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from importlib.resources.abc import Traversable
from typing import Any, Protocol, TypeVar

JSONDict = dict[str, Any]


class EntryError(ValueError):
    """An entry the rules refuse. The message is one line a player can act on."""


class RoundError(EntryError):
    """A stored round that no longer fits the rounds before it (after an edit or import)."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"round {number}: {reason}")
        self.number = number
        self.reason = reason


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """A round as typed on the command line, before the game checks it.

    ``values`` maps the names as typed to the raw text after ``=``.
    """

    values: tuple[tuple[str, str], ...]
    declarer: str | None = None
    bidder: str | None = None
    bid: int | None = None
    no_bid: bool = False
    trump: str | None = None


@dataclass(frozen=True, slots=True)
class Standings:
    """Everything recomputed from a session's rounds."""

    totals: dict[str, int]
    knocked_out: list[str]
    still_in: list[str]
    finished: bool
    winners: list[str]
    rounds: list[JSONDict]
    """Each round in the FORMAT.md summary shape, scores included."""
    next_dealer: str | None
    notes: list[str] = field(default_factory=list)
    """Game-specific lines for the standings view (e.g. who bids first next)."""


@dataclass(frozen=True, slots=True)
class Question:
    """One thing to ask at a terminal for a round left incomplete on the command line.

    ``answer`` checks what was typed with the same rules and messages as the command
    line and returns the entry with it filled in, or raises :class:`EntryError` with the
    reason, so the question can be asked again."""

    prompt: str
    answer: Callable[[str], RoundEntry]
    default: str | None = None
    """Offered when Enter is pressed alone (edit-round: what the round holds now)."""


@dataclass(frozen=True, slots=True)
class GridMarks:
    """How a game marks one round in the narrow grid of ``score show``: a sign after
    some players' running totals (``*`` the declarer), and the text of the game's own
    column, if it has one (One Card: the bid)."""

    marks: dict[str, str]
    note: str = ""


@dataclass(frozen=True, slots=True)
class StatFigure:
    """One game-specific statistic: the sum of tally ``numerator`` over the player's rounds,
    divided by the sum of tally ``denominator`` when one is given (None when that is 0)."""

    key: str
    label: str
    meaning: str
    numerator: str
    denominator: str | None = None
    percent: bool = False


def competition_ranks(keys: Mapping[str, Any]) -> dict[str, int]:
    """Places from sort keys (lower is better); equal keys share the better place (1, 2, 2, 4)."""
    ordered = sorted(keys, key=lambda name: keys[name])
    places: dict[str, int] = {}
    for index, name in enumerate(ordered):
        if index and keys[name] == keys[ordered[index - 1]]:
            places[name] = places[ordered[index - 1]]
        else:
            places[name] = index + 1
    return places


class TableGame(Protocol):
    """The scorekeeper side of a game: options, entry checks, recomputing standings."""

    name: str
    title: str
    min_players: int
    max_players: int
    target_label: str
    lower_is_better: bool

    def default_options(self) -> JSONDict: ...

    def check_options(self, options: Mapping[str, Any]) -> JSONDict:
        """Validated options with defaults filled in; raise EntryError otherwise."""
        ...

    def check_players(self, players: Sequence[str]) -> None: ...

    def make_round(self, players: Sequence[str], options: Mapping[str, Any],
                   standings: Standings, entry: RoundEntry) -> JSONDict:
        """Check a typed entry against the standings; the round to store."""
        ...

    def standings(self, players: Sequence[str], options: Mapping[str, Any],
                  first_dealer: str | None, rounds: Sequence[JSONDict]) -> Standings:
        """Recompute everything from the rounds; raise RoundError for a round that does not fit."""
        ...

    def round_from_summary(self, summary_round: Mapping[str, Any]) -> JSONDict:
        """The stored round behind one round of a FORMAT.md summary (for import)."""
        ...

    def target(self, options: Mapping[str, Any]) -> int:
        """The line the chart draws: the knock-out limit, or the target to reach."""
        ...

    rules_folder: Traversable
    """The package folder holding the game's rules texts, one ``<language>.md`` each."""

    def house_rules(self, options: Mapping[str, Any], language: Language) -> list[HouseRule]:
        """Each house rule of ``options`` in words, in the order ``score new`` lists them."""
        ...

    # -- across sessions (players, statistics) ------------------------------------

    stat_figures: tuple[StatFigure, ...]
    """The game's own figures for ``score stats``, as ratios of :meth:`round_tallies`."""

    def placings(self, players: Sequence[str], options: Mapping[str, Any],
                 standings: Standings) -> dict[str, int]:
        """Each player's place in a finished game as the game means it (1 = won; ties share)."""
        ...

    def round_tallies(self, summary_round: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """What one round adds to each player's counts (keys used by ``stat_figures``)."""
        ...

    def rename_players(self, round_: Mapping[str, Any], names: Mapping[str, str]) -> JSONDict:
        """The stored round with players renamed (``names``: old spelling -> new)."""
        ...

    # -- entering a round at a terminal --------------------------------------------

    def check_given(self, players: Sequence[str], options: Mapping[str, Any],
                    standings: Standings, entry: RoundEntry) -> None:
        """Refuse, before anything is asked, what the command line gave that no answer
        could make right (an unknown name, contradictory options, an impossible value)."""
        ...

    def next_question(self, players: Sequence[str], options: Mapping[str, Any],
                      standings: Standings, entry: RoundEntry,
                      previous: RoundEntry | None = None) -> Question | None:
        """What to ask next for an incomplete ``entry``, or None when nothing is missing;
        ``previous`` (edit-round: the round as it is now) gives each question's default."""
        ...

    def entry_of(self, round_: Mapping[str, Any]) -> RoundEntry:
        """A stored round as it would be typed on the command line."""
        ...

    # -- the narrow grid (score show on a phone) ------------------------------------

    grid_note_heading: str
    """The heading of the game's own column in the narrow grid ("" for none)."""
    grid_legend: tuple[tuple[str, str], ...]
    """Each sign :meth:`grid_marks` uses, with what it means: ``("*", "declared")``."""

    def grid_marks(self, summary_round: Mapping[str, Any]) -> GridMarks: ...


def match_player(players: Sequence[str], typed: str, what: str = "player") -> str:
    """The session's spelling of ``typed`` (names match ignoring case; names are stored
    NFC-normalised, so an ``é`` typed as ``e`` + accent matches too)."""
    wanted = _folded(typed)
    for name in players:
        if _folded(name) == wanted:
            return name
    raise EntryError(f"there is no {what} called {typed.strip()!r}"
                     f"{_did_you_mean(players, typed)}: the players are {', '.join(players)}")


def match_at_prompt(players: Sequence[str], typed: str, what: str = "player") -> str:
    """Like :func:`match_player`, but at a prompt the start of a name is enough when only
    one name starts that way (``d`` for Dan).

    >>> match_at_prompt(["Ann", "Dan", "Dave"], "an"), match_at_prompt(["Ann", "Dan"], "d")
    ('Ann', 'Dan')
    """
    wanted = _folded(typed)
    if not wanted:
        raise EntryError(f"type a name: {', '.join(players)}")
    exact = [name for name in players if _folded(name) == wanted]
    starting = [name for name in players if _folded(name).startswith(wanted)]
    if exact or len(starting) == 1:
        return (exact or starting)[0]
    if starting:
        raise EntryError(f"{typed.strip()!r} could be {' or '.join(starting)}: type more of "
                         "the name")
    return match_player(players, typed, what)


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).strip().casefold()


def _did_you_mean(players: Sequence[str], typed: str) -> str:
    """`` (did you mean Dan?)`` for a near miss (difflib, ignoring case), else ""."""
    import difflib  # only when a name is mistyped

    folded = {_folded(name): name for name in players}
    close = difflib.get_close_matches(_folded(typed), list(folded), n=1, cutoff=0.6)
    return f" (did you mean {folded[close[0]]}?)" if close else ""


def looks_like_whole_number(text: str) -> bool:
    """An optional sign then ASCII digits only (not ``²``, ``+-5`` or ``1_000``)."""
    return _WHOLE_NUMBER.fullmatch(text.strip()) is not None


def parse_whole_number(text: str, what: str) -> int:
    stripped = text.strip()
    if looks_like_whole_number(stripped):
        try:
            return int(stripped)
        except ValueError:  # more digits than int() converts
            raise EntryError(f"{what} is far too large: {stripped[:12]}...") from None
    raise EntryError(f"{what} must be a whole number, not {text.strip()!r}")


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def collect_values(players: Sequence[str], entry: RoundEntry, what: str) -> dict[str, str]:
    """Map each typed ``NAME=VALUE`` to the session's spelling of NAME, refusing repeats."""
    found: dict[str, str] = {}
    for typed, raw in entry.values:
        name = match_player(players, typed)
        if name in found:
            raise EntryError(f"{name} is entered twice: give one {what} per player")
        found[name] = raw
    return found


def check_participants(entered: Iterable[str], expected: Sequence[str], what: str) -> None:
    """Exactly one value per expected player: nobody missing, nobody extra."""
    entered = list(entered)
    extra = [name for name in entered if name not in expected]
    if extra:
        raise EntryError(
            f"{extra[0]} is not in this deal and gets no {what}: enter one for "
            + ", ".join(expected)
        )
    missing = [name for name in expected if name not in entered]
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        raise EntryError(
            f"{', '.join(missing)} {verb} missing: enter a {what} for every player still in: "
            + ", ".join(expected)
        )


def option_whole_number(value: Any, what: str) -> int:
    """A whole-number house rule, from JSON (int) or the command line (text)."""
    if isinstance(value, bool):
        raise EntryError(f"{what} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and looks_like_whole_number(value):
        return parse_whole_number(value, what)
    raise EntryError(f"{what} must be a whole number, not {value!r}")


_Choice = TypeVar("_Choice", bound=StrEnum)


def option_choice(kind: type[_Choice], value: Any, option: str) -> _Choice:
    """A house rule with named values (``--tie declarer-loses``), ignoring case."""
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        choices = " or ".join(member.value for member in kind)
        raise EntryError(f"--{option} must be {choices}, not {value!r}") from None


RECORDED_DEAL_KEYS = ("deal", "actions")
"""What a virtual round carries beyond a table round: its cards and every action."""
ROUND_NOTE = "note"
"""A round's note (``add-round --note``): carried like the deal, never scored."""


def copy_recorded_deal(source: Mapping[str, Any], target: JSONDict) -> None:
    """Carry a virtual round's deal and actions, and a round's note, over."""
    for key in (*RECORDED_DEAL_KEYS, ROUND_NOTE):
        if key in source:
            target[key] = source[key]


def rename_keys(mapping: Mapping[str, Any], names: Mapping[str, str]) -> JSONDict:
    return {names.get(key, key): value for key, value in mapping.items()}


def rename_recorded_deal(round_: JSONDict, names: Mapping[str, str]) -> None:
    """Rename the players inside a virtual round's deal and actions, in place."""
    deal = round_.get("deal")
    if isinstance(deal, dict):
        deal = dict(deal)
        if deal.get("dealer") in names:
            deal["dealer"] = names[deal["dealer"]]
        if isinstance(deal.get("hands"), dict):
            deal["hands"] = rename_keys(deal["hands"], names)
        round_["deal"] = deal
    actions = round_.get("actions")
    if isinstance(actions, list):
        round_["actions"] = [
            {**action, "player": names[action["player"]]}
            if isinstance(action, dict) and action.get("player") in names else action
            for action in actions
        ]


def check_deal_dealer(round_: Mapping[str, Any], dealer: str | None) -> None:
    """A virtual round must have been dealt by whoever's deal it was."""
    deal = round_.get("deal")
    if isinstance(deal, dict) and dealer is not None and deal.get("dealer") != dealer:
        raise EntryError(f"the deal says {deal.get('dealer')} dealt, but it was {dealer}'s deal")


# ---------------------------------------------------------------------------
# The rules in words


class Language(StrEnum):
    """A language the rules texts are written in (``score --lang``)."""

    ENGLISH = "en"
    DANISH = "da"
    ARABIC = "ar"


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule of a session, as the user types it and in words.

    >>> HouseRule("two_pairs", "any-rank", "same-rank", "...").as_typed
    '--two-pairs any-rank'
    """

    key: str
    """Its key in the session's options (FORMAT.md): ``two_pairs``."""
    value: int | str
    default: int | str
    description: str
    """What the value means, in the language asked for."""

    @property
    def option(self) -> str:
        """The command-line option that sets it: ``--two-pairs``."""
        return "--" + self.key.replace("_", "-")

    @property
    def as_typed(self) -> str:
        return f"{self.option} {self.value}"


def read_rules_text(folder: Traversable, language: Language) -> str:
    """A game's rules text in ``language``, as shipped in the package."""
    return (folder / f"{language.value}.md").read_text(encoding="utf-8")
