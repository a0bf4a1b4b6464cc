"""The match layer of the virtual deck, shared by every game and both front ends.

A virtual game is a session like any other (``mode: virtual``): each deal is
played on the game's engine, turned into a round with its ``deal`` and
``actions``, and added to the session, which recomputes totals, knock-outs, the
next dealer and the winner exactly as it does for rounds typed in at a table.
``score play`` (humans and bots) and ``score simulate`` (bots only, nothing
saved) both play through :func:`play_deal`.

Every random draw comes from a ``random.Random`` derived from the game's seed and
a label (:func:`derive_rng`, :func:`deal_generators`), so the same seed, players and
bots give the same game, whether it is played in one go, resumed later, or simulated
in another process.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.virtual import DealRngs, DealState
from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject, JSONValue
from scorekeeper.ratings import wilson_interval as wilson_interval  # (score simulate's too)
from scorekeeper.registry import get_game, get_virtual
from scorekeeper.session import Session, check_player_names
from scorekeeper.virtual_settings import DERIVATIONS, VirtualSeat, VirtualSettings

MAX_ACTIONS_PER_DEAL = 5_000
"""A safety net: no sensible deal comes near it; a bot stuck in a loop would."""

HumanChooser = Callable[[str, Any, str | None], Any]
"""``(player, view, why the last try was refused or None) -> action``."""
ActionObserver = Callable[[str, Any, DealState], None]


Seat = VirtualSeat


DERIVATION = DERIVATIONS[-1]
"""How new games derive each deal's generators (:func:`deal_generators`)."""


def derive_rng(seed: int, *labels: object) -> random.Random:
    """An independent generator for one purpose of one game (string seeds are stable)."""
    return random.Random("scorekeeper/" + "/".join(str(part) for part in (seed, *labels)))


def deal_generators(seed: int, labels: Sequence[object], players: Sequence[str],
                    derivation: int = DERIVATION) -> tuple[random.Random, list[random.Random]]:
    """A deal's generators: the deal's (``derive_rng(seed, *labels, "deal")``, for the
    shuffle and whatever else the deal draws), then one per player, by ``derivation``:

    1. each player's own, ``derive_rng(seed, *labels, "bot", name)``;
    2. the deal's generator again, for every bot: seeding a generator costs as much as a
       bots-only deal, so one per deal instead of one per player and deal makes
       ``score simulate`` about twice as fast, and the games stay as reproducible (the
       draws follow one another in the order of the deal's actions).

    A session keeps the derivation it was started with (:attr:`VirtualSettings.derivation`).
    """
    deal = derive_rng(seed, *labels, "deal")
    if derivation == 1:
        return deal, [derive_rng(seed, *labels, "bot", name) for name in players]
    return deal, [deal] * len(players)


def position_key(value: object) -> str:
    """A player's view as stable text: sets in sorted order, so that the same position
    gives the same key in any process (a set's order follows its items' hashes)."""
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(position_key(item) for item in value)) + "}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__ + "(" + ",".join(
            position_key(getattr(value, field.name)) for field in dataclasses.fields(value)) + ")"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(position_key(item) for item in value) + ")"
    if isinstance(value, Mapping):
        return "{" + ",".join(sorted(f"{position_key(k)}:{position_key(v)}"
                                     for k, v in value.items())) + "}"
    return repr(value)


def draw_first_dealer(seed: int, names: Sequence[str]) -> str:
    """The first dealer of the game ``seed`` (kept in the session once drawn): picked by
    a hash of the seed (blake2b) rather than a generator seeded just for one draw."""
    return names[_hash63(f"scorekeeper/{seed}/first-dealer") % len(names)]


