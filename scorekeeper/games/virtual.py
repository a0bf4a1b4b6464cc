"""What every game's virtual deck offers the match layer (see ``scorekeeper/match.py``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject, RecordedDeal, Round, ScoredRound


class DealState(Protocol):
    """A deal in progress: the OpenSpiel-like surface both engines share."""

    @property
    def current_player(self) -> str | None: ...

    @property
    def is_over(self) -> bool: ...

    def view(self, player: str) -> Any: ...

    def apply(self, action: Any) -> None: ...

    def legal_actions(self) -> list[Any]: ...


class Bot(Protocol):
    def choose(self, view: Any, rng: random.Random) -> Any: ...


DealRngs = Callable[[int, Sequence[str]], tuple[random.Random, list[random.Random]]]
"""``(deal number, players in the deal) -> (the deal's generator, one per player)``: the
generators the match layer gives each deal (see ``match.derive_rng``)."""


@dataclass(frozen=True, slots=True)
class BotsGame:
    """A whole game played by bots only (:meth:`VirtualGame.play_bots`)."""

    winners: tuple[str, ...]
    deals: int
    stats: dict[str, tuple[int, int]]
    """As :meth:`VirtualGame.stats` counts them."""


class VirtualGame(Protocol):
    """A game's virtual deck: dealing, bots, and turning a finished deal into a round."""

    name: str

    @property
    def bots(self) -> Mapping[str, Bot]: ...

    def new_deal(self, players: Sequence[str], dealer: str, rng: random.Random,
                 options: Any, totals: Sequence[int] | None = None
                 ) -> DealState:
        """A new deal shuffled with ``rng``; ``totals``: each player's game total before
        it (the views show them: the whole table knows the score)."""
        ...

    def round_of(self, deal: DealState) -> Round:
        """The finished deal as a session round (its ``recorded`` deal and actions)."""
        ...

    def replay(self, recorded: RecordedDeal, options: Any,
               upto: int | None = None) -> DealState:
        """The deal rebuilt from a saved round's recorded deal, its first ``upto`` actions
        (all) applied."""
        ...

    def verify(self, round_: Round, options: Any,
               seated: Sequence[str]) -> Round:
        """Replay a saved round and refuse it (EntryError) unless it was dealt to the
        ``seated`` players in that order and gives what it says; the round as replayed."""
        ...

    def stats(self, rounds: Sequence[ScoredRound]) -> dict[str, tuple[int, int]]:
        """Per-game counts for ``simulate``: name -> (hits, out of)."""
        ...

    def play_bots(self, bots: Sequence[str], players: Sequence[str], first_dealer: str,
                  options: Any, rngs: DealRngs, max_actions: int,
                  trace: list[dict[str, int]] | None = None) -> BotsGame:
        """A whole game of bots (``bots[i]`` plays ``players[i]``) on the lean engine: the
        same game, deal by deal and draw by draw, as the match layer's ``play_deal`` plays
        with the same generators, without views built per decision, records or
        re-scoring the session after every deal. ``trace`` (if given) gets each deal's
        scores. ``RuntimeError`` if a deal goes past ``max_actions`` actions."""
        ...


class RecordedDealGame:
    """What the two virtual decks share: dealing, replaying and verifying saved deals.

    A subclass names its engine's ``Deal`` class, its table (for the options), the
    round keys a replay must reproduce, and says how a finished deal becomes a round.
    """

    name: str
    deal_type: Any
    table: Any
    bot_registry: Mapping[str, Bot]
    checked_keys: tuple[str, ...]
    end_of_deal: str
    """How a finished deal ends, for the refusal of one that does not (``a declaration``)."""

    @property
    def bots(self) -> Mapping[str, Bot]:
        return self.bot_registry

    def new_deal(self, players: Sequence[str], dealer: str, rng: random.Random,
                 options: Any, totals: Sequence[int] | None = None) -> Any:
        return self.deal_type.new(players, dealer, rng, options, totals)

    def replay(self, recorded: RecordedDeal, options: Any,
               upto: int | None = None) -> Any:
        actions = list(recorded.actions)
        deal = self.deal_type.from_record(recorded.deal, options)
        deal.replay(actions if upto is None else actions[:upto])
        return deal

    def round_of(self, deal: Any) -> Round:
        """The finished deal as the game's round: its record (FORMAT.md's round, from the
        engine) read as the table reads a stored round, so it is stored byte for byte so."""
        round_: Round = self.table.round_from_json(self.record_of(deal))
        return round_

    def record_of(self, deal: Any) -> JSONObject:
        """The finished deal as FORMAT.md records the round (the engine's record)."""
        raise NotImplementedError

    def verify(self, round_: Round, options: Any,
               seated: Sequence[str]) -> Round:
        recorded = round_.recorded or RecordedDeal()
        deal_record, actions = recorded.deal, recorded.actions
        if not isinstance(deal_record, Mapping) or not isinstance(actions, list) \
                or not all(isinstance(action, Mapping) for action in actions):
            raise EntryError("its deal must be an object and its actions a list of objects")
        hands = deal_record.get("hands")
        if isinstance(hands, Mapping) and list(hands) != list(seated):
            # The hands' order is the seating: who is left of the dealer, who acts first.
            raise EntryError(f"its deal is seated {', '.join(map(str, hands))}, but the "
                             f"table sits {', '.join(seated)}")
        try:
            deal = self.replay(recorded, options)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            # ValueError includes the engines' IllegalAction
            raise EntryError(f"its deal does not replay: {error}") from None
        if not deal.is_over:
            raise EntryError(f"its deal does not replay to {self.end_of_deal}")
        replayed = self.round_of(deal)
        done = len((replayed.recorded or RecordedDeal(actions=[])).actions)
        if done != len(actions):
            raise EntryError(f"its action {done + 1} comes after the deal is over "
                             f"({self.end_of_deal} is action {done})")
        # What the file says and what its deal replays to, in FORMAT.md's keys (the words
        # of the refusal are the file's).
        said, again = round_.to_json(), replayed.to_json()
        for key in self.checked_keys:
            if key in said and said[key] != again[key]:
                raise EntryError(f"it says {key} = {said[key]}, but its deal replays to "
                                 f"{again[key]}")
        return replayed


# ---------------------------------------------------------------------------
# The review of a saved game (``score review``): what each game's coach gives


@dataclass(frozen=True, slots=True)
class Appraised:
    """One action as the reviewing bot estimates it."""

    action: JSONObject
    """The action as FORMAT.md records it, without its ``player``."""
    text: str
    """The action in words (translated)."""
    points: float
    """The bot's estimate of what it is worth in points of the deal to the player who acts
    (higher is better; the game's coach says in what terms)."""
    chance: float | None = None
    """For an action that can fail (a declaration): the chance it holds."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a player in a saved deal, with the reviewing bot's estimates.

    Built only from what that player saw when deciding (their observation), never from
    the other hands."""

    step: int
    """Its place in the deal's ``actions`` (1 is the first)."""
    player: str
    kind: str
    """What sort of decision it was: a key of the coach's :attr:`Coach.kinds`."""
    played: Appraised
    best: Appraised
    """What the bot would have done, and its estimate of it."""
    position: tuple[tuple[str, str], ...]
    """The position as it was, in words: (label, what it shows) lines, translated."""
    position_json: JSONObject
    """The same position as data (cards in FORMAT.md notation)."""
    notes: tuple[str, ...] = ()
    """More of the bot's estimates in words (translated), e.g. of declaring now."""
    estimates: JSONObject = field(default_factory=dict)
    """The same extra estimates as data."""

    @property
    def loss(self) -> float:
        """Points of the deal given away: how much better the bot's choice is estimated
        than the action played (never below 0)."""
        return max(0.0, self.best.points - self.played.points)


class Coach(Protocol):
    """A game's reviewer of saved deals (each game's ``review`` module)."""

    @property
    def evaluator(self) -> str:
        """The bot level whose estimates the review gives."""
        ...

    @property
    def threshold(self) -> float:
        """A decision that gives away more points than this is a mistake."""
        ...

    @property
    def kinds(self) -> Mapping[str, str]:
        """Each kind of decision (:attr:`Decision.kind`) and its name (``N_``, translated
        where shown): ``declaring``."""
        ...

    @property
    def points_meaning(self) -> str:
        """What the points of :attr:`Appraised.points` are, in words (``N_``)."""
        ...

    def review_deal(self, recorded: RecordedDeal, options: Any,
                    totals: Mapping[str, int], reviewed: Sequence[str],
                    rng_for: Callable[[int], random.Random]) -> Iterator[Decision | None]:
        """Replay a saved round; for each action of a ``reviewed`` player, its
        :class:`Decision` (``None`` when there was nothing to decide: one legal action).
        ``totals``: the game's totals before the deal; ``rng_for(step)``: the generator
        of the decision at that step (the review is seeded from the game)."""
        ...
