"""What every game's scorekeeper side shares: entries, refusals and standings.

A *round* is stored as what was entered at the table (or dealt by the virtual
deck); everything else — scores, totals, knock-outs, dealer, winners — is
recomputed from the list of rounds by the game's ``table`` module.
"""

from __future__ import annotations

import functools
import importlib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from importlib.resources.abc import Traversable
from typing import Any, Generic, Literal, Protocol, TypeVar

from scorekeeper.errors import EntryError as EntryError  # re-exported
from scorekeeper.errors import MalformedValue as MalformedValue  # re-exported
from scorekeeper.errors import RosterError as RosterError  # re-exported
from scorekeeper.errors import RoundError as RoundError  # re-exported
from scorekeeper.i18n import Domain, _, ngettext

JSONDict = dict[str, Any]


EntryValue = str | int | bool | None
"""What one round option of the command line carries: a name or text, a number, a switch."""


class RoundEntry:
    """A round as typed on the command line, before the game checks it.

    ``values`` maps the names as typed to the raw text after ``=``; the keyword fields are
    the round options the game declares (:class:`RoundOption`), given or not.

    >>> entry = RoundEntry((("Ann", "7"),), declarer="Ann", bid=None)
    >>> entry.text("declarer"), entry.number("bid"), entry.given()
    ('Ann', None, ['declarer'])
    """

    __slots__ = ("fields", "values")

    def __init__(self, values: Sequence[tuple[str, str]] = (), **fields: EntryValue) -> None:
        self.values: tuple[tuple[str, str], ...] = tuple(values)
        self.fields: dict[str, EntryValue] = dict(fields)

    def get(self, key: str) -> EntryValue:
        return self.fields.get(key)

    def text(self, key: str) -> str | None:
        """A name or text field (None when not given)."""
        value = self.fields.get(key)
        return None if value is None or isinstance(value, bool) else str(value)

    def number(self, key: str) -> int | None:
        """A whole-number field (None when not given)."""
        value = self.fields.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def switch(self, key: str) -> bool:
        """A switch field: on or off."""
        return self.fields.get(key) is True

    def given(self) -> list[str]:
        """The fields the command line gave (a switch counts when on)."""
        return [key for key, value in self.fields.items()
                if value is not None and value is not False]

    def with_fields(self, **fields: EntryValue) -> RoundEntry:
        return RoundEntry(self.values, **{**self.fields, **fields})

    def with_values(self, values: Sequence[tuple[str, str]]) -> RoundEntry:
        return RoundEntry(values, **self.fields)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundEntry) and (self.values, self.given_fields()) == \
            (other.values, other.given_fields())

    def __hash__(self) -> int:
        return hash((self.values, tuple(sorted(self.given_fields().items()))))

    def given_fields(self) -> dict[str, EntryValue]:
        return {key: self.fields[key] for key in self.given()}

    def __repr__(self) -> str:
        fields = "".join(f", {key}={value!r}" for key, value in self.given_fields().items())
        return f"RoundEntry({self.values!r}{fields})"


RECORDED_DEAL_KEYS = ("deal", "actions")
"""What a virtual round carries beyond a table round: its cards and every action."""


@dataclass(frozen=True, slots=True)
class RecordedDeal:
    """A virtual round's cards and every action: FORMAT.md's ``deal`` and ``actions``,
    kept as the JSON they are (the game's engine reads them, ``Deal.from_record``).
    ``None`` is a part the round does not carry (an import refuses a round with one part)."""

    deal: Any = None
    actions: Any = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RecordedDeal | None:
        if not any(key in data for key in RECORDED_DEAL_KEYS):
            return None
        return cls(data.get("deal"), data.get("actions"))

    def to_json(self) -> JSONDict:
        data: JSONDict = {}
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
            if deal.get("dealer") in names:
                deal["dealer"] = names[deal["dealer"]]
            if isinstance(deal.get("hands"), dict):
                deal["hands"] = rename_keys(deal["hands"], names)
        actions = self.actions
        if isinstance(actions, list):
            actions = [{**action, "player": names[action["player"]]}
                       if isinstance(action, dict) and action.get("player") in names
                       else action for action in actions]
        return RecordedDeal(deal, actions)


_Round = TypeVar("_Round", bound="Round")


@dataclass(frozen=True, slots=True, kw_only=True)
class Round:
    """What every stored round has besides the game's own fields: a note (``add-round
    --note``, never scored) and, on the virtual deck, the recorded deal.

    Each game's round (``games/<game>/table.py``) extends it with what was entered at the
    table; :meth:`to_json` is FORMAT.md's stored round, read back by the game's
    ``round_from_json`` (the store) and ``round_from_summary`` (an import)."""

    note: str = ""
    recorded: RecordedDeal | None = None

    def to_json(self) -> JSONDict:
        """The round as the store and FORMAT.md keep it."""
        raise NotImplementedError

    def renamed(self: _Round, names: Mapping[str, str]) -> _Round:
        """The round with players renamed (``names``: old spelling -> new)."""
        raise NotImplementedError

    def with_note(self: _Round, note: str) -> _Round:
        return replace(self, note=note)

    def with_recorded(self: _Round, recorded: RecordedDeal | None) -> _Round:
        return replace(self, recorded=recorded)

    def carried_json(self) -> JSONDict:
        """The deal, its actions and the note, as they follow the game's own keys."""
        data = {} if self.recorded is None else self.recorded.to_json()
        if self.note:
            data["note"] = self.note
        return data

    def renamed_recorded(self, names: Mapping[str, str]) -> RecordedDeal | None:
        return None if self.recorded is None else self.recorded.renamed(names)


