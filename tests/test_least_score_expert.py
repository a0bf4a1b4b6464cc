"""The Least Score expert's reading of the table: the deal's moves remembered from its
own views, and hidden hands weighed by how well they explain those moves."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from scorekeeper.cards import STANDARD_DECK, Card, parse_cards
from scorekeeper.games.least_score.bots import ExpertBot, StrongBot, stalling
from scorekeeper.games.least_score.engine import (
    Action,
    Deal,
    Declare,
    Discard,
    PlayerView,
    View,
)
from scorekeeper.games.least_score.expert import History, Move
from scorekeeper.games.least_score.rules import Options, hand_value

PLAYERS = ("Ann", "Bob", "Cy", "Di")


class NeverDeclares:
    """Random discards and takes, never a declaration: long deals, with reshuffles."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        sets = view.legal_discards()
        takes = view.take_options()
        return Discard(rng.choice(sets), rng.choice(takes))


def played_moves(deal: Deal) -> list[tuple[str, tuple[Card, ...], Card | None]]:
    """(player, discard, take) of every discard of the deal, from its record."""
    _, actions = deal.to_record()
    out = []
    for record in actions:
        if "discard" in record:
            take = None if record["take"] == "deck" else parse_cards(record["take"])[0]
            out.append((record["player"], tuple(parse_cards(" ".join(record["discard"]))),
                        take))
    return out


def test_history_tells_every_move_of_the_deal_from_one_seats_views() -> None:
    bot = NeverDeclares()
    for seed in range(6):
        deal = Deal.new(PLAYERS, PLAYERS[seed % 4], random.Random(seed), Options())
        history = History()
        rng = random.Random(seed)
        told: list[Move] | None = None
        for _ in range(90):  # past the first reshuffle of the dead pile
            player = deal.current_player
            assert player is not None
            view = deal.view(player)
            if player == "Cy":
                told = history.update(view)
                assert told is not None
                played = played_moves(deal)
                assert [(PLAYERS[m.seat], m.discard, m.take) for m in told] == played
                assert [m.could_declare for m in told] == [i >= 4 for i in range(len(told))]
            deal.apply(bot.choose(view, rng))
        assert told is not None and deal.view("Cy").reshuffled


def test_history_of_the_live_view_is_the_same() -> None:
    """``score simulate``'s live view (the core's observation) tells the same story as
    ``score play``'s views."""
    bot = NeverDeclares()
    for seed in range(3):
        deal = Deal.new(PLAYERS, "Di", random.Random(seed), Options())
        live_history, history = History(), History()
        rng = random.Random(seed)
        for _ in range(60):
            player = deal.current_player
            assert player is not None
            view = deal.view(player)
            if player == "Bob":
                live = deal.state.observation(1)
                assert live_history.update(live) == history.update(view)
            deal.apply(bot.choose(view, rng))


def test_history_refuses_a_deal_it_did_not_follow() -> None:
    bot = NeverDeclares()
    deal = Deal.new(PLAYERS, "Di", random.Random(1), Options())
    rng = random.Random(1)
    history = History()
    for _ in range(8):  # Ann's third turn; her first two views were never shown
        deal.apply(bot.choose(deal.view(deal.current_player or ""), rng))
    view = deal.view("Ann")
    assert view.turn == 8
    assert history.update(view) is None
    # A view of the first round is enough on its own: the deal as dealt is known.
    fresh = Deal.new(PLAYERS, "Bob", random.Random(1), Options())
    for _ in range(2):
        fresh.apply(bot.choose(fresh.view(fresh.current_player or ""), rng))
    moves = history.update(fresh.view("Ann"))
    assert moves is not None and [PLAYERS[m.seat] for m in moves] == ["Cy", "Di"]


def value_of(card: Card) -> int:
    return min(int(card.rank), 10)


def value(cards: Sequence[Card]) -> int:
    return sum(map(value_of, cards))


