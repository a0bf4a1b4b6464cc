"""Least Score in words: where its rules texts are, and its house rules described.

The rules texts are package files, ``rules/<language>.md``, one per language; they are
static and describe every house rule with its default. What a session chose is told
apart from them, one line per house rule, by :func:`house_rules`.
"""

from __future__ import annotations

from importlib import resources

from scorekeeper.games.common import HouseRule, Language
from scorekeeper.games.least_score.rules import End, Options, Tie, TwoPairs

RULES_FOLDER = resources.files("scorekeeper.games.least_score") / "rules"

_LIMIT = {
    Language.ENGLISH: "a player whose total goes over {limit} is knocked out",
    Language.DANISH: "en spiller, hvis samlede point kommer over {limit}, er slået ud",
    Language.ARABIC: "يُقصى اللاعب الذي يتجاوز مجموعه {limit}",
}
_TIE = {
    Tie.DECLARER_WINS: {
        Language.ENGLISH: "a tie (D = L) is a good declaration",
        Language.DANISH: "uafgjort (D = L) er en god erklæring",
        Language.ARABIC: "التعادل (D = L) إعلان صحيح",
    },
    Tie.DECLARER_LOSES: {
        Language.ENGLISH: "a tie (D = L) is a false declaration: 20 for the declarer",
        Language.DANISH: "uafgjort (D = L) er en falsk erklæring: 20 til erklæreren",
        Language.ARABIC: "التعادل (D = L) إعلان خاطئ: 20 للمُعلِن",
    },
}
_END = {
    End.LAST_STANDING: {
        Language.ENGLISH: "knocked-out players leave; the last player left wins",
        Language.DANISH: "spillere, der er slået ud, går ud; den sidste, der er tilbage, "
                         "vinder",
        Language.ARABIC: "يغادر اللاعبون المُقصَون، ويفوز آخر لاعب يبقى",
    },
    End.FIRST_OUT: {
        Language.ENGLISH: "the game ends at the first knock-out; the lowest total wins",
        Language.DANISH: "spillet slutter, når den første er slået ud; den laveste samlede "
                         "score vinder",
        Language.ARABIC: "تنتهي اللعبة عند أول إقصاء، ويفوز صاحب أقل مجموع",
    },
}
_TWO_PAIRS = {
    TwoPairs.SAME_RANK: {
        Language.ENGLISH: "two pairs must be all four cards of one rank",
        Language.DANISH: "to par skal være alle fire kort af samme værdi",
        Language.ARABIC: "الزوجان هما البطاقات الأربع من رتبة واحدة فقط",
    },
    TwoPairs.ANY_RANK: {
        Language.ENGLISH: "two pairs of any ranks (K K 5 5) may go as one discard",
        Language.DANISH: "to par af forskellig værdi (K K 5 5) må kastes samlet",
        Language.ARABIC: "يجوز التخلص من زوجين من أي رتبتين (K K 5 5) دفعة واحدة",
    },
}


def house_rules(options: Options, language: Language) -> list[HouseRule]:
    """Each house rule of ``options`` in words, in ``score new``'s order.

    >>> [rule.as_typed for rule in house_rules(Options(limit=25), Language.ENGLISH)]
    ['--limit 25', '--tie declarer-wins', '--end last-standing', '--two-pairs same-rank']
    """
    default = Options()
    return [
        HouseRule("limit", options.limit, default.limit,
                  _LIMIT[language].format(limit=options.limit)),
        HouseRule("tie", options.tie.value, default.tie.value, _TIE[options.tie][language]),
        HouseRule("end", options.end.value, default.end.value, _END[options.end][language]),
        HouseRule("two_pairs", options.two_pairs.value, default.two_pairs.value,
                  _TWO_PAIRS[options.two_pairs][language]),
    ]