def carried_from_json(data: Mapping[str, Any]) -> JSONDict:
    """A stored round's note and recorded deal, as keyword arguments of its :class:`Round`."""
    if "note" not in data and "deal" not in data and "actions" not in data:
        return {}  # a round at the table without a note: the defaults
    note = data.get("note", "")
    if not isinstance(note, str):
        raise EntryError(_("a round's note must be text, not {value}").format(
            value=repr(note)[:40]))
    return {"note": note, "recorded": RecordedDeal.from_json(data)}


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoredRound:
    """One round as the standings score it: FORMAT.md's summary round
    (:meth:`to_json`), read by every view through attributes.

    Each game's scored round extends it with the round as played and what scoring found
    (a false declaration, a failed bid)."""

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
    def values(self) -> Mapping[str, object]:
        """What each player's ``NAME=VALUE`` entered (the declaration's ``values_key``)."""
        raise NotImplementedError

    def to_json(self) -> JSONDict:
        """FORMAT.md's summary round: number, dealer, the round, scores and results."""
        raise NotImplementedError

    def caption(self) -> RoundCaption:
        """How the round is named in every view: the one place."""
        raise NotImplementedError

    def tallies(self) -> dict[str, dict[str, int]]:
        """What the round adds to each player's counts (keys used by ``stat_figures``)."""
        raise NotImplementedError


def parse_rounds(game: TableGame, data: Sequence[Any]) -> tuple[Round, ...]:
    """Stored rounds (JSON, from the store or a test) as the game's typed rounds; a round
    that is not one is refused with its number (RoundError)."""
    rounds: list[Round] = []
    for number, item in enumerate(data, start=1):
        try:
            if type(item) is not dict and not isinstance(item, Mapping):
                raise EntryError(_("round {number} is not a JSON object").format(
                    number=number))
            rounds.append(game.round_from_json(item))
        except EntryError as error:
            raise RoundError(number, str(error)) from None
    return tuple(rounds)


@dataclass(frozen=True, slots=True)
class Standings:
    """Everything recomputed from a session's rounds."""

    totals: dict[str, int]
    knocked_out: list[str]
    still_in: list[str]
    finished: bool
    winners: list[str]
    rounds: list[ScoredRound]
    """Each round scored (its :meth:`ScoredRound.to_json` is FORMAT.md's summary round)."""
    next_dealer: str | None
    notes: list[str] = field(default_factory=list)
    """Game-specific lines for the standings view (e.g. a tie at the target)."""
    next_deal: str | None = None
    """Who deals next and who starts, as one sentence (the terminal's last note)."""
    next_starter: str | None = None
    """Who starts the next deal, without the dealer (where the dealer is shown apart)."""
    left: list[str] = field(default_factory=list)
    """The players who left the game (``score drop-player``), in the order they left: their
    rounds stay, they play no more deals and win nothing."""
    starting: dict[str, int] = field(default_factory=dict)
    """The total each player who joined late (``score add-player``) started at."""

    @property
    def all_notes(self) -> list[str]:
        """The notes, then the next deal: every line of the standings view."""
        return [*self.notes, *([self.next_deal] if self.next_deal else [])]

    def running_totals(self) -> list[dict[str, int]]:
        """Each player's total after each round, in order (the one place it is summed)."""
        running = {name: self.starting.get(name, 0) for name in self.totals}
        after: list[dict[str, int]] = []
        for summary in self.rounds:
            for name, score in summary.scores.items():
                running[name] += score
            after.append(dict(running))
        return after


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
                   standings: Standings, entry: RoundEntry) -> Round:
        """Check a typed entry against the standings; the round to store."""
        ...

    def standings(self, players: Sequence[str], options: Mapping[str, Any],
                  first_dealer: str | None, rounds: Sequence[Round]) -> Standings:
        """Recompute everything from the rounds; raise RoundError for a round that does not fit
        (another game's round among them included)."""
        ...

    def round_from_json(self, data: Mapping[str, Any]) -> Round:
        """A stored round (the store's JSON) as the game's typed round; EntryError when a
        part of it is not of its type."""
        ...

    def round_from_summary(self, summary_round: Mapping[str, Any]) -> Round:
        """The stored round behind one round of a FORMAT.md summary (for import)."""
        ...

    def target(self, options: Mapping[str, Any]) -> int:
        """The line the chart draws: the knock-out limit, or the target to reach; 0 when
        the game has none (a Points game that ends after its deals): then no view shows
        a target (:func:`scorekeeper.ranking.target_line`)."""
        ...

    rules_folder: Traversable
    """The package folder holding the game's rules texts, one ``<language>.md`` each."""

    def house_rules(self, options: Mapping[str, Any], language: Language) -> list[HouseRule]:
        """Each house rule of ``options`` in words, in the order ``score new`` lists them."""
        ...

    # -- across sessions (players, statistics) ------------------------------------

    stat_figures: tuple[StatFigure, ...]
    """The game's own figures for ``score stats``, as ratios of :meth:`ScoredRound.tallies`."""

    def placings(self, players: Sequence[str], options: Mapping[str, Any],
                 standings: Standings) -> dict[str, int]:
        """Each player's place in a finished game as the game means it (1 = won; ties share)."""
        ...


