"""Write the sample of deals the One Card expert plays the rest of a game out on.

    python scripts/deal_outcomes.py [--deals 400] [--jobs 2]

Four ``strong`` bots (two or three for the smaller tables) play ``--deals`` deals for
each number of players; each deal's scores by seat, the dealer's first, go to
``scorekeeper/games/one_card/outcomes.json`` (see ``games/one_card/expert.py``). Every
deal is seeded by its number of players and its index: the same file on every run.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.games.one_card import rules  # noqa: E402
from scorekeeper.games.one_card.bots import StrongBot  # noqa: E402
from scorekeeper.games.one_card.engine import OVER, State  # noqa: E402
from scorekeeper.games.one_card.expert import DEAL_OUTCOMES  # noqa: E402


def play(job: tuple[int, int]) -> list[int]:
    """Deal ``index`` of ``n`` players by strong bots: the scores, the dealer's first."""
    n, index = job
    dealer = index % n
    deal = State.shuffled(n, dealer, random.Random(f"outcomes/{n}/{index}/deal"))
    bot = StrongBot()
    seats = [(view, random.Random(f"outcomes/{n}/{index}/{seat}"))
             for seat, view in enumerate(deal.observations())]
    info = deal.info
    while info.phase != OVER:
        view, rng = seats[info.cur]
        deal.apply(bot.decide(view, rng))
    scores = deal.returns()
    return scores[dealer:] + scores[:dealer]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    sizes = range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)
    with ProcessPoolExecutor(args.jobs) as pool:
        deals = {str(n): list(pool.map(play, [(n, i) for i in range(args.deals)], chunksize=8))
                 for n in sizes}
    about = (f"Scores of {args.deals} deals by strong bots per number of players, by seat "
             "from the dealer: python scripts/deal_outcomes.py")
    out = ROOT / "scorekeeper" / "games" / "one_card" / DEAL_OUTCOMES
    out.write_text(json.dumps({"about": about, "deals": deals}, separators=(",", ":")) + "\n",
                   encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}: {args.deals} deals for each of "
          f"{', '.join(map(str, sizes))} players")


if __name__ == "__main__":
    main()