def hidden_cards(deal: Deal, view: View, player: str) -> list[Card]:
    seat = PLAYERS.index(player)
    return [c for c in deal.hand(player) if c not in view.taken_seen[seat]]


def test_the_reading_comes_closer_to_the_hidden_totals_than_chance() -> None:
    """Against strong players, the sampled hands' totals come closer to the real
    hidden totals than hands drawn evenly from the unseen cards; they hold unseen cards
    only, as many as the player hides."""
    expert, strong = ExpertBot(particles=48), StrongBot()
    read_error = even_error = 0.0
    for seed in range(12):
        deal = Deal.new(PLAYERS, "Di", random.Random(seed), Options())
        rng = random.Random(seed)
        for _ in range(12):
            player = deal.current_player
            assert player is not None
            view = deal.view(player)
            if player == "Ann":
                moves = expert.history.update(view)
                assert moves is not None
                unseen = expert.unseen(view)
                hands = expert.reader.read(view, moves, unseen, random.Random(seed))
                for seat, particles in hands.items():
                    real = hidden_cards(deal, view, PLAYERS[seat])
                    assert all(len(h) == len(real) and set(h) <= set(unseen)
                               and len(set(h)) == len(h) for h in particles)
                    truth = value(real)
                    read_error += abs(sum(value(h) for h in particles) / len(particles) - truth)
                    even_error += abs(len(real) * sum(map(value_of, unseen)) / len(unseen)
                                      - truth)
            action = strong.choose(view, rng)
            if isinstance(action, Declare):
                break
            deal.apply(action)
    assert read_error < 0.92 * even_error


@pytest.mark.slow  # a long run of the bot's play; the default suite stays under 2 minutes
def test_the_expert_declares_on_its_reading_and_plays_legally() -> None:
    expert = ExpertBot(particles=48)
    declared = 0
    for seed in range(15):
        deal = Deal.new(PLAYERS, PLAYERS[seed % 4], random.Random(seed), Options())
        rng = random.Random(seed)
        while not deal.is_over:
            player = deal.current_player
            assert player is not None
            action = expert.choose(deal.view(player), rng)
            assert action in deal.legal_actions()
            deal.apply(action)
        declared += 1
    assert declared == 15


def test_the_expert_declares_exactly_when_its_outlook_passes_its_rule() -> None:
    checked = read = 0
    for seed in range(12):
        deal = Deal.new(PLAYERS, PLAYERS[seed % 4], random.Random(seed), Options())
        # moves as strong's (no search), so that choose draws nothing after the outlook
        expert, strong = ExpertBot(particles=32, rollouts=0), StrongBot()
        rng = random.Random(seed)
        while not deal.is_over:
            player = deal.current_player
            assert player is not None
            view = deal.view(player)
            moves = expert.history.update(view) if player == "Ann" else None
            if player != "Ann" or not view.can_declare or stalling(view):
                deal.apply(strong.choose(view, rng))
                continue
            assert moves is not None  # Ann's views tell the deal's story
            state = rng.getstate()
            chance, edge = expert.outlook(view, moves, rng)
            after = rng.getstate()
            rng.setstate(state)
            guess = strong.declaration_outlook(view, random.Random(seed))
            action = expert.choose(view, rng)
            assert rng.getstate() == after  # choose weighs it with the very same draws
            passes = expert.declares(view, chance, edge)
            assert isinstance(action, Declare) == passes
            # Without the deal's story it falls back on strong's estimate.
            assert expert.outlook(view, None, random.Random(seed)) == guess
            if guess[0] >= expert.read_from:
                read += 1
            checked += 1
            deal.apply(action)
    assert checked >= 20 and read >= 5


