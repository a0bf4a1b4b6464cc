"""Least Score's virtual deck as the match layer sees it: deal, bots, rounds, replay."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.cards import format_cards
from scorekeeper.games.common import JSONDict
from scorekeeper.games.least_score.bots import BOTS
from scorekeeper.games.least_score.engine import Deal
from scorekeeper.games.least_score.table import LeastScoreTable
from scorekeeper.games.virtual import RecordedDealGame


class LeastScoreVirtual(RecordedDealGame):
    name = "least-score"
    deal_type = Deal
    table = LeastScoreTable()
    bot_registry = BOTS
    checked_keys = ("declarer", "totals", "hands")
    end_of_deal = "a declaration"

    def round_of(self, deal: Any) -> JSONDict:
        result = deal.result()
        record, actions = deal.to_record()
        return {
            "declarer": result.declarer,
            "totals": dict(result.totals),
            "hands": {name: format_cards(hand) for name, hand in result.hands.items()},
            "deal": record,
            "actions": actions,
        }

    def stats(self, rounds: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, int]]:
        false = sum(1 for r in rounds if r.get("false_declaration"))
        return {"false_declaration_rate": (false, len(rounds))}
