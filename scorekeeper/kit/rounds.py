"""The typed round: what every stored round carries (its note, the time it was recorded, a
virtual deal), the scored round every view reads, and FORMAT.md's JSON at the edge."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypedDict, TypeVar

from scorekeeper.i18n import _
from scorekeeper.json_types import JSONObject, JSONRecord, JSONValue
from scorekeeper.kit.entries import EntryError, RoundError

if TYPE_CHECKING:
    from scorekeeper.kit.marks import GridMarks as GridMarks

__all__ = [
    "RECORDED_DEAL_KEYS",
    "GridMarks",
    "JSONDict",
    "JSONObject",
    "JSONRecord",
    "JSONValue",
    "ReadsRounds",
    "RecordedDeal",
    "Round",
    "RoundCaption",
    "ScoredRound",
    "carried_from_json",
    "check_deal_dealer",
    "parse_rounds",
    "read_round",
    "rename_keys",
]




def __getattr__(name: str) -> object:
    """``GridMarks``, defined in :mod:`scorekeeper.kit.marks` and imported when first asked
    for here (only the narrow grid and the games that mark it use it; a dataclass costs
    about a millisecond to define, on every command that imports its module)."""
    if name != "GridMarks":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from scorekeeper.kit.marks import GridMarks  # start-up: loaded on use

    return GridMarks


JSONDict = dict[str, Any]
"""A JSON object read from or written to the edge (the store, FORMAT.md's records), as
loose as what a file may hold."""

RECORDED_DEAL_KEYS = ("deal", "actions")
"""What a virtual round carries beyond a table round: its cards and every action."""


class RecordedDeal(NamedTuple):
    """A virtual round's cards and every action: FORMAT.md's ``deal`` and ``actions``,
    kept as the JSON they are (the game's engine reads them, ``Deal.from_record``).
    ``None`` is a part the round does not carry (an import refuses a round with one part)."""

    deal: Any = None
    actions: Any = None

    @classmethod
    def from_json(cls, data: JSONRecord) -> RecordedDeal | None:
        if not any(key in data for key in RECORDED_DEAL_KEYS):
            return None
        return cls(data.get("deal"), data.get("actions"))

    def to_json(self) -> JSONObject:
        data: JSONObject = {}
        if self.deal is not None:
            data["deal"] = self.deal
        if self.actions is not None:
            data["actions"] = self.actions
        return data

    @property
    def complete(self) -> bool:
        return self.deal is not None and self.actions is not None

    @property
    def dealer(self) -> Any:
        """Who the deal says dealt (None when it does not say)."""
        return self.deal.get("dealer") if isinstance(self.deal, dict) else None

    def renamed(self, names: Mapping[str, str]) -> RecordedDeal:
        """The players renamed inside the deal and its actions."""
        deal = self.deal
        if isinstance(deal, dict):
            deal = dict(deal)
            dealer = deal.get("dealer")
            if isinstance(dealer, str) and dealer in names:
                deal["dealer"] = names[dealer]
            hands = deal.get("hands")
            if isinstance(hands, dict):
                deal["hands"] = rename_keys(hands, names)
        actions = self.actions
        if isinstance(actions, list):
            actions = [_renamed_action(action, names) for action in actions]
        return RecordedDeal(deal, actions)


def _renamed_action(action: JSONValue, names: Mapping[str, str]) -> JSONValue:
    """One recorded action with its player renamed (as it was, when it names nobody renamed)."""
    if isinstance(action, dict):
        player = action.get("player")
        if isinstance(player, str) and player in names:
            return {**action, "player": names[player]}
    return action


_Round = TypeVar("_Round", bound="Round")


@dataclass(frozen=True, slots=True, kw_only=True)
class Round(ABC):
    """What every stored round has besides the game's own fields: a note (``add-round
    --note``, never scored) and, on the virtual deck, the recorded deal. The time it was
    recorded is the session's (its history), the same for every game.

    Each game's round (``games/<game>/table.py``) extends it with what was entered at the
    table and gives :meth:`to_json` (its own keys) and :meth:`renamed`; the kit keeps the
    note and the deal for it: :meth:`stored_json` is FORMAT.md's stored round, read back by
    :func:`read_round` with the game's ``round_from_json`` (the store) and
    ``round_from_summary`` (an import), and :meth:`with_names` renames the players."""

    note: str = ""
    recorded: RecordedDeal | None = None

    @abstractmethod
    def to_json(self) -> JSONObject:
        """The game's own keys of the round (FORMAT.md); it may add :meth:`carried_json`,
        or leave it to :meth:`stored_json`."""

    @abstractmethod
    def renamed(self: _Round, names: Mapping[str, str]) -> _Round:
        """The round with players renamed (``names``: old spelling -> new) in the game's
        own fields; :meth:`with_names` renames the recorded deal and keeps the note."""

    def stored_json(self) -> JSONObject:
        """The round as the store and FORMAT.md keep it: the game's keys, then the recorded
        deal and the note (whether or not the game's :meth:`to_json` gave them)."""
        return self.to_json() | self.carried_json()

    def with_names(self: _Round, names: Mapping[str, str]) -> _Round:
        """:meth:`renamed`, with the note kept and the recorded deal renamed too."""
        return replace(self.renamed(names), note=self.note,
                       recorded=self.renamed_recorded(names))

    def with_note(self: _Round, note: str) -> _Round:
        return replace(self, note=note)

    def with_recorded(self: _Round, recorded: RecordedDeal | None) -> _Round:
        return replace(self, recorded=recorded)

    def carried_json(self) -> JSONObject:
        """The deal, its actions and the note, as they follow the game's own keys."""
        data = {} if self.recorded is None else self.recorded.to_json()
        if self.note:
            data["note"] = self.note
        return data

    def renamed_recorded(self, names: Mapping[str, str]) -> RecordedDeal | None:
        return None if self.recorded is None else self.recorded.renamed(names)


class Carried(TypedDict, total=False):
    """What :func:`carried_from_json` reads: a :class:`Round`'s keyword arguments."""

    note: str
    recorded: RecordedDeal | None


def carried_from_json(data: JSONRecord) -> Carried:
    """A stored round's note and recorded deal, as keyword arguments of its :class:`Round`."""
    if "note" not in data and "deal" not in data and "actions" not in data:
        return {}  # a round at the table without a note: the defaults
    note = data.get("note", "")
    if not isinstance(note, str):
        raise EntryError(_("a round's note must be text, not {value}").format(
            value=repr(note)[:40]))
    return {"note": note, "recorded": RecordedDeal.from_json(data)}


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoredRound(ABC):
    """One round as the standings score it: FORMAT.md's summary round
    (:meth:`to_json`), read by every view through attributes.

    Each game's scored round extends it with the round as played and what scoring found
    (an act that failed), and gives what is abstract here; :meth:`summary_json` adds the
    round's note and recorded deal to the game's :meth:`to_json`."""

    number: int
    dealer: str | None
    scores: dict[str, int]
    knocked_out: tuple[str, ...] = ()
    played: Round

    @property
    def note(self) -> str:
        return self.played.note

    @property
    def recorded(self) -> RecordedDeal | None:
        return self.played.recorded

    @property
    @abstractmethod
    def values(self) -> Mapping[str, object]:
        """What each player's ``NAME=VALUE`` entered (the declaration's ``values_key``)."""

    @abstractmethod
    def to_json(self) -> JSONObject:
        """FORMAT.md's summary round: number, dealer, the round, scores and results."""

    @abstractmethod
    def caption(self) -> RoundCaption:
        """How the round is named in every view: the one place."""

    @abstractmethod
    def tallies(self) -> dict[str, dict[str, int]]:
        """What the round adds to each player's counts (keys used by ``stat_figures``)."""

    def shown_json(self) -> Mapping[str, object]:
        """What the exports show of the round (the CSV file's declared columns):
        :meth:`to_json`, and what a game shows beside it though no summary stores it
        (Hearts: the deal's passing)."""
        return self.to_json()

    def summary_json(self) -> JSONObject:
        """FORMAT.md's summary round with the round's note and recorded deal, whether or
        not the game's :meth:`to_json` gave them."""
        return self.to_json() | self.played.carried_json()


def read_round(read: Callable[[JSONRecord], _Round], data: JSONRecord) -> _Round:
    """A stored or imported round read by the game (``read``: its ``round_from_json`` or
    ``round_from_summary``), with the note and recorded deal the kit keeps for it."""
    round_ = read(data)
    carried = carried_from_json(data)
    return replace(round_, **carried) if carried else round_


class ReadsRounds(Protocol):
    """What :func:`parse_rounds` needs of a game's table."""

    def round_from_json(self, data: JSONRecord) -> Round: ...


def parse_rounds(game: ReadsRounds, data: Sequence[object]) -> tuple[Round, ...]:
    """Stored rounds (JSON, from the store or a test) as the game's typed rounds; a round
    that is not one is refused with its number (RoundError)."""
    rounds: list[Round] = []
    for number, item in enumerate(data, start=1):
        try:
            if type(item) is not dict and not isinstance(item, Mapping):
                raise EntryError(_("round {number} is not a JSON object").format(
                    number=number))
            rounds.append(read_round(game.round_from_json, item))
        except EntryError as error:
            raise RoundError(number, str(error)) from None
    return tuple(rounds)


_Value = TypeVar("_Value")


def rename_keys(mapping: Mapping[str, _Value], names: Mapping[str, str]) -> dict[str, _Value]:
    return {names.get(key, key): value for key, value in mapping.items()}


def check_deal_dealer(round_: Round, dealer: str | None) -> None:
    """A virtual round must have been dealt by whoever's deal it was."""
    recorded = round_.recorded
    if recorded is not None and isinstance(recorded.deal, dict) and dealer is not None \
            and recorded.dealer != dealer:
        raise EntryError(_("the deal says {dealt} dealt, but it was {dealer}'s deal").format(
            dealt=recorded.dealer, dealer=dealer))


class RoundCaption(NamedTuple):
    """How one round is named, the same in the grid, the exports, the log and undo."""

    role: str
    """The grid's role cell: ``Ann``, ``Bob 9``, ``nobody``."""
    sentence: str
    """What happened, for one line (``undo``): ``Ann led``, ``Bob named 9``, ``nobody``."""
    suit: str = ""
    """A suit letter the round names (shown after the role)."""
    failure: str = ""
    """One word when the round's main act failed (``false``, ``failed``), else empty."""
    failure_note: str = ""
    """That failure said in full, for the line after a round is entered."""
    marked: str | None = None
    """A player the grid marks with ``*`` (the player who led)."""
    acted: bool = True
    """False when nobody took the round's role (a deal nobody led): shown dim."""
