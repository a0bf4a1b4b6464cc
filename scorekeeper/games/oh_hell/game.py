"""Oh Hell as the generic layers see it: the one object its entry point names. It has no
virtual deck: the scorekeeper keeps the score of a game played with real cards."""

from __future__ import annotations

from scorekeeper.games.oh_hell.rules import BIDS_KEY, TRICKS_KEY, Hook, Options, Schedule, Scoring
from scorekeeper.games.oh_hell.words import N_, WORDS
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.entry_form import EntryField, EntryForm
from scorekeeper.kit.options import HouseRuleOption

_DEFAULT = Options()
_TABLE = "scorekeeper.games.oh_hell.table:OhHellTable"
"""The table, made on first use: the commands on another game's session never import it."""

GAME = GameDeclaration(
    table=_TABLE,
    name="oh-hell",
    title="Oh Hell",
    questions=_TABLE,
    house_rules=(
        HouseRuleOption("most_cards", _DEFAULT.most_cards,
                        N_("the biggest deal, cards each, 1-17 (default 7; never more than "
                           "52 / players).")),
        HouseRuleOption("hand_sizes", _DEFAULT.hand_sizes.value,
                        N_("descend (default: the biggest deal down to 1), ascend, or both "
                           "(down and back up)."), tuple(member.value for member in Schedule)),
        HouseRuleOption("bid_scoring", _DEFAULT.bid_scoring.value,
                        N_("ten-plus (default: an exact bid scores 10 + the bid), per-trick "
                           "(1 a trick, 10 more for an exact bid) or minus (a missed bid "
                           "loses the difference)."),
                        tuple(member.value for member in Scoring)),
        HouseRuleOption("hook", _DEFAULT.hook.value,
                        N_("hook (default: the dealer may not make the bids add up to the "
                           "hand size) or no-hook."), tuple(member.value for member in Hook),
                        ((Hook.ON.value, N_("hook on")), (Hook.OFF.value, N_("hook off")))),
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
    entry_form=EntryForm(
        value=EntryField("contract", "text", N_("Your bid and the tricks you took (bid/tricks)"),
                         "2/1"),
    ),
)
