"""Least Score in words: where its rules texts are, and its house rules described.

The rules texts are package files, ``rules/<language>.md``, one per language; they are
static and describe every house rule with its default. What a session chose is told
apart from them, one line per house rule, by :func:`house_rules`, in English here and
translated by the gettext catalogs (scorekeeper.i18n) like every other message.
"""

from __future__ import annotations

from importlib import resources

from scorekeeper.games.least_score.rules import End, Options, Tie, TwoPairs
from scorekeeper.games.least_score.words import N_, WORDS
from scorekeeper.kit.options import HouseRule, Language

RULES_FOLDER = resources.files("scorekeeper.games.least_score") / "rules"

_LIMIT = N_("a player whose total goes over {limit} is knocked out")
_TIE = {
    Tie.DECLARER_WINS: N_("a tie (D = L) is a good declaration"),
    Tie.DECLARER_LOSES: N_("a tie (D = L) is a false declaration: 20 for the declarer"),
}
_END = {
    End.LAST_STANDING: N_("knocked-out players leave; the last player left wins"),
    End.FIRST_OUT: N_("the game ends at the first knock-out; the lowest total wins"),
}
_TWO_PAIRS = {
    TwoPairs.SAME_RANK: N_("two pairs must be all four cards of one rank"),
    TwoPairs.ANY_RANK: N_("two pairs of any ranks (K K 5 5) may go as one discard"),
}


def house_rules(options: Options, language: Language,
                default: Options | None = None) -> list[HouseRule]:
    """Each house rule of ``options`` in words, in ``score new``'s order (``default``:
    the table's defaults, a variant's own).

    >>> [rule.as_typed for rule in house_rules(Options(limit=25), Language.ENGLISH)]
    ['--limit 25', '--tie declarer-wins', '--end last-standing', '--two-pairs same-rank']
    """
    words = WORDS.catalog(language.value).gettext
    default = default or Options()
    return [
        HouseRule("limit", options.limit, default.limit,
                  words(_LIMIT).format(limit=options.limit)),
        HouseRule("tie", options.tie.value, default.tie.value, words(_TIE[options.tie])),
        HouseRule("end", options.end.value, default.end.value, words(_END[options.end])),
        HouseRule("two_pairs", options.two_pairs.value, default.two_pairs.value,
                  words(_TWO_PAIRS[options.two_pairs])),
    ]
