"""Quick Least Score's declaration: Least Score's, with its own name, table and the
limit's default and help; everything else (round options, questions, grid, virtual
deck) is its base's."""

from __future__ import annotations

from dataclasses import replace

from quick_least_score.table import QUICK_LIMIT, QuickLeastScoreTable
from quick_least_score.words import N_, WORDS
from scorekeeper.games.least_score.game import GAME as LEAST_SCORE

_TABLE = QuickLeastScoreTable()

GAME = replace(
    LEAST_SCORE,
    table=_TABLE,
    questions=_TABLE,
    house_rules=(
        replace(LEAST_SCORE.house_rules[0], default=QUICK_LIMIT,
                help=N_("knock-out limit, 10-500 (default 50).")),
        *LEAST_SCORE.house_rules[1:],
    ),
    words=WORDS,
    base="scorekeeper.games.least_score",
)