def _hash63(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def make_seats(humans: Sequence[str], bots: Sequence[str]) -> list[Seat]:
    """Humans first, then the bots, each bot named by its level and seat (``Strong-3``)."""
    seats = [Seat(name) for name in check_player_names(humans)]  # NFC, as the session has them
    for level in bots:
        seats.append(Seat(f"{level.strip().capitalize()}-{len(seats) + 1}", level.strip()))
    return seats


def check_seats(game: str, seats: Sequence[Seat]) -> None:
    virtual = get_virtual(game)
    rules = get_game(game)
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise EntryError(_("{game} takes {low} to {high} players (humans and bots together), "
                           "not {n}").format(game=rules.title, low=rules.min_players,
                                             high=rules.max_players, n=len(seats)))
    for seat in seats:
        if seat.bot is not None and seat.bot not in virtual.bots:
            raise EntryError(_("there is no bot {bot}: choose {bots}").format(
                bot=repr(seat.bot), bots=", ".join(virtual.bots)))


def start_game(game: str, seats: Sequence[Seat], seed: int, *, name: str = "",
               options: Mapping[str, object] | None = None) -> Session:
    """A new virtual session; the first dealer is drawn from the seed."""
    check_seats(game, seats)
    names = [seat.name for seat in seats]
    first_dealer = draw_first_dealer(seed, names)
    return Session.new(game, names, name=name, options=options, dealer=first_dealer,
                       mode="virtual",
                       virtual=VirtualSettings(seed, tuple(seats), derivation=DERIVATION))


def seats_of(session: Session) -> list[Seat]:
    if session.mode != "virtual" or session.virtual is None:
        raise EntryError(_("session {id} was not played on the virtual deck").format(id=session.id))
    return list(session.virtual.seats)


def virtual_settings(session: Session) -> VirtualSettings:
    if session.mode != "virtual" or session.virtual is None:
        raise EntryError(_("session {id} was not played on the virtual deck").format(id=session.id))
    return session.virtual


def restarts_of(session: Session) -> dict[int, int]:
    """How many times each deal was abandoned (Ctrl-C) and dealt again: ``{deal: count}``.

    Kept in the virtual settings as ``"restarts": {"2": 1}`` (JSON keys are text)."""
    return {} if session.virtual is None else dict(session.virtual.restarts)


def record_restart(session: Session, number: int) -> Session:
    """The session with deal ``number`` marked abandoned: the next try is a fresh shuffle.

    A human may have seen the abandoned deal's cards, so dealing them again would
    not be a fair deal; counting the restarts keeps the game reproducible from its seed.
    """
    settings = virtual_settings(session)
    return session.with_virtual(settings.restarted(number), "restart",
                                f"deal {number} was abandoned before its end; it will be "
                                "dealt again from a fresh shuffle", number)


def deal_labels(session: Session, number: int) -> tuple[object, ...]:
    """What the deal's random generators are derived from, after the seed.

    A deal never restarted keeps the labels games had before restarts were recorded,
    so those games still resume and replay to the same cards."""
    restarts = restarts_of(session).get(number, 0)
    return (number,) if restarts == 0 else (number, "restart", restarts)


def play_deal(
    session: Session,
    *,
    choose_human: HumanChooser | None = None,
    on_action: ActionObserver | None = None,
    on_start: Callable[[DealState], None] | None = None,
) -> Session:
    """Deal the next deal of ``session``, play it to its end, return the session with it."""
    if session.finished:
        raise EntryError(_("{session} is finished").format(session=session.label))
    virtual = get_virtual(session.game)
    seats = {seat.name: seat for seat in seats_of(session)}
    settings = virtual_settings(session)
    standings = session.standings
    number = len(session.rounds) + 1
    dealer = standings.next_dealer
    if dealer is None:
        raise EntryError(_("{session} has no dealer").format(session=session.label))
    deal_rng, player_rngs = deal_generators(settings.seed, deal_labels(session, number),
                                            standings.still_in, settings.derivation)
    totals = [standings.totals[name] for name in standings.still_in]
    deal = virtual.new_deal(standings.still_in, dealer, deal_rng, session.options, totals)
    bot_rngs = dict(zip(standings.still_in, player_rngs, strict=True))
    if on_start is not None:
        on_start(deal)
    for _attempt in range(MAX_ACTIONS_PER_DEAL):
        if deal.is_over:
            return session.add_round_record(virtual.round_of(deal))
        player = deal.current_player
        if player is None:
            raise RuntimeError("a deal that is not over has nobody to act")
        view = deal.view(player)
        level = seats[player].bot
        if level is not None:
            action = virtual.bots[level].choose(view, bot_rngs[player])
            deal.apply(action)
        else:
            if choose_human is None:
                raise EntryError(_("{player} is a human player, but nobody is at the "
                                   "keyboard").format(player=player))
            problem: str | None = None
            while True:
                action = choose_human(player, view, problem)
                try:
                    deal.apply(action)
                    break
                except ValueError as refused:  # the engines' IllegalAction
                    problem = str(refused)
        if on_action is not None:
            on_action(player, action, deal)
    raise RuntimeError(f"a deal went past {MAX_ACTIONS_PER_DEAL} actions without ending")


def play_to_end(session: Session, *, on_deal: Callable[[Session], None] | None = None,
                **deal_hooks: Any) -> Session:
    """Play deal after deal until the game is over (``on_deal`` after each, e.g. to save)."""
    while not session.finished:
        session = play_deal(session, **deal_hooks)
        if on_deal is not None:
            on_deal(session)
    return session


# ---------------------------------------------------------------------------
# Simulation: bots against bots, many games, nothing saved


@dataclass(frozen=True, slots=True)
class GameOutcome:
    winners: tuple[int, ...]
    deals: int
    stats: dict[str, tuple[int, int]]


def simulate_game(game: str, bots: Sequence[str], seed: int, index: int,
                  options: Mapping[str, object] | None = None) -> GameOutcome:
    """Game number ``index`` of a simulation: depends only on its arguments.

    The same game as :func:`play_to_end` of :func:`start_game` with seats ``P1``, ``P2``...
    and the seed :func:`hash_seed` gives (the tests check it deal by deal), played on the
    game's lean engine (:meth:`VirtualGame.play_bots`).
    """
    names = [f"P{i + 1}" for i in range(len(bots))]
    game_seed = hash_seed(seed, index)
    first_dealer = draw_first_dealer(game_seed, names)
    typed = get_game(game).parse_options(options or {})
    result = get_virtual(game).play_bots(bots, names, first_dealer, typed,
                                         deal_rngs(game_seed), MAX_ACTIONS_PER_DEAL)
    return GameOutcome(
        winners=tuple(names.index(name) for name in result.winners),
        deals=result.deals,
        stats=result.stats,
    )


def deal_rngs(seed: int, derivation: int = DERIVATION) -> DealRngs:
    """The generators :func:`play_deal` derives for each deal of the game ``seed`` (a new
    game's, never restarted): :func:`deal_generators`'s."""
    prefix = f"scorekeeper/{seed}/"  # derive_rng's string, built once per game

    def rngs(number: int, players: Sequence[str]) -> tuple[random.Random, list[random.Random]]:
        if derivation == 1:
            return deal_generators(seed, (number,), players, 1)
        deal = random.Random(f"{prefix}{number}/deal")
        return deal, [deal] * len(players)

    return rngs


def hash_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation with ``seed``: 63 bits of a hash (a
    generator seeded per game just to draw them cost as much as a bots-only deal)."""
    return _hash63(f"scorekeeper/{seed}/game/{index}")


WIN_SHARES = 840
"""A whole win in shares: 840 is divisible by every number of winners up to 8 players,
so a win shared by k players is a whole number of shares each, and summaries add up
exactly (shards merged give the very same figures as one run)."""


@dataclass
class SimulationSummary:
    """What a simulation counts, additively: any split of the games adds up to the same."""

    game: str
    bots: list[str]
    games: int = 0
    deals: int = 0
    shares: list[int] = field(default_factory=list)
    """Win shares by seat (:data:`WIN_SHARES` per whole win)."""
    stats: dict[str, list[int]] = field(default_factory=dict)

    def add(self, outcome: GameOutcome) -> None:
        if not self.shares:
            self.shares = [0] * len(self.bots)
        self.games += 1
        self.deals += outcome.deals
        for seat in outcome.winners:
            self.shares[seat] += WIN_SHARES // len(outcome.winners)
        for key, (hits, total) in outcome.stats.items():
            counts = self.stats.setdefault(key, [0, 0])
            counts[0] += hits
            counts[1] += total

    def merge(self, other: SimulationSummary) -> None:
        """Add the games ``other`` counted (the same game and bots)."""
        if (other.game, other.bots) != (self.game, self.bots):
            raise ValueError("only summaries of the same game and bots add up")
        if not self.shares:
            self.shares = [0] * len(self.bots)
        self.games += other.games
        self.deals += other.deals
        for seat, shares in enumerate(other.shares):
            self.shares[seat] += shares
        for key, (hits, total) in other.stats.items():
            counts = self.stats.setdefault(key, [0, 0])
            counts[0] += hits
            counts[1] += total

    @property
    def wins(self) -> list[float]:
        """Wins by seat; a win shared by k players counts 1/k to each."""
        return [shares / WIN_SHARES for shares in self.shares or [0] * len(self.bots)]

    def as_json(self, seed: int, seconds: float) -> JSONObject:
        seats: list[JSONValue] = []
        for level, shares in zip(self.bots, self.shares or [0] * len(self.bots), strict=True):
            wins = shares / WIN_SHARES
            rate = shares / (WIN_SHARES * self.games) if self.games else 0.0
            low, high = wilson_interval(wins, self.games)
            seats.append({"bot": level, "wins": round(wins, 4), "win_rate": round(rate, 4),
                          "ci95": [round(low, 4), round(high, 4)]})
        result: JSONObject = {
            "game": self.game, "games": self.games, "deals": self.deals,
            "seconds": round(seconds, 3), "seed": seed, "seats": seats,
            "mean_deals": round(self.deals / self.games, 4) if self.games else 0.0,
        }
        for key, (hits, total) in self.stats.items():
            result[key] = round(hits / total, 4) if total else 0.0
        return result


def simulate_games(game: str, bots: Sequence[str], seed: int, options: Mapping[str, object],
                   start: int, stop: int) -> tuple[SimulationSummary, float]:
    """Games ``start`` to ``stop - 1`` of a simulation, counted, and the seconds they took
    (the unit of work a process, or a machine, is given)."""
    began = time.perf_counter()
    summary = SimulationSummary(game, list(bots))
    for index in range(start, stop):
        summary.add(simulate_game(game, bots, seed, index, options))
    return summary, time.perf_counter() - began
