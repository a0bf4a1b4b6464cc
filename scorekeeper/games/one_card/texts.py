"""One Card in words: where its rules texts are, and its house rules described.

The rules texts are package files, ``rules/<language>.md``, one per language; they are
static and describe every house rule with its default. What a session chose is told
apart from them, one line per house rule, by :func:`house_rules`, in English here and
translated by the gettext catalogs (scorekeeper.i18n) like every other message.
"""

from __future__ import annotations

from importlib import resources

from scorekeeper.games.one_card.rules import JokerRule, Options
from scorekeeper.games.one_card.words import N_, WORDS
from scorekeeper.kit.options import HouseRule, Language

RULES_FOLDER = resources.files("scorekeeper.games.one_card") / "rules"

_JOKER = {
    JokerRule.JOKER: N_("the joker (JK) is the joker"),
    JokerRule.TWO_OF_DIAMONDS: N_("the two of diamonds (2D) is the joker, with all its "
                                  "powers and value"),
}
_TARGET = N_("the game ends after the deal in which someone reaches {target}")


def house_rules(options: Options, language: Language) -> list[HouseRule]:
    """Each house rule of ``options`` in words, in ``score new``'s order.

    >>> [rule.as_typed for rule in house_rules(Options(target=50), Language.ENGLISH)]
    ['--joker joker', '--target 50']
    """
    words = WORDS.catalog(language.value).gettext
    default = Options()
    return [
        HouseRule("joker", options.joker.value, default.joker.value,
                  words(_JOKER[options.joker])),
        HouseRule("target", options.target, default.target,
                  words(_TARGET).format(target=options.target)),
    ]
