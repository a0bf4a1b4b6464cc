"""Places and margins: who is ahead, by how much, and in what state, as every view shows
them (the terminal, the exports, the served pages).

On the session side, so that the views share one ranking instead of each working it
out from the standings.
"""

from __future__ import annotations

from scorekeeper.i18n import _, pgettext
from scorekeeper.kit.standings import competition_ranks
from scorekeeper.session import Session


def ranked_players(session: Session) -> list[tuple[int, str]]:
    """(place, name), best first, as the game places its players (``placings``): a game
    may place the knocked-out by how long they lasted (Least Score played to the end).
    While a game is on, the players still in are ordered by their totals."""
    standings = session.standings
    places = session.placings()
    sign = 1 if session.lowest_wins else -1
    still_in = set() if standings.finished else set(standings.still_in)
    ranks = competition_ranks({
        name: (places[name], sign * standings.totals[name] if name in still_in else 0)
        for name in session.players})
    return sorted(((ranks[name], name) for name in session.players),
                  key=lambda ranked: (ranked[0], session.players.index(ranked[1])))


def target_line(session: Session) -> int | None:
    """The limit or target the views show (a column of what is left, the chart's line);
    None when the game has none (its ``target`` is 0: a Points game played for a number
    of deals), and then they show no such column or line."""
    return session.rules.target(session.options) or None


def knocks_out(session: Session) -> bool:
    """Whether the game's words are a knock-out game's: points "left before" a limit, a
    status "in" for each player still playing. A table says no with ``knocks_out =
    False`` (Hearts ends when a total reaches the target, Oh Hell after its deals): then
    the views show neither, and the game's own notes say where it stands."""
    return bool(getattr(session.rules, "knocks_out", True))


def counts_to_limit(session: Session) -> bool:
    """Whether the target is a limit players are knocked out over (Least Score's "left
    before 100", "limit 100"): a knock-out game where the lowest total wins. A game
    without knock-outs says "to 100", "target 100", whichever total wins."""
    return knocks_out(session) and session.lowest_wins


def shows_margin(session: Session) -> bool:
    """Whether the standings show a column of what is left (or to go) when there is a
    target: a knock-out game's, or a game's whose table says ``shows_margin = True``
    (Points' "To 100"; Hearts and Oh Hell say where they stand in their notes)."""
    return knocks_out(session) or bool(getattr(session.rules, "shows_margin", False))


def margin(session: Session, name: str) -> str:
    """Points left before the limit (players still in), or points still to reach the target."""
    standings = session.standings
    total = standings.totals[name]
    target = session.rules.target(session.options)
    if name in standings.left:
        return "—"
    if counts_to_limit(session):
        return str(target - total) if name in standings.still_in else "—"
    return str(max(target - total, 0))


def margin_heading(session: Session) -> str:
    target = session.rules.target(session.options)
    if counts_to_limit(session):
        return _("Left before {target}").format(target=target)
    return _("To {target}").format(target=target)


def margin_headings(session: Session) -> list[str]:
    """The standings' column of what is left (or to go) as a list of its heading, empty
    when the game has no target (:func:`target_line`): views add a cell per heading."""
    return [margin_heading(session)] \
        if target_line(session) is not None and shows_margin(session) else []


def status_text(session: Session, name: str) -> str:
    """:func:`status_word` in the active language, for people to read."""
    word = status_word(session, name)
    if word == "winner":
        return pgettext("player status", "winner")
    if word == "knocked out":
        return pgettext("player status", "knocked out")
    if word == "finished":
        return pgettext("player status", "finished")
    if word == "left":
        return pgettext("player status", "left")
    return pgettext("player status", "in") if word == "in" and knocks_out(session) else ""


def left_after(session: Session, name: str) -> int | None:
    """The round after which ``name`` left the game (``score drop-player``), or None."""
    if name not in session.standings.left:
        return None
    return next((change.after for change in reversed(session.roster)
                 if change.player == name and not change.joined), None)


def left_words(after: object) -> str:
    return _("left after round {number}").format(number=after)


def status_word(session: Session, name: str) -> str:
    """winner, knocked out, finished or in: a player's state in one word (English: a key
    the exports' styles test; show :func:`status_text`)."""
    standings = session.standings
    if name in standings.winners:
        return "winner"
    if name in standings.knocked_out:
        return "knocked out"
    if name in standings.left:
        return "left"
    return "finished" if standings.finished else "in"
