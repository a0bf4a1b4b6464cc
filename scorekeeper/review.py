"""The review of a saved virtual game (``score review``): where did a player give points away?

Every recorded deal is replayed action by action; at each decision of a reviewed player
the game's coach (``games/<game>/review.py``) has its best bot weigh, from that
player's view alone, the action played and the action the bot would have chosen. A
decision that gives away more than the coach's threshold is a mistake; each player gets
a summary (mistakes, points given away, the kind of decision they cost most in) and
their costliest mistakes.

The same game always gives the same review: each decision's generator is derived from
the game's seed (for an imported game without one, from its recorded deals), the deal's
number and the decision's place in the deal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.virtual import Coach, Decision
from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, match_player
from scorekeeper.kit.rounds import JSONObject
from scorekeeper.match import derive_rng
from scorekeeper.registry import get_virtual
from scorekeeper.session import Session

COSTLIEST = 3
"""How many of a player's costliest mistakes are shown with their position."""

Progress = Callable[[int], None]
"""Called with the number of a reviewed player's actions just weighed."""


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """A decision of one deal of the game."""

    deal: int
    decision: Decision
    mistake: bool


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    name: str
    bot: str | None
    """The bot level that sat in the seat (``None``: a human, or not recorded)."""
    decisions: int
    mistakes: int
    points_given_away: float
    """The points the mistakes gave away."""
    by_kind: dict[str, float]
    """Points given away by the mistakes of each kind of decision."""
    costliest: list[ReviewedDecision]

    @property
    def most_in(self) -> str | None:
        """The kind of decision whose mistakes gave away the most (``None``: none)."""
        if not self.by_kind:
            return None
        return max(self.by_kind, key=lambda kind: self.by_kind[kind])


@dataclass(frozen=True)
class Review:
    session: Session
    coach: Coach
    seed: int
    reviewed: list[str]
    decisions: list[ReviewedDecision] = field(default_factory=list)

    @property
    def summaries(self) -> list[PlayerSummary]:
        bots = {} if self.session.virtual is None else {
            seat.name: seat.bot for seat in self.session.virtual.seats}
        found = []
        for name in self.reviewed:
            mine = [d for d in self.decisions if d.decision.player == name]
            mistakes = [d for d in mine if d.mistake]
            by_kind: dict[str, float] = {}
            for d in mistakes:
                by_kind[d.decision.kind] = by_kind.get(d.decision.kind, 0.0) + d.decision.loss
            costliest = sorted(mistakes, key=lambda d: -d.decision.loss)[:COSTLIEST]
            found.append(PlayerSummary(name, bots.get(name), len(mine), len(mistakes),
                                       sum(d.decision.loss for d in mistakes), by_kind,
                                       costliest))
        return found

    def as_json(self) -> JSONObject:
        """The review as one JSON object (``score review --json``)."""
        return {
            "session": self.session.id,
            "game": self.session.game,
            "seed": self.seed,
            "evaluator": self.coach.evaluator,
            "threshold": self.coach.threshold,
            "players": [{
                "name": s.name, "bot": s.bot, "decisions": s.decisions,
                "mistakes": s.mistakes, "points_given_away": round(s.points_given_away, 3),
                "by_kind": {kind: round(points, 3) for kind, points in s.by_kind.items()},
                "most_in": s.most_in,
                "costliest": [{"deal": d.deal, "step": d.decision.step} for d in s.costliest],
            } for s in self.summaries],
            "decisions": [decision_json(d) for d in self.decisions],
        }


def decision_json(reviewed: ReviewedDecision) -> JSONObject:
    d = reviewed.decision
    return {
        "deal": reviewed.deal, "step": d.step, "player": d.player, "kind": d.kind,
        "played": _appraised_json(d.played), "best": _appraised_json(d.best),
        "loss": round(d.loss, 3), "mistake": reviewed.mistake,
        "estimates": d.estimates, "position": d.position_json,
    }


def _appraised_json(appraised: Any) -> JSONObject:
    found: JSONObject = {"action": appraised.action, "text": appraised.text,
                       "points": round(appraised.points, 3)}
    if appraised.chance is not None:
        found["chance"] = round(appraised.chance, 4)
    return found


def coach_of(session: Session) -> Coach:
    """The game's coach; refuse a session that has no moves to review."""
    if session.mode != "virtual":
        raise EntryError(_("session {id} was entered at a table: it has no moves to review "
                           "(only games played with score play have them)").format(
            id=session.id))
    virtual = get_virtual(session.game)
    make: Callable[[], Coach] | None = getattr(virtual, "coach", None)
    if make is None:
        raise EntryError(_("{game} games can't be reviewed yet").format(
            game=session.rules.title))
    return make()


def review_seed(session: Session) -> int:
    """The game's seed, or for a game without one a number drawn from its recorded deals."""
    if session.virtual is not None:
        return session.virtual.seed
    deals = json.dumps([[None, None] if r.recorded is None
                        else [r.recorded.deal, r.recorded.actions] for r in session.rounds],
                       sort_keys=True)
    return int.from_bytes(hashlib.blake2b(deals.encode(), digest_size=8).digest(), "big") >> 1


def reviewed_players(session: Session, player: str | None) -> list[str]:
    """``player`` (as the session spells it), else the human seats, else (a game of bots
    only, or one whose seats were not recorded) everyone."""
    if player is not None:
        return [match_player(session.players, player)]
    if session.virtual is not None:
        humans = [seat.name for seat in session.virtual.seats if seat.bot is None]
        if humans:
            return humans
    return list(session.players)


def actions_to_weigh(session: Session, reviewed: Sequence[str]) -> int:
    """How many recorded actions the reviewed players took (for a progress bar)."""
    return sum(1 for round_ in session.rounds if round_.recorded is not None
               and isinstance(round_.recorded.actions, list)
               for action in round_.recorded.actions
               if isinstance(action, Mapping) and action.get("player") in reviewed)


def review(session: Session, player: str | None = None,
           progress: Progress | None = None) -> Review:
    """The review of every recorded deal of ``session`` for ``player`` (default: the
    humans; see :func:`reviewed_players`)."""
    coach = coach_of(session)
    reviewed = reviewed_players(session, player)
    seed = review_seed(session)
    result = Review(session, coach, seed, reviewed)
    standings = session.standings
    before: dict[str, int] = dict.fromkeys(session.players, 0)
    for summary, after in zip(standings.rounds, standings.running_totals(), strict=True):
        number = summary.number
        if summary.recorded is not None and summary.recorded.complete:

            def rng_for(step: int, number: int = number) -> Any:
                return derive_rng(seed, "review", number, step)

            for decision in coach.review_deal(summary.recorded, session.options, before,
                                              reviewed, rng_for):
                if progress is not None:
                    progress(1)
                if decision is not None:
                    result.decisions.append(ReviewedDecision(
                        number, decision, decision.loss > coach.threshold))
        before = dict(after)
    return result
