"""Quick Least Score at the table: Least Score's table, to 50."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.games.least_score.rules import Options
from scorekeeper.games.least_score.table import LeastScoreTable

QUICK_LIMIT = 50


class QuickLeastScoreTable(LeastScoreTable):
    name = "quick-least-score"
    title = "Quick Least Score"
    defaults = replace(Options(), limit=QUICK_LIMIT)