def test_the_expert_asks_for_a_bigger_edge_in_a_duel_than_at_a_fuller_table() -> None:
    expert = ExpertBot()
    duel = Deal.new(("Ann", "Bob"), "Bob", random.Random(1), Options()).view("Ann")
    table = Deal.new(PLAYERS, "Di", random.Random(1), Options()).view("Ann")
    three = Deal.new(PLAYERS[:3], "Cy", random.Random(1), Options()).view("Ann")
    assert expert.min_edge > expert.group_edge
    between = (expert.min_edge + expert.group_edge) / 2
    assert expert.declares(table, 0.7, between) and expert.declares(three, 0.7, between)
    assert not expert.declares(duel, 0.7, between)
    assert expert.declares(duel, 0.7, expert.min_edge)
    # the chance asked for is the same at every table
    assert not any(expert.declares(view, expert.min_good - 0.01, 10.0)
                   for view in (duel, three, table))


def floor_taken_by_a_lone_card(ann: str, floor: str) -> Deal:
    """Ann (dealt ``ann``) shows her lowest card and keeps the turned-up ``floor``; Bob
    lays down his five clubs and takes Ann's card: on her turn, she knows his whole
    hand and that he will declare with it at his next."""
    ann_cards, bob_cards = parse_cards(ann), parse_cards("2C 3C 4C 5C 6C")
    (turned,) = parse_cards(floor)
    deck = [c for c in STANDARD_DECK if c not in {*ann_cards, *bob_cards, turned}]
    random.Random(0).shuffle(deck)
    deal = Deal(["Ann", "Bob"], "Bob", [ann_cards, bob_cards], turned, deck, Options(), None)
    lowest = min(ann_cards, key=lambda card: hand_value([card]))
    deal.apply(Discard((lowest,), turned))
    deal.apply(Discard(tuple(bob_cards), lowest))
    return deal


def test_a_play_out_scores_each_move_as_the_deal_ends() -> None:
    deal = floor_taken_by_a_lone_card("9H QS 6S 6D 5H", "7D")
    view = deal.view("Ann")
    assert [list(cards) for cards in view.taken_seen] == [parse_cards("7D"), parse_cards("5H")]
    contenders = [Discard(cards, take) for cards in view.legal_discards()
                  for take in view.floor]
    expert = ExpertBot(rollouts=6)
    values = expert.play_out(view, {}, contenders, random.Random(1))
    # Bob declares 5 at his next turn, whatever Ann holds: she scores her total - 5.
    for move, value in zip(contenders, values, strict=True):
        kept = [c for c in view.hand if c not in move.cards]
        assert move.take is not None
        assert value == -(hand_value([*kept, move.take]) - 5), move


def test_the_expert_plays_out_strongs_close_calls_and_keeps_the_best() -> None:
    deal = floor_taken_by_a_lone_card("9H QS 6S 6D 5H", "7D")
    view = deal.view("Ann")
    # strong keeps 5-6-7 for a run next turn (33 points in hand), but there is no next
    # turn: the pair and the two (28) lose five points fewer.
    assert StrongBot().best_move(view) == Discard(tuple(parse_cards("QS")), parse_cards("5C")[0])
    expert = ExpertBot(rollouts=6)
    moves = expert.history.update(deal.view("Ann"))
    assert moves is not None
    chosen = expert.search_move(view, moves, random.Random(1))
    assert chosen == Discard(tuple(parse_cards("6S 6D")), parse_cards("2C")[0])
    assert expert.choose(view, random.Random(1)) == chosen
    # without the deal's story, or without play-outs: strong's move
    assert expert.search_move(view, None, random.Random(1)) == StrongBot().best_move(view)
    assert ExpertBot(rollouts=0).choose(view, random.Random(1)) == StrongBot().best_move(view)


def test_without_play_outs_the_expert_moves_as_strong() -> None:
    expert, strong = ExpertBot(particles=16, rollouts=0), StrongBot()
    compared = 0
    for seed in range(6):
        deal = Deal.new(PLAYERS, PLAYERS[seed % 4], random.Random(seed), Options())
        rng = random.Random(seed)
        while not deal.is_over:
            view = deal.view(deal.current_player or "")
            action = expert.choose(view, random.Random(seed))
            if isinstance(action, Discard):
                assert action == strong.best_move(view)
                compared += 1
            deal.apply(strong.choose(view, rng))
    assert compared > 30
