"""One Card as the generic layers see it: the one object the registry lists."""

from __future__ import annotations

from scorekeeper.games.common import GameDeclaration, HouseRuleOption, RoundOption
from scorekeeper.games.one_card.rules import JokerRule, Options
from scorekeeper.games.one_card.table import OneCardTable

_DEFAULT = Options()
_TABLE = OneCardTable()

GAME = GameDeclaration(
    table=_TABLE,
    house_rules=(
        HouseRuleOption("joker", _DEFAULT.joker.value, "joker (default) or two-of-diamonds.",
                        tuple(member.value for member in JokerRule)),
        HouseRuleOption("target", _DEFAULT.target, "the score that ends the game "
                        "(default 30)."),
    ),
    round_options=(
        RoundOption("bidder", "name", "the high bidder."),
        RoundOption("bid", "number", "the winning bid."),
        RoundOption("no_bid", "switch", "nobody bid."),
        RoundOption("trump", "text", "the trump suit (S, H, D, C), if you want it recorded.",
                    "SUIT"),
    ),
    round_usage="--bidder NAME --bid N, or --no-bid",
    value_word="points",
    values_help="each player's points (Ann=4)",
    role_heading="Bid",
    grid_legend="+score =running total   ✗ the bidder took fewer points than the bid",
    values_key="points",
    value_column="points",
    csv_columns=("bidder", "bid", "trump", "bid_failed"),
    checked_results=("bid_failed",),
    questions=_TABLE,
    narrow_note_heading="Bid",
    narrow_legend=(("*", "bid made"), ("!", "bid failed")),
    narrow_marks=_TABLE.narrow_marks,
    virtual="scorekeeper.games.one_card.virtual:OneCardVirtual",
    bots=("random", "greedy", "strong", "expert"),
    keyboard_ui="scorekeeper.games.one_card.ui",
)
