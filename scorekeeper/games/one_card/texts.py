"""One Card in words: where its rules texts are, and its house rules described.

The rules texts are package files, ``rules/<language>.md``, one per language; they are
static and describe every house rule with its default. What a session chose is told
apart from them, one line per house rule, by :func:`house_rules`.
"""

from __future__ import annotations

from importlib import resources

from scorekeeper.games.common import HouseRule, Language
from scorekeeper.games.one_card.rules import JokerRule, Options

RULES_FOLDER = resources.files("scorekeeper.games.one_card") / "rules"

_JOKER = {
    JokerRule.JOKER: {
        Language.ENGLISH: "the joker (JK) is the joker",
        Language.DANISH: "jokeren (JK) er joker",
        Language.ARABIC: "الجوكر (JK) هو الجوكر",
    },
    JokerRule.TWO_OF_DIAMONDS: {
        Language.ENGLISH: "the two of diamonds (2D) is the joker, with all its powers "
                          "and value",
        Language.DANISH: "ruder to (2D) er joker, med alle jokerens egenskaber og værdi",
        Language.ARABIC: "اثنان الديناري (2D) هو الجوكر، بكل قدراته وقيمته",
    },
}
_TARGET = {
    Language.ENGLISH: "the game ends after the deal in which someone reaches {target}",
    Language.DANISH: "spillet slutter efter den runde, hvor nogen når {target}",
    Language.ARABIC: "تنتهي اللعبة بعد الجولة التي يبلغ فيها أحد اللاعبين {target}",
}


def house_rules(options: Options, language: Language) -> list[HouseRule]:
    """Each house rule of ``options`` in words, in ``score new``'s order.

    >>> [rule.as_typed for rule in house_rules(Options(target=50), Language.ENGLISH)]
    ['--joker joker', '--target 50']
    """
    default = Options()
    return [
        HouseRule("joker", options.joker.value, default.joker.value,
                  _JOKER[options.joker][language]),
        HouseRule("target", options.target, default.target,
                  _TARGET[language].format(target=options.target)),
    ]
