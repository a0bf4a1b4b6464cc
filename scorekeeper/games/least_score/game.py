"""Least Score as the generic layers see it: the one object the registry lists."""

from __future__ import annotations

from scorekeeper.games.least_score.rules import End, Options, Tie, TwoPairs
from scorekeeper.games.least_score.words import N_, WORDS
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.options import HouseRuleOption, RoundOption

_DEFAULT = Options()
_TABLE = "scorekeeper.games.least_score.table:LeastScoreTable"
"""The table, made on first use: the commands on another game's session never import it."""

GAME = GameDeclaration(
    table=_TABLE,
    name="least-score",
    title="Least Score",
    house_rules=(
        HouseRuleOption("limit", _DEFAULT.limit, N_("knock-out limit, 10-500 (usually 25, 50 "
                                                     "or 100; default 100).")),
        HouseRuleOption("tie", _DEFAULT.tie.value,
                        N_("declarer-wins (default) or declarer-loses."),
                        tuple(member.value for member in Tie)),
        HouseRuleOption("end", _DEFAULT.end.value, N_("last-standing (default) or first-out."),
                        tuple(member.value for member in End)),
        HouseRuleOption("two_pairs", _DEFAULT.two_pairs.value,
                        N_("same-rank (default) or any-rank."),
                        tuple(member.value for member in TwoPairs)),
    ),
    round_options=(RoundOption("declarer", "name", N_("who declared.")),),
    round_usage="--declarer NAME",
    value_word=N_("hand total or cards"),
    values_help=N_("each player's hand total or cards (Ann=7, Ann=AH,3S)"),
    role_heading=N_("Declarer"),
    grid_legend=N_("* declarer   ✗ false declaration   +score =running total"),
    values_key="totals",
    value_column="hand",
    csv_columns=("declarer", "false_declaration"),
    checked_results=("false_declaration",),
    questions=_TABLE,
    narrow_legend=(("*", N_("declared")), ("!", N_("false declaration"))),
    widest_round=f"{_TABLE}.widest_round",
    virtual="scorekeeper.games.least_score.virtual:LeastScoreVirtual",
    bots=("random", "greedy", "strong", "expert"),
    keyboard_ui="scorekeeper.games.least_score.ui",
    online_ui="scorekeeper.games.least_score.online",
    words=WORDS,
    roster="scorekeeper.games.least_score.table:LeastScoreRoster",
    entry_form="scorekeeper.games.least_score.entry:FORM",
)