def name_key(name: str) -> str:
    """What two player names must differ in, everywhere (the one place it is defined):
    case and compatibility forms (fullwidth letters, ligatures) ignored, and so any
    Unicode spelling of the same letters, so ``Ann``, ``ANN`` and ``ＡＮＮ`` are one name.

    >>> name_key("ＡＮＮ") == name_key("ann") == name_key("Ann")
    True
    """
    return unicodedata.normalize("NFKC", name.casefold()).casefold()


def same_name(first: str, second: str) -> bool:
    return name_key(first) == name_key(second)


def match_player(players: Sequence[str], typed: str, what: str = "") -> str:
    """The session's spelling of ``typed``: the player whose name is the same
    (:func:`name_key`), so an ``é`` typed as ``e`` + accent, or in another case, matches.

    ``what`` is the role looked for, already translated (``_("declarer")``); default: player.
    """
    wanted = name_key(typed.strip())
    for name in players:
        if name_key(name) == wanted:
            return name
    close = _close_name(players, typed)
    names = ", ".join(players)
    if close:
        message = _("there is no {what} called {typed} (did you mean {close}?): "
                    "the players are {players}")
    else:
        message = _("there is no {what} called {typed}: the players are {players}")
    raise EntryError(message.format(what=what or _("player"), typed=repr(typed.strip()),
                                    close=close, players=names))


def match_at_prompt(players: Sequence[str], typed: str, what: str = "") -> str:
    """Like :func:`match_player`, but at a prompt the start of a name is enough when only
    one name starts that way (``d`` for Dan).

    >>> match_at_prompt(["Ann", "Dan", "Dave"], "an"), match_at_prompt(["Ann", "Dan"], "d")
    ('Ann', 'Dan')
    """
    wanted = name_key(typed.strip())
    if not wanted:
        raise EntryError(_("type a name: {players}").format(players=", ".join(players)))
    exact = [name for name in players if name_key(name) == wanted]
    starting = [name for name in players if name_key(name).startswith(wanted)]
    if exact or len(starting) == 1:
        return (exact or starting)[0]
    if starting:
        raise EntryError(_("{typed} could be {names}: type more of the name").format(
            typed=repr(typed.strip()), names=_(" or ").join(starting)))
    return match_player(players, typed, what)


def _close_name(players: Sequence[str], typed: str) -> str:
    """The player a near miss meant (difflib, ignoring case), or the one player whose
    name starts with what was typed (``Al`` for Alexander, too short for difflib), else
    ""."""
    import difflib  # only when a name is mistyped

    keyed = {name_key(name): name for name in players}
    wanted = name_key(typed.strip())
    close = difflib.get_close_matches(wanted, list(keyed), n=1, cutoff=0.6)
    starting = [key for key in keyed if wanted and key.startswith(wanted)]
    if not close and len(starting) == 1:
        close = starting
    return keyed[close[0]] if close else ""


def looks_like_whole_number(text: str) -> bool:
    """An optional sign then ASCII digits only (not ``²``, ``+-5`` or ``1_000``)."""
    return _WHOLE_NUMBER.fullmatch(text.strip()) is not None


def parse_whole_number(text: str, what: str) -> int:
    stripped = text.strip()
    if looks_like_whole_number(stripped):
        try:
            return int(stripped)
        except ValueError:  # more digits than int() converts
            raise EntryError(_("{what} is far too large: {digits}...").format(
                what=what, digits=stripped[:12])) from None
    raise EntryError(_("{what} must be a whole number, not {value}").format(
        what=what, value=repr(text.strip())))


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def collect_values(players: Sequence[str], entry: RoundEntry, what: str) -> dict[str, str]:
    """Map each typed ``NAME=VALUE`` to the session's spelling of NAME, refusing repeats."""
    found: dict[str, str] = {}
    for typed, raw in entry.values:
        name = match_player(players, typed)
        if name in found:
            raise EntryError(_("{name} is entered twice: give one {what} per player").format(
                name=name, what=what))
        found[name] = raw
    return found


def check_participants(entered: Iterable[str], expected: Sequence[str], what: str) -> None:
    """Exactly one value per expected player: nobody missing, nobody extra."""
    entered = list(entered)
    extra = [name for name in entered if name not in expected]
    if extra:
        raise EntryError(_("{name} is not in this deal and gets no {what}: enter one for "
                           "{players}").format(name=extra[0], what=what,
                                               players=", ".join(expected)))
    missing = [name for name in expected if name not in entered]
    if missing:
        message = ngettext(
            "{names} is missing: enter a {what} for every player still in: {players}",
            "{names} are missing: enter a {what} for every player still in: {players}",
            len(missing))
        raise EntryError(message.format(names=", ".join(missing), what=what,
                                        players=", ".join(expected)))


