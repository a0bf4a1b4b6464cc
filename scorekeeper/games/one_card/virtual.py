"""One Card's virtual deck as the match layer sees it: deal, bots, rounds, replay."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.games.common import JSONDict
from scorekeeper.games.one_card.bots import BOTS
from scorekeeper.games.one_card.engine import Deal
from scorekeeper.games.one_card.table import OneCardTable
from scorekeeper.games.virtual import RecordedDealGame


class OneCardVirtual(RecordedDealGame):
    name = "one-card"
    deal_type = Deal
    table = OneCardTable()
    bot_registry = BOTS
    checked_keys = ("bidder", "bid", "trump", "points")
    end_of_deal = "the last trick"

    def round_of(self, deal: Any) -> JSONDict:
        round_: JSONDict = deal.round_record()
        return round_

    def stats(self, rounds: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, int]]:
        bids = [r for r in rounds if r.get("bidder") is not None]
        made = sum(1 for r in bids if not r.get("bid_failed"))
        return {"bid_success_rate": (made, len(bids))}
