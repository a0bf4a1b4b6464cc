"""Least Score's virtual deck as the match layer sees it: deal, bots, rounds, replay."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.cards import format_cards
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.bots import BOTS
from scorekeeper.games.least_score.engine import Deal, Declare, GameScore, State
from scorekeeper.games.least_score.table import LeastScoreScored, LeastScoreTable
from scorekeeper.games.virtual import BotsGame, Coach, DealRngs, RecordedDealGame
from scorekeeper.kit.rounds import JSONObject, ScoredRound


class LeastScoreVirtual(RecordedDealGame):
    name = "least-score"
    deal_type = Deal
    table = LeastScoreTable()
    bot_registry = BOTS
    checked_keys = ("declarer", "totals", "hands")
    end_of_deal = "a declaration"

    def record_of(self, deal: Any) -> JSONObject:
        result = deal.result()
        record, actions = deal.to_record()
        return {
            "declarer": result.declarer,
            "totals": dict(result.totals),
            "hands": {name: format_cards(hand) for name, hand in result.hands.items()},
            "deal": record,
            "actions": actions,
        }

    def coach(self) -> Coach:
        """The reviewer of saved deals (``score review``), loaded on first use."""
        from scorekeeper.games.least_score.review import LeastScoreCoach  # start-up: review's

        return LeastScoreCoach(self.table)

    def stats(self, rounds: Sequence[ScoredRound]) -> dict[str, tuple[int, int]]:
        false = sum(1 for r in rounds if isinstance(r, LeastScoreScored) and r.false_declaration)
        return {"false_declaration_rate": (false, len(rounds))}

    def play_bots(self, bots: Sequence[str], players: Sequence[str], first_dealer: str,
                  options: rules.Options, rngs: DealRngs, max_actions: int,
                  trace: list[dict[str, int]] | None = None) -> BotsGame:
        players = list(players)
        level_of = dict(zip(players, bots, strict=True))
        running = dict.fromkeys(players, 0)
        still_in = list(players)
        knocked: list[str] = []
        dealer = first_dealer
        deals = false = 0
        while True:
            deals += 1
            deal_rng, bot_rngs = rngs(deals, still_in)
            state = State(still_in, dealer, options,
                          GameScore(tuple(running[name] for name in still_in)))
            state.apply_chance(state.chance_outcome(deal_rng))
            choosers = [BOTS[level_of[name]].choose for name in still_in]
            views = state.views
            info = state.info
            move = state.move
            for _ in range(max_actions):
                if state.declarer >= 0:
                    break
                seat = info.cur
                # The bots name their actions: State.move is State.apply without the
                # integer's encoding.
                action = choosers[seat](views[seat], bot_rngs[seat])
                if isinstance(action, Declare):
                    state.declare()
                elif move(action.cards, action.take):  # from the empty deck: reshuffle
                    state.apply_chance(state.chance_outcome(deal_rng))
            else:
                if not state.is_terminal():
                    raise RuntimeError(f"a deal went past {max_actions} actions without ending")
            score = state.score()
            change = score.scores
            if options.halving:
                change = {}
                for name, points in score.scores.items():
                    total = rules.new_total(running[name], points, options)
                    change[name] = total - running[name]
                    running[name] = total
            else:  # (Least Score: the deal's scores as they are, the hot path of simulate)
                for name, points in change.items():
                    running[name] += points
            false += score.false_declaration
            if trace is not None:
                trace.append(dict(change))
            out = [name for name in rules.knocked_out(running, options.limit) if name in still_in]
            knocked.extend(out)
            still_in = [name for name in still_in if name not in out]
            won = rules.winners(running, still_in, bool(knocked), options.end)
            if won is not None:
                return BotsGame(tuple(won), deals, {"false_declaration_rate": (false, deals)})
            dealer = rules.next_dealer(players, dealer, still_in)
