"""One Card as the generic layers see it: the one object the registry lists."""

from __future__ import annotations

from scorekeeper.games.one_card.words import N_, WORDS
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.options import HouseRuleOption, RoundOption

# The house rules' defaults and choices as plain values, the same as rules.Options' and
# rules.JokerRule's (tests/test_one_card_table.py compares them): every command reads
# this declaration, and importing the rules for them cost every command some 4 ms
# (docs/performance.md).
_JOKER, _TWO_OF_DIAMONDS = "joker", "two-of-diamonds"
_TARGET = 30
_TABLE = "scorekeeper.games.one_card.table:OneCardTable"
"""The table, made on first use: the commands on another game's session never import it."""

GAME = GameDeclaration(
    table=_TABLE,
    name="one-card",
    title="One Card",
    house_rules=(
        HouseRuleOption("joker", _JOKER,
                        N_("joker (default) or two-of-diamonds."),
                        (_JOKER, _TWO_OF_DIAMONDS),
                        ((_JOKER, N_("JK is the joker")),
                         (_TWO_OF_DIAMONDS, N_("2D is the joker")))),
        HouseRuleOption("target", _TARGET, N_("the score that ends the game "
                                              "(default 30).")),
    ),
    round_options=(
        RoundOption("bidder", "name", N_("the high bidder.")),
        RoundOption("bid", "number", N_("the winning bid.")),
        RoundOption("no_bid", "switch", N_("nobody bid.")),
        RoundOption("trump", "text", N_("the trump suit (S, H, D, C), if you want it "
                                        "recorded."), "SUIT"),
    ),
    round_usage="--bidder NAME --bid N, or --no-bid",
    value_word=N_("points"),
    values_help=N_("each player's points (Ann=4)"),
    role_heading=N_("Bid"),
    grid_legend=N_("+score =running total   ✗ the bidder took fewer points than the bid"),
    values_key="points",
    value_column="points",
    csv_columns=("bidder", "bid", "trump", "bid_failed"),
    checked_results=("bid_failed",),
    questions=_TABLE,
    narrow_note_heading=N_("Bid"),
    narrow_legend=(("*", N_("bid made")), ("!", N_("bid failed"))),
    narrow_marks=f"{_TABLE}.narrow_marks",
    widest_round=f"{_TABLE}.widest_round",
    virtual="scorekeeper.games.one_card.virtual:OneCardVirtual",
    bots=("random", "greedy", "strong", "expert"),
    keyboard_ui="scorekeeper.games.one_card.ui",
    online_ui="scorekeeper.games.one_card.online",
    words=WORDS,
    roster="scorekeeper.games.one_card.table:OneCardRoster",
    entry_form="scorekeeper.games.one_card.entry:FORM",
)
