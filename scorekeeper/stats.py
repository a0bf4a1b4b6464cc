"""Statistics across sessions: who plays, who wins, how, and a rating per game.

Pure functions over :class:`~scorekeeper.session.Session` objects, each first reduced
to what the statistics read of it (:class:`Played`: its players, places, winners and
summed tallies, scored through its game's standings). ``score stats`` may take a session's
:class:`Played` from the store's record of it (``scorekeeper.derived``), which is used
only when a digest of the session's very text and of the scoring code matches; every
figure is still the rounds' own.
Only finished sessions count; abandoned and unfinished ones are counted apart.

* A *player* is a person across sessions: names that are equal ignoring case (after
  NFC normalisation) are the same player (:func:`player_key`), shown as the roster
  spells them (:func:`roster_names`).
* Only table sessions count unless the query asks for virtual games too
  (``score stats --virtual``); then a bot's seat is a bot (:func:`bot_seats`), never one
  of the people, and bots are listed apart from them, not ranked among them.
* A *place* is what the game says it is (``TableGame.placings``): a game may place
  the knocked-out players by how long they lasted (Least Score played to the end).
* A win shared by k players counts 1/k, as ``score simulate`` counts it; the win
  rate's 95 % interval is Wilson's.
* Game-specific figures are the game's own (``TableGame.stat_figures``), summed
  from its rounds' ``tallies``; nothing here branches on a game's name.
* The rating is openskill's Plackett–Luce model, one rating per game, updated
  session by session in the order they were played (:mod:`scorekeeper.ratings`: the
  very figures of openskill's ``PlackettLuce.rate``, without its cost).
* The record across games (:class:`PlayerRecord`) is each player's sessions of every
  game the query selects: an unfinished session counts as played, never as won (nor
  lost: the win rate is over finished sessions); an abandoned one is left out. It is
  built from the placings above and the games' names as data, never from a game's key.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from functools import lru_cache
from typing import Any, Protocol, TypeVar, cast

from scorekeeper.derived import facts_of
from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, name_key
from scorekeeper.kit.rounds import JSONObject
from scorekeeper.kit.standings import StatFigure
from scorekeeper.ratings import MU, SIGMA, Rating, plackett_luce, wilson_interval
from scorekeeper.registry import get_game
from scorekeeper.session import Session

SPARK_LEVELS = "▁▂▃▄▅▆▇█"
LAST_RESULTS = 10


@lru_cache(maxsize=4096)  # a store's few names, normalised once, not once a seat
def player_key(name: str) -> str:
    """The identity of a player across sessions: the same name as within one session
    (:func:`scorekeeper.kit.entries.name_key`)."""
    return name_key(name)


BOT_KEY = "=bot="
"""The start of a bot seat's key: ``=`` is in no player's name, so no person is ever
taken for a bot (or a bot for a person) however they are spelled."""


class Dated(Protocol):
    """A session or what the statistics read of one: when it started, its id."""

    @property
    def created(self) -> str: ...

    @property
    def id(self) -> int | None: ...


D = TypeVar("D", bound=Dated)


@dataclass(frozen=True)
class Played:
    """What the statistics read of one session (:meth:`of`): who sat where, whether it
    finished, and for a finished one its winners, each player's place and each player's
    tallies summed over its rounds. ``score stats`` may read it from the store's record
    of the session instead (``scorekeeper.derived``), where it is kept with a digest of
    the session's text and of the scoring code it was computed with."""

    id: int | None
    game: str
    players: tuple[str, ...]
    mode: str
    created: str
    abandoned: str
    finished: bool
    bots: Mapping[str, str] = field(default_factory=dict)
    """The seats a bot played (:func:`bot_seats`): name -> level."""
    winners: tuple[str, ...] = ()
    places: Mapping[str, int] = field(default_factory=dict)
    tallies: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Each player's tallies (``ScoredRound.tallies``) summed over the rounds."""

    @classmethod
    def of(cls, session: Session) -> Played:
        """Everything the statistics read of ``session``, scored by its game."""
        return _played_from_json(facts_of(session), session.id)

    def to_json(self) -> JSONObject:
        """The JSON kept in the store's record (:meth:`from_json` reads it back)."""
        return {"game": self.game, "players": list(self.players), "mode": self.mode,
                "created": self.created, "abandoned": self.abandoned,
                "finished": self.finished, "bots": dict(self.bots),
                "winners": list(self.winners), "places": dict(self.places),
                "tallies": {name: dict(counts) for name, counts in self.tallies.items()}}

    @classmethod
    def from_json(cls, data: Any, session_id: int | None) -> Played | None:
        """What :meth:`to_json` wrote, checked whole; None for anything else."""
        try:
            return _played_from_json(data, session_id)
        except (TypeError, ValueError, KeyError, AttributeError):
            return None


