"""Oh Hell as the generic layers see it: the one object its entry point names."""

from __future__ import annotations

from scorekeeper.games.common import GameDeclaration, HouseRuleOption
from scorekeeper.games.oh_hell.rules import Hook, Options, Schedule, Scoring
from scorekeeper.games.oh_hell.table import OhHellTable
from scorekeeper.games.oh_hell.words import N_, WORDS

_DEFAULT = Options()
_TABLE = OhHellTable()

GAME = GameDeclaration(
    table=_TABLE,
    house_rules=(
        HouseRuleOption("start", _DEFAULT.start,
                        N_("the biggest deal, cards each, 1-17 (default 7; never more than "
                           "52 / players).")),
        HouseRuleOption("schedule", _DEFAULT.schedule.value,
                        N_("down (default: the biggest deal down to 1), up, down-up or "
                           "up-down."), tuple(member.value for member in Schedule)),
        HouseRuleOption("scoring", _DEFAULT.scoring.value,
                        N_("ten-plus-bid (default), tricks-plus-ten or minus-difference."),
                        tuple(member.value for member in Scoring)),
        HouseRuleOption("hook", _DEFAULT.hook.value,
                        N_("on (default: the dealer may not make the bids add up to the "
                           "hand size) or off."), tuple(member.value for member in Hook)),
    ),
    round_options=(),
    round_usage="NAME=BID/TRICKS",
    value_word=N_("bid/tricks"),
    values_help=N_("each player's bid and tricks taken (Ann=2/1)"),
    role_heading=N_("Deal"),
    grid_legend=N_("+score =running total"),
    values_key="contracts",
    value_column="bid/tricks",
    csv_columns=("hand_size",),
    checked_results=("made",),
    widest_round=_TABLE.widest_round,
    words=WORDS,
)
