"""High Card's declaration: all the generic layers of scorekeeper need to know of it."""

from __future__ import annotations

from scorekeeper.games.common import GameDeclaration, HouseRuleOption, RoundOption
from third_game.table import DEFAULT_WINS, HighCardTable

GAME = GameDeclaration(
    table=HighCardTable(),
    house_rules=(HouseRuleOption("wins", DEFAULT_WINS, "points that win the game, 1-10."),),
    round_options=(RoundOption("caller", "name", "who called show."),),
    round_usage="--caller NAME",
    value_word="card",
    values_help="each player's card (Ann=KH)",
    role_heading="Caller",
    grid_legend="* caller   ✗ a wrong call   +score =running total",
    values_key="cards",
    value_column="card",
    csv_columns=("caller", "wrong_call"),
    checked_results=("wrong_call",),
)