_STRINGS, _INTS = frozenset({str}), frozenset({int})


def _texts(values: Any) -> tuple[str, ...]:
    """``values`` (a JSON list) as strings; a TypeError if one is not a string."""
    found = tuple(values)
    if not _STRINGS.issuperset(map(type, found)) and \
            not all(isinstance(value, str) for value in found):
        raise TypeError(found)
    return found


def _object(data: Any) -> dict[str, object]:
    """A JSON object (as parsed: kept, not copied) or any other mapping (copied)."""
    return data if type(data) is dict else dict(data.items())


def _text_map(data: Any) -> dict[str, str]:
    found = _object(data)
    _texts(found.values())
    _texts(found)  # the keys
    return cast("dict[str, str]", found)


def _count_map(data: Any) -> dict[str, int]:
    """``data`` (a JSON object) as strings -> counts: int, never bool; else a TypeError.
    (The types checked by ``map``, not one call per value: 1,000 records have 25,000.)"""
    found = _object(data)
    if not _INTS.issuperset(map(type, found.values())) and not all(
            isinstance(value, int) and not isinstance(value, bool)
            for value in found.values()):
        raise TypeError(found)
    _texts(found)  # the keys
    return cast("dict[str, int]", found)


def _played_from_json(data: Any, session_id: int | None) -> Played:
    """The facts (:func:`scorekeeper.derived.facts_of`, or as a record kept them) checked
    whole: a TypeError, ValueError, KeyError or AttributeError for anything else. Their
    objects are kept as they are, not copied (each is parsed for this one use)."""
    players = _texts(data["players"])
    seated = set(players)
    bots = _text_map(data["bots"])
    winners = _texts(data["winners"])
    places = _count_map(data["places"])
    tallies = _object(data["tallies"])
    for name, counts in tallies.items():
        tallies[name] = _count_map(counts)
    _texts(tallies)
    finished = data["finished"]
    if not isinstance(finished, bool) or len(seated) != len(players) or \
            not seated.issuperset(bots) or not seated.issuperset(winners) or \
            not seated.issuperset(tallies) or \
            (finished and seated != places.keys()) or (not finished and places):
        raise ValueError(data)
    game, mode, created, abandoned = _texts((data["game"], data["mode"], data["created"],
                                              data["abandoned"]))
    return Played(session_id, game, players, mode, created, abandoned, finished, bots,
                  winners, places, cast("dict[str, dict[str, int]]", tallies))


def bot_seats(session: Session | Played) -> dict[str, str]:
    """The seats of a game on the virtual deck that a bot played: name -> level ({} at a
    table, and for an imported game, whose seats are not known)."""
    if isinstance(session, Played):
        return dict(session.bots)
    if session.mode != "virtual" or session.virtual is None:
        return {}
    return {seat.name: seat.bot for seat in session.virtual.seats if seat.bot is not None}


def seat_keys(session: Session | Played) -> dict[str, str]:
    """Each seat's key: the player's (:func:`player_key`), or for a bot ``=bot=`` and its
    name's."""
    bots = bot_seats(session)
    return {name: BOT_KEY + player_key(name) if name in bots else player_key(name)
            for name in session.players}


def roster_names(sessions: Iterable[Session | Played]) -> dict[str, str]:
    """Each person's key -> their one spelling: the first seen, in the order played,
    in a session that counts (a table's, not abandoned); when they have none of those,
    the first in a virtual game, then in an abandoned session. ``score players
    rename`` and ``merge`` rewrite every session, so theirs is the spelling from then on.
    One night typed in lower case, or an abandoned session, does not change it."""
    return _roster_names(chronological(sessions))


