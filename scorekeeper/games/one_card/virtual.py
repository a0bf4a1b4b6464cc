"""One Card's virtual deck as the match layer sees it: deal, bots, rounds, replay."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.bots import BOTS
from scorekeeper.games.one_card.engine import OVER, Deal, GameScore, State
from scorekeeper.games.one_card.table import OneCardScored, OneCardTable
from scorekeeper.games.virtual import BotsGame, Coach, DealRngs, RecordedDealGame
from scorekeeper.kit.rounds import JSONObject, ScoredRound


class OneCardVirtual(RecordedDealGame):
    name = "one-card"
    deal_type = Deal
    table = OneCardTable()
    bot_registry = BOTS
    checked_keys = ("bidder", "bid", "trump", "points")
    end_of_deal = "the last trick"

    def record_of(self, deal: Any) -> JSONObject:
        round_: JSONObject = deal.round_record()
        return round_

    def coach(self) -> Coach:
        """The reviewer of saved deals (``score review``), loaded on first use."""
        from scorekeeper.games.one_card.review import OneCardCoach  # start-up: review's

        return OneCardCoach()

    def stats(self, rounds: Sequence[ScoredRound]) -> dict[str, tuple[int, int]]:
        bids = [r for r in rounds if isinstance(r, OneCardScored) and r.played.bidder is not None]
        made = sum(1 for r in bids if not r.bid_failed)
        return {"bid_success_rate": (made, len(bids))}

    def play_bots(self, bots: Sequence[str], players: Sequence[str], first_dealer: str,
                  options: rules.Options, rngs: DealRngs, max_actions: int,
                  trace: list[dict[str, int]] | None = None) -> BotsGame:
        target = options.target
        n = len(players)
        deciders = [BOTS[level].decide for level in bots]
        track = any(BOTS[level].reads_history for level in bots)
        dealer = players.index(first_dealer)
        totals = [0] * n
        deals = bids = made = 0
        while True:
            deals += 1
            deal_rng, bot_rngs = rngs(deals, players)
            game = GameScore(tuple(totals), target)
            deal = State.shuffled(n, dealer, deal_rng, track=track, game=game)  # Deal.new's
            info = deal.info
            seats = list(zip(deciders, deal.observations(), bot_rngs, strict=True))
            apply = deal.apply
            for _ in range(max_actions):
                if info.phase == OVER:
                    break
                decide, view, rng = seats[info.cur]
                apply(decide(view, rng))
            else:
                if info.phase != OVER:
                    raise RuntimeError(f"a deal went past {max_actions} actions without ending")
            scores = deal.returns()
            for seat, points in enumerate(scores):
                totals[seat] += points
            bidder = info.bidder
            if bidder >= 0:
                bids += 1
                made += info.taken[bidder] >= info.high
            if trace is not None:
                trace.append(dict(zip(players, scores, strict=True)))
            won = rules.winners(totals, target)
            if won is not None:
                return BotsGame(tuple(players[seat] for seat in won), deals,
                                {"bid_success_rate": (made, bids)})
            dealer = (dealer + 1) % n
