"""High Card's declaration: all the generic layers of scorekeeper need to know of it."""

from __future__ import annotations

from high_card.table import DEFAULT_WINS, HighCardTable
from high_card.words import N_, WORDS
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.options import HouseRuleOption, RoundOption

GAME = GameDeclaration(
    table=HighCardTable(),
    house_rules=(HouseRuleOption("wins", DEFAULT_WINS, N_("points that win the game, 1-10.")),),
    round_options=(RoundOption("caller", "name", N_("who called show.")),),
    round_usage="--caller NAME",
    value_word=N_("card"),
    values_help=N_("each player's card (Ann=KH)"),
    role_heading=N_("Caller"),
    grid_legend=N_("* caller   ✗ a wrong call   +score =running total"),
    values_key="cards",
    value_column="card",
    csv_columns=("caller", "wrong_call"),
    checked_results=("wrong_call",),
    words=WORDS,
)