def _roster_names(in_order: Sequence[Session | Played]) -> dict[str, str]:
    """:func:`roster_names` of sessions already in the order played."""
    def tier(session: Session | Played) -> int:
        return 2 * bool(session.abandoned) + (session.mode == "virtual")

    names: dict[str, str] = {}
    for session in sorted(in_order, key=tier):  # sorted() is stable
        bots = bot_seats(session)
        for name in session.players:
            if name not in bots:
                names.setdefault(player_key(name), name)
    return names


def played_at(session: Dated) -> datetime | None:
    """When the session started, as an aware time (None when it was not recorded)."""
    try:
        moment = datetime.fromisoformat(session.created)
    except ValueError:
        return None
    return moment.astimezone() if moment.tzinfo is None else moment


def played_order(session: Dated) -> tuple[float, int]:
    """A session's place in the order played: its start time, then its id."""
    moment = played_at(session)
    return (moment.timestamp() if moment else float("-inf"), session.id or 0)


def chronological(sessions: Iterable[D]) -> list[D]:
    """Sessions in the order they were played (start time, then id)."""
    return sorted(sessions, key=played_order)


@dataclass(frozen=True)
class StatsQuery:
    """What ``score stats`` was asked for."""

    game: str | None = None
    since: date | None = None
    until: date | None = None
    players: tuple[str, ...] = ()
    virtual: bool = False
    """Count games on the virtual deck too (bots shown as bots)."""

    def matches(self, session: Session | Played) -> bool:
        """The game and dates (the session's start, in its own local date), inclusive."""
        if self.game is not None and session.game != self.game:
            return False
        if self.since is None and self.until is None:
            return True
        moment = played_at(session)
        if moment is None:
            return False
        day = moment.date()
        return (self.since is None or day >= self.since) and \
            (self.until is None or day <= self.until)


@dataclass(frozen=True)
class Result:
    """One player's result in one finished session."""

    session_id: int | None
    game: str
    when: str
    place: int
    of: int
    win: float
    """The share of the win: 1, 1/k for a win shared by k players, 0."""

    @property
    def spark(self) -> str:
        if self.of <= 1:
            return SPARK_LEVELS[-1]
        level = round((self.of - self.place) / (self.of - 1) * (len(SPARK_LEVELS) - 1))
        return SPARK_LEVELS[level]


