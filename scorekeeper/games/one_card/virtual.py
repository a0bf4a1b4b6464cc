"""One Card's virtual deck as the match layer sees it: deal, bots, rounds, replay."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.games.common import EntryError, JSONDict
from scorekeeper.games.one_card.bots import BOTS, Bot
from scorekeeper.games.one_card.engine import Deal, IllegalAction
from scorekeeper.games.one_card.table import OneCardTable


class OneCardVirtual:
    name = "one-card"
    _table = OneCardTable()

    @property
    def bots(self) -> Mapping[str, Bot]:
        return BOTS

    def new_deal(self, players: Sequence[str], dealer: str, rng: random.Random,
                 options: Mapping[str, Any]) -> Deal:
        return Deal.new(players, dealer, rng, self._table.options(options))

    def round_of(self, deal: Any) -> JSONDict:
        round_: JSONDict = deal.round_record()
        return round_

    def replay(self, round_: Mapping[str, Any], options: Mapping[str, Any],
               upto: int | None = None) -> Deal:
        actions = list(round_["actions"])
        deal = Deal.from_record(round_["deal"], self._table.options(options))
        deal.replay(actions if upto is None else actions[:upto])
        return deal

    def verify(self, round_: Mapping[str, Any], options: Mapping[str, Any]) -> None:
        try:
            deal = self.replay(round_, options)
        except (IllegalAction, ValueError, KeyError, TypeError, AttributeError) as error:
            raise EntryError(f"its deal does not replay: {error}") from None
        if not deal.is_over:
            raise EntryError("its deal does not replay to the last trick")
        replayed = self.round_of(deal)
        for key in ("bidder", "bid", "trump", "points"):
            if key in round_ and round_[key] != replayed[key]:
                raise EntryError(f"it says {key} = {round_[key]}, but its deal replays to "
                                 f"{replayed[key]}")

    def stats(self, rounds: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, int]]:
        bids = [r for r in rounds if r.get("bidder") is not None]
        made = sum(1 for r in bids if not r.get("bid_failed"))
        return {"bid_success_rate": (made, len(bids))}
