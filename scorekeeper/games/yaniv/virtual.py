"""Yaniv on the virtual deck: Least Score's engine, bots and match adapter, with Yaniv's
options (the engine reads the threshold, the penalty and the scoring from them)."""

from __future__ import annotations

from scorekeeper.games.least_score.virtual import LeastScoreVirtual
from scorekeeper.games.yaniv.table import YanivTable


class YanivVirtual(LeastScoreVirtual):
    name = "yaniv"
    table = YanivTable()
    end_of_deal = "a Yaniv call"