@dataclass(frozen=True)
class RatingPoint:
    session_id: int | None
    when: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The displayed rating: mu - 3 sigma (openskill's ordinal; 0 for a newcomer)."""
        return self.mu - 3 * self.sigma


@dataclass
class PlayerStats:
    key: str
    name: str
    results: list[Result] = field(default_factory=list)
    bot: str | None = None
    """A bot's seat: its level (``strong``); None for a person."""

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> float:
        return sum(result.win for result in self.results)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def average_place(self) -> float | None:
        return sum(r.place for r in self.results) / self.games if self.games else None

    @property
    def current_streak(self) -> int:
        streak = 0
        for result in reversed(self.results):
            if not result.win:
                break
            streak += 1
        return streak

    @property
    def longest_streak(self) -> int:
        longest = streak = 0
        for result in self.results:
            streak = streak + 1 if result.win else 0
            longest = max(longest, streak)
        return longest

    @property
    def last_results(self) -> list[Result]:
        return self.results[-LAST_RESULTS:]

    @property
    def sparkline(self) -> str:
        return "".join(result.spark for result in self.last_results)


@dataclass(frozen=True)
class Appearance:
    """A session a player sat in: its id, game and start time (``created``)."""

    session_id: int | None
    game: str
    when: str
    order: tuple[float, int]
    """Its place in the order played (:func:`played_order`)."""

    @classmethod
    def of(cls, session: Session | Played) -> Appearance:
        return cls(session.id, session.game, session.created, played_order(session))

    @property
    def day(self) -> date | None:
        """The day it started, in its own local date (as ``--since`` reads it)."""
        try:
            moment = datetime.fromisoformat(self.when)
        except ValueError:
            return None
        return (moment.astimezone() if moment.tzinfo is None else moment).date()


@dataclass
class GameRecord:
    """One player's sessions of one game: finished (their wins among them) and unfinished."""

    game: str
    title: str
    finished: int = 0
    unfinished: int = 0
    wins: float = 0.0
    last: Appearance | None = None

    @property
    def played(self) -> int:
        """Every session of the game they sat in, unfinished ones included."""
        return self.finished + self.unfinished

    @property
    def win_rate(self) -> float | None:
        """The wins over the finished sessions (None before one is finished)."""
        return self.wins / self.finished if self.finished else None

    def add(self, appearance: Appearance, finished: bool, win: float) -> None:
        if finished:
            self.finished += 1
            self.wins += win
        else:
            self.unfinished += 1
        if self.last is None or appearance.order >= self.last.order:
            self.last = appearance


@dataclass
class PlayerRecord:
    """A player's record across every game the query selects (:func:`compute`)."""

    key: str
    name: str
    bot: str | None = None
    games: dict[str, GameRecord] = field(default_factory=dict)
    """Per game, most played first (:func:`compute` orders them)."""

    @property
    def played(self) -> int:
        return sum(record.played for record in self.games.values())

    @property
    def finished(self) -> int:
        return sum(record.finished for record in self.games.values())

    @property
    def unfinished(self) -> int:
        return sum(record.unfinished for record in self.games.values())

    @property
    def wins(self) -> float:
        return sum(record.wins for record in self.games.values())

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None

    @property
    def last(self) -> Appearance | None:
        """The latest session they sat in, finished or not."""
        return max((r.last for r in self.games.values() if r.last is not None),
                   key=lambda appearance: appearance.order, default=None)

    @property
    def favourite(self) -> GameRecord | None:
        """The game they played most (a tie: the one played last)."""
        return next(iter(self.games.values()), None)

    @property
    def best(self) -> GameRecord | None:
        """The game with their best win rate, among two or more games with a finished
        session (a tie: more wins, then the more played); None with fewer, or no win."""
        decided = [record for record in self.games.values() if record.finished]
        if len(decided) < 2 or not self.wins:
            return None
        return max(decided, key=lambda r: (r.win_rate or 0.0, r.wins))  # max keeps the first

    def add(self, appearance: Appearance, title: str, finished: bool, win: float) -> None:
        record = self.games.get(appearance.game)
        if record is None:
            record = self.games[appearance.game] = GameRecord(appearance.game, title)
        record.add(appearance, finished, win)

    def ordered(self) -> PlayerRecord:
        """Its games most played first (a tie: the one played last first)."""
        def most_played(record: GameRecord) -> tuple[int, tuple[float, int]]:
            return (-record.played, _negated(record.last.order if record.last else None))
        self.games = dict(sorted(self.games.items(), key=lambda item: most_played(item[1])))
        return self


def _negated(order: tuple[float, int] | None) -> tuple[float, int]:
    return (float("inf"), 0) if order is None else (-order[0], -order[1])


@dataclass
class GameStats:
    """One game's own figures and ratings."""

    game: str
    title: str
    figures: tuple[StatFigure, ...]
    sessions: int = 0
    played: list[int | None] = field(default_factory=list)
    """The ids of the game's sessions, in the order played (and rated)."""
    tallies: dict[str, dict[str, int]] = field(default_factory=dict)
    ratings: dict[str, list[RatingPoint]] = field(default_factory=dict)
    """Each player's rating after each of their sessions of this game, oldest first."""

    def count(self, tallies: Mapping[str, Mapping[str, int]], keys: Mapping[str, str]) -> None:
        """Add a finished session's tallies (:attr:`Played.tallies`) to the players'."""
        for name, counts in tallies.items():
            totals = self.tallies.setdefault(keys[name], {})
            for tally, value in counts.items():
                totals[tally] = totals.get(tally, 0) + value

    def figure(self, key: str, figure: StatFigure) -> float | None:
        counts = self.tallies.get(key, {})
        top = counts.get(figure.numerator, 0)
        if figure.denominator is None:
            return float(top)
        bottom = counts.get(figure.denominator, 0)
        return top / bottom if bottom else None


@dataclass
class Stats:
    query: StatsQuery
    finished: int
    abandoned: int
    unfinished: int
    players: list[PlayerStats]
    """The people shown (all, or those asked for), best record first."""
    games: list[GameStats]
    ahead: dict[str, dict[str, int]]
    """ahead[a][b]: the finished sessions in which a placed better than b."""
    met: dict[str, dict[str, int]]
    """met[a][b]: the finished sessions a and b both played."""
    names: dict[str, str]
    """Each player's key -> their spelling (:func:`roster_names`); a bot's -> its seat."""
    bots: list[PlayerStats] = field(default_factory=list)
    """With virtual games: the bots' seats shown, apart from the people and by name,
    never ranked among them."""
    virtual_left_out: int = 0
    """Games on the virtual deck the query matched but did not count (no ``virtual``)."""
    records: list[PlayerRecord] = field(default_factory=list)
    """The people shown, each one's record across games (unfinished sessions included,
    so someone who has only unfinished ones is here): most wins first."""
    bot_records: list[PlayerRecord] = field(default_factory=list)
    """With virtual games: the bots' seats' records, apart and by name."""

    @property
    def record_games(self) -> list[tuple[str, str]]:
        """(game, title) of every game in the records, the most played first (then by
        title)."""
        played: dict[str, int] = {}
        titles: dict[str, str] = {}
        for record in [*self.records, *self.bot_records]:
            for game in record.games.values():
                played[game.game] = played.get(game.game, 0) + game.played
                titles[game.game] = game.title
        order = sorted(played, key=lambda game: (-played[game], titles[game].casefold(), game))
        return [(game, titles[game]) for game in order]

    def player(self, name: str) -> PlayerStats:
        key = player_key(name)
        return next(p for p in self.players if p.key == key)

    def bot(self, name: str) -> PlayerStats:
        key = BOT_KEY + player_key(name)
        return next(p for p in self.bots if p.key == key)

    @property
    def everyone(self) -> list[PlayerStats]:
        """The people shown, then the bots shown."""
        return [*self.players, *self.bots]


def compute(sessions: Sequence[Session | Played], query: StatsQuery | None = None) -> Stats:
    """The statistics of the finished sessions that ``query`` selects."""
    query = query or StatsQuery()
    played = [session if isinstance(session, Played) else Played.of(session)
              for session in sessions]
    dated = [session for session in played if query.matches(session)]
    matching = [s for s in dated if query.virtual or s.mode != "virtual"]
    # each session's place in the order played, worked out once (not once a sort)
    orders = {id(session): played_order(session) for session in played}
    in_order = sorted(played, key=lambda session: orders[id(session)])
    counted = {id(session) for session in matching}
    finished = [s for s in in_order if id(s) in counted and s.finished and not s.abandoned]
    open_sessions = [s for s in matching if not s.finished and not s.abandoned]
    abandoned = sum(1 for s in matching if s.abandoned)
    unfinished = len(open_sessions)

    def seen(session: Played) -> Appearance:
        return Appearance(session.id, session.game, session.created, orders[id(session)])

    names = _roster_names(in_order)
    for session in in_order if query.virtual else ():
        for name, key in seat_keys(session).items():
            names.setdefault(key, name)
    wanted = _wanted_keys(query.players, names)

    players: dict[str, PlayerStats] = {}
    games: dict[str, GameStats] = {}
    ahead: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    met: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    ratings: dict[str, dict[str, Rating]] = {}
    """Each game's ratings: player key -> (mu, sigma)."""
    records: dict[str, PlayerRecord] = {}

    def record(key: str, bot: str | None) -> PlayerRecord:
        return records.get(key) or records.setdefault(key, PlayerRecord(key, names[key], bot))

    for session in finished:
        rules = get_game(session.game)
        places = session.places
        keys = seat_keys(session)
        bots = bot_seats(session)
        share = 1 / len(session.winners) if session.winners else 0.0
        appearance = seen(session)
        for name in session.players:
            win = share if name in session.winners else 0.0
            stats = players.get(keys[name])
            if stats is None:
                stats = players[keys[name]] = PlayerStats(keys[name], names[keys[name]],
                                                          bot=bots.get(name))
            stats.results.append(Result(session.id, session.game, session.created,
                                        places[name], len(session.players), win))
            record(keys[name], bots.get(name)).add(appearance, rules.title, True, win)
        for a in session.players:
            for b in session.players:
                if a != b:
                    met[keys[a]][keys[b]] += 1
                    if places[a] < places[b]:
                        ahead[keys[a]][keys[b]] += 1
        game = games.get(session.game)
        if game is None:  # (its figures in words once a game, not once a session)
            game = games[session.game] = GameStats(session.game, rules.title,
                                                   _figures_in_words(rules.stat_figures))
        game.sessions += 1
        game.played.append(session.id)
        game.count(session.tallies, keys)
        _rate(ratings.setdefault(session.game, {}), game, session, keys, places)
    for session in open_sessions:  # played, not won
        keys, bots, appearance = seat_keys(session), bot_seats(session), seen(session)
        for name in session.players:
            record(keys[name], bots.get(name)).add(appearance, get_game(session.game).title,
                                                   False, 0.0)

    shown = [players[key] for key in dict.fromkeys(wanted) if key in players] if wanted \
        else list(players.values())
    ranked = sorted((p for p in shown if p.bot is None),
                    key=lambda p: (-p.wins, p.average_place or 0.0, p.name.casefold()))
    return Stats(
        query=query, finished=len(finished), abandoned=abandoned, unfinished=unfinished,
        players=ranked,
        games=[games[name] for name in sorted(games)],
        ahead={a: dict(row) for a, row in ahead.items()},
        met={a: dict(row) for a, row in met.items()},
        names=names,
        bots=sorted((p for p in shown if p.bot is not None), key=lambda p: p.name.casefold()),
        virtual_left_out=len(dated) - len(matching),
        records=_shown_records(records, wanted, bots=False),
        bot_records=_shown_records(records, wanted, bots=True),
    )


def _shown_records(records: Mapping[str, PlayerRecord], wanted: Sequence[str],
                   bots: bool) -> list[PlayerRecord]:
    """The people's records, most wins first (then the most played, then by name), or the
    bots' by name; only those asked for when some are."""
    shown = [records[key] for key in dict.fromkeys(wanted) if key in records] if wanted \
        else list(records.values())
    chosen = [record.ordered() for record in shown if (record.bot is not None) == bots]
    if bots:
        return sorted(chosen, key=lambda r: r.name.casefold())
    return sorted(chosen, key=lambda r: (-r.wins, -r.played, r.name.casefold()))


def _wanted_keys(typed: Sequence[str], names: Mapping[str, str]) -> list[str]:
    """The keys of the players asked for; refused when one has not played."""
    wanted = [_wanted_key(name, names) for name in typed]
    unknown = [name for name, key in zip(typed, wanted, strict=True) if key not in names]
    if unknown:
        known = ", ".join(sorted(names.values(), key=str.casefold))
        if not known:
            raise EntryError(_("nobody called {name} has played (the players: nobody yet)")
                             .format(name=repr(unknown[0].strip())))
        raise EntryError(_("nobody called {name} has played (the players: {players})").format(
            name=repr(unknown[0].strip()), players=known))
    return wanted


def _wanted_key(typed: str, names: Mapping[str, str]) -> str:
    """The key of a player asked for by name: a person's, else a bot seat's."""
    key = player_key(typed)
    return key if key in names or BOT_KEY + key not in names else BOT_KEY + key


def _rate(ratings: dict[str, Rating], game: GameStats, session: Played,
          keys: Mapping[str, str], places: Mapping[str, int]) -> None:
    """Update the game's ratings with one finished session (places as ranks, ties shared)."""
    order = [keys[name] for name in session.players]
    updated = plackett_luce([ratings.get(key, (MU, SIGMA)) for key in order],
                            [places[name] for name in session.players])
    for key, rating in zip(order, updated, strict=True):
        ratings[key] = rating
        game.ratings.setdefault(key, []).append(
            RatingPoint(session.id, session.created, *rating))


# ---------------------------------------------------------------------------
# The JSON shape (``score stats --json``, and what ``score serve`` may show)


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def as_json(stats: Stats) -> JSONObject:
    """``score stats --json``: the people under ``players``; with virtual games, the bots'
    seats under ``bots`` (and each game's ``bots`` and ``bot_ratings``), apart, and in
    ``head_to_head`` as the people's opponents."""
    people = {player.key for player in stats.players}
    bots = {player.key for player in stats.bots}
    query = stats.query
    return {
        "query": {
            "game": query.game,
            "since": query.since.isoformat() if query.since else None,
            "until": query.until.isoformat() if query.until else None,
            "players": list(query.players),
            "virtual": query.virtual,
        },
        "sessions": {"finished": stats.finished, "abandoned": stats.abandoned,
                     "unfinished": stats.unfinished},
        "virtual_left_out": stats.virtual_left_out,
        "players": [_player_json(player) for player in stats.players],
        "bots": [{**_player_json(player), "bot": player.bot} for player in stats.bots],
        "games": {
            game.game: {
                "title": game.title,
                "sessions": game.sessions,
                "players": _figures_json(stats, game, people),
                "ratings": _ratings_json(stats, game, people),
                "bots": _figures_json(stats, game, bots),
                "bot_ratings": _ratings_json(stats, game, bots),
            }
            for game in stats.games
        },
        "across_games": {
            "players": [_record_json(record) for record in stats.records],
            "bots": [{**_record_json(record), "bot": record.bot}
                     for record in stats.bot_records],
        },
        "head_to_head": {
            stats.names[a]: {stats.names[b]: {"ahead": stats.ahead.get(a, {}).get(b, 0),
                                              "met": count}
                             for b, count in stats.met.get(a, {}).items()
                             if b in people or b in bots}
            for a in (player.key for player in stats.players) if a in stats.met
        },
    }


def _player_json(player: PlayerStats) -> JSONObject:
    return {
        "name": player.name,
        "games": player.games,
        "wins": _round(player.wins),
        "win_rate": _round(player.win_rate),
        "ci95": [_round(bound) for bound in player.ci95],
        "average_place": _round(player.average_place),
        "current_streak": player.current_streak,
        "longest_streak": player.longest_streak,
        "last_results": [{"session": r.session_id, "game": r.game, "place": r.place,
                          "of": r.of, "win": _round(r.win)}
                         for r in player.last_results],
        "sparkline": player.sparkline,
    }


def _appearance_json(appearance: Appearance | None) -> JSONObject | None:
    if appearance is None:
        return None
    return {"session": appearance.session_id, "game": appearance.game, "when": appearance.when}


def _record_json(record: PlayerRecord) -> JSONObject:
    favourite, best = record.favourite, record.best
    return {
        "name": record.name,
        "played": record.played,
        "finished": record.finished,
        "unfinished": record.unfinished,
        "wins": _round(record.wins),
        "win_rate": _round(record.win_rate),
        "favourite_game": favourite.game if favourite else None,
        "best_game": best.game if best else None,
        "last_played": _appearance_json(record.last),
        "by_game": {
            game.game: {"title": game.title, "played": game.played, "finished": game.finished,
                        "unfinished": game.unfinished, "wins": _round(game.wins),
                        "win_rate": _round(game.win_rate),
                        "last_played": _appearance_json(game.last)}
            for game in record.games.values()
        },
    }


def _figures_json(stats: Stats, game: GameStats, keys: set[str]) -> JSONObject:
    return {stats.names[key]: {figure.key: _round(game.figure(key, figure))
                               for figure in game.figures}
            for key in game.tallies if key in keys}


def _ratings_json(stats: Stats, game: GameStats, keys: set[str]) -> JSONObject:
    return {
        stats.names[key]: {
            "rating": _round(history[-1].ordinal, 3),
            "mu": _round(history[-1].mu, 3),
            "sigma": _round(history[-1].sigma, 3),
            "history": [{"session": point.session_id, "when": point.when,
                         "rating": _round(point.ordinal, 3),
                         "mu": _round(point.mu, 3), "sigma": _round(point.sigma, 3)}
                        for point in history],
        }
        for key, history in ranked_ratings(game) if key in keys
    }


def ranked_ratings(game: GameStats) -> list[tuple[str, list[RatingPoint]]]:
    """The game's players, highest rating first."""
    return sorted(game.ratings.items(), key=lambda item: -item[1][-1].ordinal)


def check_game(name: str | None) -> str | None:
    return None if name is None else get_game(name).name


def _figures_in_words(figures: Sequence[StatFigure]) -> tuple[StatFigure, ...]:
    """A game's figures with their label and meaning in the active language (the games
    declare them as N_-marked English)."""
    return tuple(replace(figure, label=_(figure.label), meaning=_(figure.meaning))
                 for figure in figures)
