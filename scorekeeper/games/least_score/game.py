"""Least Score as the generic layers see it: the one object the registry lists."""

from __future__ import annotations

from scorekeeper.games.common import GameDeclaration, HouseRuleOption, RoundOption
from scorekeeper.games.least_score.rules import End, Options, Tie, TwoPairs
from scorekeeper.games.least_score.table import LeastScoreTable

_DEFAULT = Options()
_TABLE = LeastScoreTable()

GAME = GameDeclaration(
    table=_TABLE,
    house_rules=(
        HouseRuleOption("limit", _DEFAULT.limit, "knock-out limit, 10-500 (usually 25, 50 or "
                        "100; default 100)."),
        HouseRuleOption("tie", _DEFAULT.tie.value, "declarer-wins (default) or declarer-loses.",
                        tuple(member.value for member in Tie)),
        HouseRuleOption("end", _DEFAULT.end.value, "last-standing (default) or first-out.",
                        tuple(member.value for member in End)),
        HouseRuleOption("two_pairs", _DEFAULT.two_pairs.value,
                        "same-rank (default) or any-rank.",
                        tuple(member.value for member in TwoPairs)),
    ),
    round_options=(RoundOption("declarer", "name", "who declared."),),
    round_usage="--declarer NAME",
    value_word="hand total or cards",
    values_help="each player's hand total or cards (Ann=7, Ann=AH,3S)",
    role_heading="Declarer",
    grid_legend="* declarer   ✗ false declaration   +score =running total",
    values_key="totals",
    value_column="hand",
    csv_columns=("declarer", "false_declaration"),
    checked_results=("false_declaration",),
    questions=_TABLE,
    narrow_legend=(("*", "declared"), ("!", "false declaration")),
    virtual="scorekeeper.games.least_score.virtual:LeastScoreVirtual",
    bots=("random", "greedy", "strong", "expert"),
    keyboard_ui="scorekeeper.games.least_score.ui",
)
