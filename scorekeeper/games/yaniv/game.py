"""Yaniv's declaration: Least Score's, with its own table, house rules, words and virtual
adapter; everything else (round options, questions, grid, keyboard UI) is its base's."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.games.least_score.game import GAME as LEAST_SCORE
from scorekeeper.games.yaniv.words import N_, WORDS
from scorekeeper.kit.entry_form import EntryForm
from scorekeeper.kit.options import HouseRuleOption

_TABLE = "scorekeeper.games.yaniv.table:YanivTable"
"""The table, made on first use: the commands on another game's session never import it."""
# The house rules' defaults and choices as plain values, the same as the rules' own
# (tests/test_house_rule_values.py compares them): every command reads this declaration,
# and importing the rules for them cost every command about a millisecond a game.
_LIMIT_AT, _DECLARE_AT, _PENALTY, _HALVING, _JOKERS = 200, 7, 30, 50, 0  # rules.LIMIT, ...
_DECLARER_LOSES = "declarer-loses"  # rules.YanivOptions.tie
_LIMIT, _TIE, _END, _TWO_PAIRS = LEAST_SCORE.house_rules


def _own_words(form: EntryForm | None) -> EntryForm | None:
    """Least Score's entry page in Yaniv's words: the declarer "called Yaniv"."""
    if form is None:
        return None
    return replace(form, claims=tuple(
        replace(claim, label=N_("I called Yaniv")) if claim.key == "declared" else claim
        for claim in form.claims))


GAME = replace(
    LEAST_SCORE,
    table=_TABLE,
    name="yaniv",
    title="Yaniv",
    questions=_TABLE,
    # Least Score's rule, restated so that declaring Yaniv does not load it:
    roster=LEAST_SCORE.given("roster"),
    house_rules=(
        replace(_LIMIT, default=_LIMIT_AT,
                help=N_("knock-out: over this total a player is out, 10-500 (default 200).")),
        replace(_TIE, default=_DECLARER_LOSES,
                help=N_("declarer-loses (default: a tie is Assaf) or declarer-wins.")),
        _END,
        _TWO_PAIRS,
        HouseRuleOption("declare_at", _DECLARE_AT,
                        N_("the highest hand Yaniv may be called with, 1-50, or 0-50 with "
                           "jokers (default 7).")),
        HouseRuleOption("penalty", _PENALTY,
                        N_("what Assaf costs the caller besides their hand, 0-100 "
                           "(default 30).")),
        HouseRuleOption("halving", _HALVING,
                        N_("a total landing exactly on a multiple of this is halved; 0 is "
                           "off, else 10-500 (default 50).")),
        HouseRuleOption("jokers", _JOKERS,
                        N_("the jokers shuffled in, 0 to 2, each worth 0 (default 0: none); "
                           "with jokers --declare-at may be 0."),
                        said=(("0", N_("no jokers")), ("1", N_("one joker")),
                              ("2", N_("two jokers")))),
    ),
    checked_results=("false_declaration", "halved"),
    widest_round=f"{_TABLE}.widest_round",
    role_heading=N_("Called"),
    grid_legend=N_("* called Yaniv   ✗ Assaf   +score =running total"),
    narrow_legend=(("*", N_("called Yaniv")), ("!", N_("Assaf"))),
    virtual="scorekeeper.games.yaniv.virtual:YanivVirtual",
    words=WORDS,
    entry_form=_own_words(LEAST_SCORE.entry_form),
    description=N_("Yaniv, a variant of Least Score: call at 7 or less, a failed call "
                   "(Assaf) costs 30, out over 200, a total landing on a multiple of 50 is "
                   "halved."),
    base="scorekeeper.games.least_score",
)
