"""Oh Hell as the generic layers see it: the one object its entry point names. It has no
virtual deck: the scorekeeper keeps the score of a game played with real cards."""

from __future__ import annotations

from scorekeeper.games.oh_hell.words import N_, WORDS
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.options import HouseRuleOption

# The house rules' defaults and choices as plain values, the same as the rules' own
# (tests/test_house_rule_values.py compares them): every command reads this declaration,
# and importing the rules for them cost every command about a millisecond a game.
BIDS_KEY, TRICKS_KEY = "bids", "tricks"  # rules.BIDS_KEY, rules.TRICKS_KEY
_MOST_CARDS = 7  # rules.START
_SCHEDULES = ("descend", "ascend", "both")  # rules.Schedule, the default first
_SCORINGS = ("ten-plus", "per-trick", "minus")  # rules.Scoring, the default first
_HOOK, _NO_HOOK = "hook", "no-hook"  # rules.Hook
_TABLE = "scorekeeper.games.oh_hell.table:OhHellTable"
"""The table, made on first use: the commands on another game's session never import it."""

GAME = GameDeclaration(
    table=_TABLE,
    name="oh-hell",
    title="Oh Hell",
    questions=_TABLE,
    house_rules=(
        HouseRuleOption("most_cards", _MOST_CARDS,
                        N_("the biggest deal, cards each, 1-17 (default 7; never more than "
                           "52 / players).")),
        HouseRuleOption("hand_sizes", _SCHEDULES[0],
                        N_("descend (default: the biggest deal down to 1), ascend, or both "
                           "(down and back up)."), _SCHEDULES),
        HouseRuleOption("bid_scoring", _SCORINGS[0],
                        N_("ten-plus (default: an exact bid scores 10 + the bid), per-trick "
                           "(1 a trick, 10 more for an exact bid) or minus (a missed bid "
                           "loses the difference)."),
                        _SCORINGS),
        HouseRuleOption("hook", _HOOK,
                        N_("hook (default: the dealer may not make the bids add up to the "
                           "hand size) or no-hook."), (_HOOK, _NO_HOOK),
                        ((_HOOK, N_("hook on")), (_NO_HOOK, N_("hook off")))),
    ),
    round_options=(),
    round_usage="NAME=BID/TRICKS ...",
    value_word=N_("bid/tricks"),
    values_help=N_("each player's bid and the tricks they took (Ann=2/1: bid 2, took 1)"),
    role_heading=N_("Hand"),
    grid_legend=N_("+score =running total"),
    values_key="contracts",
    value_column="bid/tricks",
    csv_columns=("hand_size",),
    checked_results=("hand_size", BIDS_KEY, TRICKS_KEY, "made"),
    narrow_note_heading=N_("Cards"),
    narrow_legend=(("!", N_("bid missed")),),
    narrow_marks=f"{_TABLE}.narrow_marks",
    widest_round=f"{_TABLE}.widest_round",
    words=WORDS,
    description=N_("Oh Hell (Contract Whist): each deal every player bids the tricks they "
                   "will take; an exact bid scores. The hand size changes deal by deal."),
    roster="scorekeeper.games.oh_hell.table:OhHellRoster",
    entry_form="scorekeeper.games.oh_hell.entry:FORM",
)
