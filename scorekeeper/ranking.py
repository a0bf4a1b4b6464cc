"""Places and margins: who is ahead, by how much, and in what state, as every view shows
them (the terminal, the exports, the served pages).

On the session side, so that the views share one ranking instead of each working it
out from the standings.
"""

from __future__ import annotations

from scorekeeper.session import Session


def ranked_players(session: Session) -> list[tuple[int, str]]:
    """(rank, name), best first; players still in rank ahead of those knocked out."""
    standings = session.standings
    lower = session.rules.lower_is_better

    def key(name: str) -> tuple[int, int, int]:
        out = name in standings.knocked_out
        total = standings.totals[name]
        return (0 if name in standings.winners else 1, int(out), total if lower else -total)

    ordered = sorted(session.players, key=key)
    ranked: list[tuple[int, str]] = []
    for index, name in enumerate(ordered):
        if index and key(name) == key(ordered[index - 1]):
            ranked.append((ranked[-1][0], name))
        else:
            ranked.append((index + 1, name))
    return ranked


def margin(session: Session, name: str) -> str:
    """Points left before the limit (players still in), or points still to reach the target."""
    standings = session.standings
    total = standings.totals[name]
    target = session.rules.target(session.options)
    if session.rules.lower_is_better:
        return str(target - total) if name in standings.still_in else "—"
    return str(max(target - total, 0))


def margin_heading(session: Session) -> str:
    target = session.rules.target(session.options)
    return f"Left before {target}" if session.rules.lower_is_better else f"To {target}"


def status_word(session: Session, name: str) -> str:
    """winner, knocked out, finished or in: a player's state in one word."""
    standings = session.standings
    if name in standings.winners:
        return "winner"
    if name in standings.knocked_out:
        return "knocked out"
    return "finished" if standings.finished else "in"