def option_whole_number(value: Any, what: str) -> int:
    """A whole-number house rule, from JSON (int) or the command line (text)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and looks_like_whole_number(value):
        return parse_whole_number(value, what)
    raise EntryError(_("{what} must be a whole number, not {value}").format(
        what=what, value=repr(value)))


_Parsed = TypeVar("_Parsed")


def parsed_once(parse: Callable[[Mapping[str, Any]], _Parsed]
                ) -> Callable[[Mapping[str, Any]], _Parsed]:
    """``parse`` (house rules -> the game's typed Options) memoised on the options' values
    and types: a session's options are parsed once, not again on every recompute, check
    and view (an add-round used to parse them about ten times). Refusals are not kept.
    """

    @functools.lru_cache(maxsize=256)
    def cached(items: tuple[tuple[str, str, Any], ...]) -> _Parsed:
        return parse({key: value for key, _kind, value in items})

    def parsed(options: Mapping[str, Any]) -> _Parsed:
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
    """A house rule with named values (``--tie declarer-loses``), ignoring case."""
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        choices = _(" or ").join(member.value for member in kind)
        raise EntryError(_("{flag} must be {choices}, not {value}").format(
            flag=f"--{option}", choices=choices, value=repr(value))) from None


def rename_keys(mapping: Mapping[str, Any], names: Mapping[str, str]) -> JSONDict:
    return {names.get(key, key): value for key, value in mapping.items()}


def check_deal_dealer(round_: Round, dealer: str | None) -> None:
    """A virtual round must have been dealt by whoever's deal it was."""
    recorded = round_.recorded
    if recorded is not None and isinstance(recorded.deal, dict) and dealer is not None \
            and recorded.dealer != dealer:
        raise EntryError(_("the deal says {dealt} dealt, but it was {dealer}'s deal").format(
            dealt=recorded.dealer, dealer=dealer))


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
        return option_flag(self.key)

    @property
    def as_typed(self) -> str:
        return f"{self.option} {self.value}"


# ---------------------------------------------------------------------------
# What a game declares to the generic layers (registry, session, store, cli)


def option_flag(key: str) -> str:
    """The command-line spelling of an option key: ``two_pairs`` -> ``--two-pairs``."""
    return "--" + key.replace("_", "-")


@dataclass(frozen=True, slots=True)
class HouseRuleOption:
    """One house rule a game takes (``score new --KEY VALUE``): its key in the session's
    options (FORMAT.md), its default, its allowed values and its help.

    >>> HouseRuleOption("two_pairs", "same-rank", "two pairs", ("same-rank", "any-rank")).metavar
    'same-rank|any-rank'
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
    """One option of ``add-round``/``edit-round`` for a game's rounds (``--declarer NAME``).

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
        """``--declarer NAME``, ``--bid N``, ``--trump SUIT``."""
        return self.value_name or {"name": "NAME", "number": "N"}.get(self.kind, "TEXT")


@dataclass(frozen=True, slots=True)
class RoundCaption:
    """How one round is named, the same in the grid, the exports, the log and undo."""

    role: str
    """The grid's role cell: ``Ann``, ``Bob 9``, ``no bid``."""
    sentence: str
    """What happened, for one line (``undo``): ``Ann declared``, ``Bob bid 9``, ``no bid``."""
    suit: str = ""
    """A suit letter the round names (shown after the role: the trump)."""
    failure: str = ""
    """One word when the round's main act failed (``false``, ``failed``), else empty."""
    failure_note: str = ""
    """That failure said in full, for the line after a round is entered."""
    marked: str | None = None
    """A player the grid marks with ``*`` (the declarer)."""
    acted: bool = True
    """False when nobody took the round's role (a no-bid deal): shown dim."""


class RoundQuestions(Protocol):
    """How a game asks, at a terminal, for what a round lacks: one question at a time,
    each answer checked with the same rules and messages as the command line."""

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

    def entry_of(self, round_: Round) -> RoundEntry:
        """A stored round as it would be typed on the command line."""
        ...


SELF = "self"
"""What an :class:`EntryField` claim sets a round option to: the entering player's name."""
VALUE = "value"
"""...or the value the player gave in that field (a number: One Card's bid)."""


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field of a player's own entry page (``score serve --entry``).

    ``kind``: ``text``, ``number`` (a whole number) or ``switch`` (a box to tick).
    A *claim* (``sets`` not empty) is something the player says about the deal itself,
    filling round options the keeper's ``add-round`` left out: ``("declarer", SELF)``
    makes the player who ticked "I declared" the ``--declarer``; ``("bid", VALUE)`` takes
    the number typed as ``--bid``."""

    key: str
    kind: Literal["text", "number", "switch"]
    label: str
    """What the page asks (N_-marked in the game's folder)."""
    example: str = ""
    """A placeholder showing what to type (``7 or AH,3S``)."""
    sets: tuple[tuple[str, str], ...] = ()
    """(round option key, SELF or VALUE) for each round option a claim fills."""


class EntryProblem(EntryError):
    """A player's own entry refused, or the entries of a deal that can't make a round yet."""


@dataclass(frozen=True, slots=True)
class EntryForm:
    """What each player enters on their own page for a deal at the table (declared in
    the game's folder, ``GameDeclaration.entry_form``): their value (the same text as
    ``NAME=VALUE`` on ``add-round``'s command line) and any claims about the deal.

    A player's entry is checked with the game's own round checks (its questions'
    ``check_given``, as ``add-round`` checks a typed value), and the deal's entries make
    the :class:`RoundEntry` ``add-round`` records (:meth:`round_entry`)."""

    value: EntryField
    claims: tuple[EntryField, ...] = ()
    values_unless: tuple[str, ...] = ()
    """Round options that, once given, leave the values out of the round (Hearts' moon:
    the points are counted for the players)."""

    @property
    def fields(self) -> tuple[EntryField, ...]:
        return (self.value, *self.claims)

    def needs_values(self, options: Mapping[str, EntryValue]) -> bool:
        return not any(options.get(key) not in (None, False) for key in self.values_unless)

    def read(self, player: str, posted: Mapping[str, object]) -> dict[str, EntryValue]:
        """A player's posted fields as stored: text stripped, numbers parsed, switches
        True or left out, empty fields left out; a field of the wrong type refused."""
        fields: dict[str, EntryValue] = {}
        for spec in self.fields:
            raw = posted.get(spec.key)
            if raw is None or raw is False or raw == "":
                continue
            if spec.kind == "switch":
                if raw is not True:
                    raise EntryProblem(_("{field} is a box to tick or not").format(
                        field=_(spec.label)))
                fields[spec.key] = True
                continue
            if not isinstance(raw, str) or len(raw) > MAX_ENTRY_TEXT:
                raise EntryProblem(_("{field}: type at most {most} characters").format(
                    field=_(spec.label), most=MAX_ENTRY_TEXT))
            text = raw.strip()
            if not text:
                continue
            if spec.kind == "number" and not looks_like_whole_number(text):
                raise EntryProblem(_("{field}: type a whole number, not {value}").format(
                    field=_(spec.label), value=repr(text)))
            fields[spec.key] = (parse_whole_number(text, _(spec.label))
                                if spec.kind == "number" else text)
        return fields

    def claimed(self, player: str, fields: Mapping[str, EntryValue]) -> dict[str, EntryValue]:
        """The round options one player's claims fill."""
        options: dict[str, EntryValue] = {}
        for spec in self.claims:
            value = fields.get(spec.key)
            if value is None or value is False:
                continue
            for key, what in spec.sets:
                options[key] = player if what == SELF else value
        return options

    def player_entry(self, player: str, fields: Mapping[str, EntryValue]) -> RoundEntry:
        """One player's entry as ``add-round`` would see it typed: their own value and the
        round options their claims fill."""
        options = self.claimed(player, fields)
        value = fields.get(self.value.key)
        if not self.needs_values(options):
            values: tuple[tuple[str, str], ...] = ()
        elif value is None:
            raise EntryProblem(_("{field}: this is what the deal needs from you").format(
                field=_(self.value.label)))
        else:
            values = ((player, str(value)),)
        return RoundEntry(values, **options)

    def round_entry(self, given: RoundEntry, expected: Sequence[str],
                    entered: Mapping[str, Mapping[str, EntryValue]]) -> RoundEntry:
        """The deal's round from the players' entries (``entered``: each player's fields)
        and the options the keeper's ``add-round`` gave (``given``, which win over a
        claim). Refused, in one line, while a player of ``expected`` has not entered or
        two claims disagree."""
        options: dict[str, EntryValue] = {}
        claimers: dict[str, str] = {}
        for player in expected:
            for key, value in self.claimed(player, entered.get(player, {})).items():
                if given.get(key) not in (None, False):
                    continue
                if key in options and options[key] != value:
                    raise EntryProblem(_("{first} and {second} both say {flag} in their "
                                         "entries: give {flag} on the command line").format(
                        first=claimers[key], second=player, flag=option_flag(key)))
                options[key], claimers[key] = value, player
        entry = given.with_fields(**options)
        if not self.needs_values(entry.fields):
            return entry
        missing = [player for player in expected
                   if entered.get(player, {}).get(self.value.key) is None]
        if missing:
            raise EntryProblem(ngettext(
                "{names} has not entered yet: wait for their entry, or type every "
                "player's NAME=VALUE",
                "{names} have not entered yet: wait for their entries, or type every "
                "player's NAME=VALUE", len(missing)).format(names=", ".join(missing)))
        return entry.with_values(tuple((player, str(entered[player][self.value.key]))
                                       for player in expected))


MAX_ENTRY_TEXT = 200
"""The longest text a field of an entry page takes (five cards take 14 characters)."""


# ---------------------------------------------------------------------------
# Parts of a declaration loaded on first use

_Loaded = TypeVar("_Loaded")

_made: dict[type, object] = {}
"""The one object made of each class a declaration names (a game's table is its
questions too, and its ``widest_round`` is the same table's method)."""


def load_where(where: str) -> object:
    """What ``where`` names: ``module:attribute`` (dots after the colon go on into the
    attribute), the module imported; a class met on the way is made once (called without
    arguments, as ``virtual=`` is) and stands for its object, so
    ``pkg.table:LeastScoreTable.widest_round`` is that one table's method.

    >>> load_where("scorekeeper.games.common:MAX_ENTRY_TEXT")
    200
    """
    module, colon, attribute = where.partition(":")
    if not colon or not module.strip():
        raise ValueError(f"{where!r} does not say where it is (module:attribute)")
    found: object = importlib.import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        found = getattr(found, part)
        if isinstance(found, type):
            if found not in _made:
                _made[found] = found()
            found = _made[found]
    return found


class LoadedOnUse(Generic[_Loaded]):
    """A field of :class:`GameDeclaration` given either as the thing itself or as where it
    lives (``"module:attribute"``, :func:`load_where`), loaded when first read.

    Every command loads every game's declaration (the command line lists their options),
    so a declaration names its table rather than importing it: a command on one game's
    session imports that game's table only (docs/performance.md). Reading the field gives
    the thing (loaded once); the declaration keeps what was given
    (:meth:`GameDeclaration.given`). ``dataclasses.replace`` reads every field it is not
    given, so a variant made with it restates the loaded parts it keeps (or they load when
    it is declared)."""

    def __init__(self, *, required: bool = False) -> None:
        self.required = required
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object | None, owner: type) -> _Loaded:
        if instance is None:  # the dataclass asking for the default
            if self.required:
                raise AttributeError(self.name)
            return None  # type: ignore[return-value]  # the field is Optional then
        value = instance.__dict__[self.name]
        if isinstance(value, str):
            value = load_where(value)
            check = getattr(instance, "check_loaded", None)
            if check is not None:
                check(self.name, value)
            instance.__dict__[self.name] = value
        return value  # type: ignore[no-any-return]

    def __set__(self, instance: object, value: _Loaded | str) -> None:
        instance.__dict__[self.name] = value


@dataclass(frozen=True, kw_only=True)
class GameDeclaration:
    """Everything the generic layers know of one game, declared in its own folder.

    The registry lists these; the session, the store and the command line read them and
    never a game's name or its round's keys.
    """

    table: LoadedOnUse[TableGame] = LoadedOnUse(required=True)
    """The scorekeeper side: options, round checks, standings, statistics, captions.
    Declared as where it lives (``"pkg.table:TheTable"``, made on first use, with
    :attr:`name` and :attr:`title` declared beside it), or as the table itself."""
    house_rules: tuple[HouseRuleOption, ...]
    """``score new``'s options for this game, in the order they are listed."""
    round_options: tuple[RoundOption, ...]
    """``add-round``'s options for this game's rounds."""
    round_usage: str
    """What a round takes besides the values, for a message: ``--declarer NAME``."""
    value_word: str
    """What each player's ``NAME=VALUE`` is: ``hand total or cards``, ``points``."""
    values_help: str
    """The values in ``add-round --help``: ``each player's points (Ann=4)``."""
    role_heading: str
    """The grid's column for :attr:`RoundCaption.role`: ``Declarer``, ``Bid``."""
    grid_legend: str
    """The line under the round grid."""
    values_key: str
    """The round key (FORMAT.md) of what each player's ``NAME=VALUE`` entered: ``totals``."""
    value_column: str
    """That value in a CSV column's name: ``Ann hand``, ``Ann points``."""
    csv_columns: tuple[str, ...]
    """The round keys (FORMAT.md) a CSV row carries after number and dealer."""
    checked_results: tuple[str, ...] = ()
    """Round keys (FORMAT.md) derived by scoring that an import re-checks, beyond scores
    and knock-outs."""
    questions: LoadedOnUse[RoundQuestions | None] = LoadedOnUse()
    """At a terminal: what to ask for a round the command line left incomplete, each
    answer checked as it is typed. Without it each missing round option and value is
    asked plainly and checked at the end."""
    narrow_note_heading: str = ""
    """The heading of the game's own column in the narrow grid of ``score show`` (on a
    phone), "" for none."""
    narrow_legend: tuple[tuple[str, str], ...] = ()
    """Each sign the narrow grid puts after a running total, with what it means
    (default: ``*`` for the player the round's caption marks)."""
    narrow_marks: LoadedOnUse[Callable[[ScoredRound], GridMarks] | None] = LoadedOnUse()
    """A round's signs in the narrow grid (default: from :meth:`TableGame.caption`, ``*``
    for the marked player, ``!`` when the round's act failed)."""
    widest_round: LoadedOnUse[Callable[[Sequence[str], Mapping[str, Any]], ScoredRound] | None] \
        = LoadedOnUse()
    """A scored round as wide as the wide grid of ``score show`` can get
    for these players and house rules: the longest caption, a failure marked, and the
    highest score a deal can give. ``score show`` picks its layout once for the whole
    session from it, so it does not switch part-way through the night (default: the
    rounds played so far)."""
    virtual: str | None = None
    """Where the virtual deck's adapter lives (``module:Class``), imported on first use."""
    bots: tuple[str, ...] = ()
    """The bot levels its virtual deck offers (``--bot``); the bots load with the deck."""
    keyboard_ui: str | None = None
    """The module that shows a view and reads a move at the keyboard, imported on use."""
    online_ui: str | None = None
    """The module that shows a seat's view on its phone and reads its posted moves
    (``score play --online``: ``seat_state``, ``public_state``, ``action_of``,
    ``describe_action``, ``describe_end``, ``hint``), imported on use."""
    words: Domain | None = None
    """Where the game's own catalog is (its gettext domain, in its folder's ``locale/``):
    the words it declares here (help texts, headings, legends) are translated there."""
    description: str = ""
    """The game in one sentence (``score games``; N_-marked, or a group's file's text)."""
    game_files: str | None = None
    """Where the function lives (``module:function``) that makes games of this kind from
    the group's own files, one a file in the config folder's ``games/``: given that
    folder, it gives the declarations it made and one line for each file it refused."""
    origin: str = ""
    """Where a game made from a group's file comes from (its path); "" for the others."""
    roster: LoadedOnUse[RosterRule | None] = LoadedOnUse()
    """How players join and leave between deals (``score add-player`` / ``drop-player``):
    the game's rule, or None when its players are fixed at ``score new``. A variant
    declared with ``replace`` keeps its base's."""
    entry_form: EntryForm | None = None
    """What each player enters on their own page at the table (``score serve --entry``);
    None: the game takes no entries from the players' pages."""
    base: str | None = None
    """The package of the game this one builds on (a variant: its table subclasses the
    base's, its declaration replaces what differs); the only other game it may import."""

    name: str = ""
    """The game's name (``least-score``): its table's, declared beside a table named by
    where it lives (taken from a table given itself)."""
    title: str = ""
    """The game's title (``Least Score``), likewise."""

    def __post_init__(self) -> None:
        table = self.given("table")
        if not isinstance(table, str):
            object.__setattr__(self, "name", table.name)
            object.__setattr__(self, "title", table.title)
        elif not (self.name and self.title):
            raise ValueError(f"a game whose table is loaded on use ({table}) declares its "
                             "name and title")

    def given(self, field_name: str) -> Any:
        """A field as declared: for a part loaded on use, where it lives until it is read."""
        return self.__dict__[field_name]

    def check_loaded(self, field_name: str, value: object) -> None:
        """A table loaded on use must be the game declared: its name and title."""
        if field_name == "table" and (getattr(value, "name", None), getattr(
                value, "title", None)) != (self.name, self.title):
            raise ValueError(f"{self.given('table')} is not the table of {self.name} "
                             f"({self.title})")

    @property
    def stat_figures(self) -> tuple[StatFigure, ...]:
        return self.table.stat_figures


def read_rules_text(folder: Traversable, language: Language) -> str:
    """A game's rules text in ``language``, as shipped in the package."""
    return (folder / f"{language.value}.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# Players who join and leave between deals (``score add-player`` / ``drop-player``)

MAX_STARTING_TOTAL = 1_000_000
"""The generic bound on a late player's starting total, either way (a typing slip guard)."""


@dataclass(frozen=True, slots=True)
class RosterChange:
    """A player joining (at a starting total) or leaving, after ``after`` rounds.

    Stored, and exported, as ``{"after": 2, "join": "Dan", "total": 45}`` or
    ``{"after": 3, "leave": "Bob"}`` (docs/format.md's ``roster``).

    >>> RosterChange(2, "Dan", joined=True, total=45).to_json()
    {'after': 2, 'join': 'Dan', 'total': 45}
    """

    after: int
    player: str
    joined: bool
    total: int | None = None
    """A join's starting total (None for a leave)."""

    def to_json(self) -> JSONDict:
        if self.joined:
            return {"after": self.after, "join": self.player, "total": self.total}
        return {"after": self.after, "leave": self.player}

    @classmethod
    def from_json(cls, data: Any) -> RosterChange:
        """A stored or imported change, every part checked for its type."""
        shape = _('a roster change must be {"after": N, "join": NAME, "total": N} or '
                  '{"after": N, "leave": NAME}')
        if not isinstance(data, dict):
            raise EntryError(shape)
        after = data.get("after")
        if type(after) is not int or not 0 <= after <= 1_000_000:
            raise EntryError(shape)
        if set(data) == {"after", "join", "total"} and isinstance(data["join"], str) \
                and type(data["total"]) is int \
                and abs(data["total"]) <= MAX_STARTING_TOTAL:
            return cls(after, data["join"], joined=True, total=data["total"])
        if set(data) == {"after", "leave"} and isinstance(data["leave"], str):
            return cls(after, data["leave"], joined=False)
        raise EntryError(shape)

    def renamed(self, names: Mapping[str, str]) -> RosterChange:
        return replace(self, player=names.get(self.player, self.player))

    def at(self, after: int) -> RosterChange:
        return replace(self, after=after)

    def describe(self) -> str:
        """``Dan joined at 45``, ``Bob left``: the change in the log and the views."""
        if self.joined:
            return _("{name} joined at {total}").format(name=self.player, total=self.total)
        return _("{name} left").format(name=self.player)


def next_seat(seating: Sequence[str], name: str, among: Iterable[str]) -> str | None:
    """The next player after ``name`` in seating order (to the left) among ``among``;
    None when there is nobody."""
    remaining = set(among)
    start = seating.index(name)
    for step in range(1, len(seating) + 1):
        candidate = seating[(start + step) % len(seating)]
        if candidate in remaining:
            return candidate
    return None


class RosterTimeline:
    """A session's roster changes laid over its rounds, for a game's standings loop.

    ``players`` is the whole seating (everyone who ever sat, a late player after those
    already seated); :meth:`start` is who played the first deal and :meth:`apply` brings
    in the changes made after each round, checking each against the game's range of
    players (``low``, ``high``: those still in count)."""

    def __init__(self, players: Sequence[str], roster: Sequence[RosterChange], rounds: int,
                 low: int, high: int) -> None:
        self.players, self.roster, self.low, self.high = list(players), list(roster), low, high
        joins = [change.player for change in roster if change.joined]
        previous = 0
        for change in roster:
            if change.after < previous or change.after > rounds:
                raise RosterError(change.after, change.describe(), _(
                    "the changes must follow the rounds in order, each after round 0 to "
                    "{rounds}").format(rounds=rounds))
            previous = change.after
            if change.player not in self.players:
                raise RosterError(change.after, change.describe(), _(
                    "{name} is not among the session's players").format(name=change.player))
            if change.joined and joins.count(change.player) > 1:
                raise RosterError(change.after, change.describe(), _(
                    "{name} joins twice").format(name=change.player))
        self.joined = set(joins)

    def start(self) -> list[str]:
        return [name for name in self.players if name not in self.joined]

    def apply(self, after: int, still_in: list[str], running: dict[str, int],
              left: list[str], dealer: str | None) -> tuple[list[str], str | None]:
        """Who is still in, and who deals next, once the changes made after round
        ``after`` are applied, one by one; ``running`` gets each late player's starting
        total, ``left`` each leaver. A leaver's deal passes to the next player still in
        (a late player who joins afterwards does not take it back)."""
        present = set(still_in)
        for change in self.roster:
            if change.after != after:
                continue
            what = change.describe()
            if change.joined:
                if change.player in running:
                    raise RosterError(after, what, _("{name} is already in the game")
                                      .format(name=change.player))
                running[change.player] = change.total or 0
                present.add(change.player)
            else:
                if change.player not in present:
                    raise RosterError(after, what, _("{name} is not playing, so can't leave")
                                      .format(name=change.player))
                present.discard(change.player)
                left.append(change.player)
            if not self.low <= len(present) <= self.high:
                raise RosterError(after, what, _(
                    "the game takes {low} to {high} players still in, not {n}").format(
                    low=self.low, high=self.high, n=len(present)))
            if dealer is not None and dealer not in present and dealer in self.players:
                dealer = next_seat(self.players, dealer, present)
        return [name for name in self.players if name in present], dealer

    def starting(self) -> dict[str, int]:
        return {change.player: change.total or 0 for change in self.roster if change.joined}


class RosterRule:
    """How a game takes players who join and leave between deals: declared by the game
    (:attr:`GameDeclaration.roster`); a game that declares none keeps the players of
    ``score new``.

    This generic rule starts a late player at 0 and takes any starting total within
    :data:`MAX_STARTING_TOTAL` either way; the session keeps the number of players still
    in within the table's range. A game subclasses it for what differs (its starting
    total, what a total may be, a refusal of its own) and gives :meth:`recompute`, its
    standings with the changes laid over its rounds."""

    def starting_total(self, table: TableGame, options: Mapping[str, Any],
                       standings: Standings) -> int:
        """A late player's total when ``--total`` does not say."""
        return 0

    def starting_words(self, table: TableGame, options: Mapping[str, Any],
                       standings: Standings, name: str, total: int) -> str:
        """Why ``name``, who joined, starts at ``total`` (``standings``: with them), after
        the total: ``at 0, where every player started``; a game says its own rule."""
        if total == 0:
            return _("at 0, where every player started")
        return _("at {total}, as --total said").format(total=total)

    def check_total(self, table: TableGame, options: Mapping[str, Any], total: int) -> None:
        """Refuse a starting total the game does not allow (EntryError)."""
        if abs(total) > MAX_STARTING_TOTAL:
            raise EntryError(_("a starting total must be within {most} either way, not "
                               "{total}").format(most=MAX_STARTING_TOTAL, total=total))

    def check_join(self, table: TableGame, options: Mapping[str, Any],
                   standings: Standings, name: str) -> None:
        """Refuse a join the game's own rules forbid (beyond the range of players)."""

    def check_leave(self, table: TableGame, options: Mapping[str, Any],
                    standings: Standings, name: str) -> None:
        """Refuse a leave the game's own rules forbid (beyond the range of players)."""

    def recompute(self, table: TableGame, players: Sequence[str], options: Mapping[str, Any],
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange]) -> Standings:
        """The standings with the changes laid over the rounds (the game's table)."""
        raise NotImplementedError

    def standings(self, table: TableGame, players: Sequence[str], options: Mapping[str, Any],
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange]) -> Standings:
        """:meth:`recompute`, each late player's starting total checked first."""
        for change in roster:
            if change.joined:
                try:
                    self.check_total(table, options, change.total or 0)
                except EntryError as error:
                    raise RosterError(change.after, change.describe(), str(error)) from None
        return self.recompute(table, players, options, first_dealer, rounds, roster)
