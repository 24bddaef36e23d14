"""Card packs, the engine side (engine/packs.py): each game's example pack loads, plays to the end under the
generic protocol checks, really deals its cards, rebuilds from JSON in a fresh process, and a malformed pack
gets its precise reason."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import packs
from engine.carddata import CardDataError
from engine.match import Match
from engine.registry import get
from tests.games.test_games_generic import check_illegal, check_step

GAMES = ("ophelia", "siege_of_olympus", "ophion", "ophidian")
SEEDS = (1, 2, 3, 4, 5)
CHOICE = {"ophelia": "deck", "ophidian": "team"}  # the seat choice a pack's ready decks join


@pytest.fixture(autouse=True)
def clean_slate() -> Iterator[None]:
    """Each test leaves the games' card tables as it found them (other tests read the game's own cards)."""
    yield
    packs.forget()


def get_present(game_id: str) -> Any:
    """A game's presentation module."""
    return importlib.import_module(f"engine.games.{game_id}.present")


def example(game_id: str) -> packs.Pack:
    """The example pack a game ships."""
    path = packs.example(game_id)
    assert path is not None
    return packs.read(path.read_text(encoding="utf-8"), path.name)


def options(game_id: str, pack: packs.Pack) -> dict[str, Any]:
    """Options for a match with the pack, seat 1 playing the pack's first ready deck where there is one."""
    out: dict[str, Any] = {"pack": packs.option(pack, 1)}
    key = CHOICE.get(game_id)
    if key is not None:
        choice = next(c for c in packs.choices(pack) if c.key == key)
        base = next(c for c in get_present(game_id).choices if c.key == key)
        ours = [o for o, _ in choice.options if "." in o]
        assert ours and choice.options[: len(base.options)] == base.options, "offered beside the game's own"
        out["seat_choices"] = [{key: ours[0]}, {}]
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_example_pack_loads(game_id: str) -> None:
    """Each game with cards ships an example pack that reads cleanly; its entries are new, namespaced."""
    pack = example(game_id)
    assert pack.game_id == game_id and 1 <= len(pack.name) <= 32
    assert pack.entries and all("." in e.id for e in pack.entries)
    catalogue = {e.id for e in get_present(game_id).catalogue()}
    assert not catalogue & {e.id for e in pack.entries}, "the static catalogue stays the base set"
    assert packs.from_option(game_id, packs.option(pack, 3)) == pack


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_with_the_example_pack(game_id: str, seed: int) -> None:
    """Random legal play to the end with the pack: the protocol checks of test_games_generic at every step
    (sorted unique moves, exact JSON round trip, determinize looks the same), replay rebuilds the state, and a
    pack card reaches a hand, the board or a pile that play uses."""
    game = get(game_id)
    pack = example(game_id)
    opts = options(game_id, pack)
    n = game.min_players
    m = Match.new(game_id, n, seed, opts)
    s = m.state
    assert s.pack, "the state carries its pack"
    dealt = {c for c in json.dumps(game.to_json(s)).split('"') if c in {e.id for e in pack.entries}}
    assert dealt, "a pack card is dealt into the game"
    rng = random.Random(seed)
    played = False
    steps = 0
    while game.to_act(s):
        if steps % 5 == 0:
            check_step(game, s, n, seed + steps)
        p = game.to_act(s)[0]
        legal = game.legal_actions(s, p)
        if steps % 23 == 0:
            check_illegal(game, s, n, legal)
        action = rng.choice(legal)
        played = played or any(str(v) in dealt for _, v in action.args)
        m.apply(action)
        steps += 1
        assert steps <= game.max_actions
    check_step(game, s, n, seed)
    assert game.returns(s) is not None
    replayed = Match.replay(game_id, n, seed, opts, m.log)
    assert game.to_json(replayed.state) == game.to_json(s), "replaying the log must rebuild the state"
    if game_id == "ophion":  # a random 2-player game buys a few cards: test_a_pack_card_is_played buys one
        return
    log = json.dumps(s.log)  # the game's own words: "P2 plays Zhang Qian into slot 4"
    assert played or any(e.id in log or f" {e.name}" in log for e in pack.entries), "a pack card reaches play"


def pack_move(game_id: str, s: Any, legal: list[Any], ids: set[str]) -> Any:
    """A move that plays or buys a pack card, if there is one."""
    for a in legal:
        c = dict(a.args).get("c")
        if game_id == "ophion" and a.kind == "buy":
            c = next(m.card for m in s.market if m is not None and m.uid == c)
        if a.kind in ("summon", "cast", "buy") and str(c) in ids:
            return a
    return None


@pytest.mark.parametrize("game_id", ["siege_of_olympus", "ophion"])
def test_a_pack_card_is_played(game_id: str) -> None:
    """Siege of Olympus shuffles the pack's minions and spells into the shared Deck (RULINGS 55), Ophion its
    cards into their tier decks (RULINGS 25): every one is dealt, and one is summoned, cast or bought."""
    game = get(game_id)
    pack = example(game_id)
    ids = {e.id for e in pack.entries}
    s = game.setup(2, 5, {"pack": packs.option(pack, 1)})
    piles = s.deck if game_id == "siege_of_olympus" else s.tier1 + s.tier2 + [m.card for m in s.market if m]
    assert ids <= set(piles), "every pack card is in the game's piles"
    rng = random.Random(5)
    mine = None
    while game.to_act(s) and mine is None:
        legal = game.legal_actions(s, game.to_act(s)[0])
        mine = pack_move(game_id, s, legal, ids)
        game.apply(s, mine or rng.choice(legal))
    assert mine is not None, "a pack card was summoned, cast or bought"


def test_a_fresh_process_rebuilds_a_state_from_json(tmp_path: Path) -> None:
    """A state with a pack, saved as JSON, loads in a new process that never read the pack (AI workers get
    only the state) and plays on."""
    rows = {}
    for game_id in GAMES:
        game = get(game_id)
        pack = example(game_id)
        m = Match.new(game_id, game.min_players, 9, options(game_id, pack))
        for _ in range(30):
            if not game.to_act(m.state):
                break
            m.apply(game.legal_actions(m.state, game.to_act(m.state)[0])[-1])
        rows[game_id] = game.to_json(m.state)
    path = tmp_path / "states.json"
    path.write_text(json.dumps(rows))
    code = (
        "import json, sys\n"
        "from engine.registry import get\n"
        "rows = json.load(open(sys.argv[1]))\n"
        "for gid, data in rows.items():\n"
        "    g = get(gid); s = g.from_json(data)\n"
        "    assert g.to_json(s) == data, gid\n"
        "    g.view(s, None); g.view(s, 0); g.determinize(s, 0, 1)\n"
        "    for p in g.to_act(s): g.apply(s, g.legal_actions(s, p)[0]); break\n"
        "print('ok')\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code, str(path)], cwd=root, capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def test_a_cleared_registry_rebuilds_a_state_from_json() -> None:
    """With every pack forgotten (as in a new process), loading a state adds its pack's cards again."""
    for game_id in GAMES:
        game, pack = get(game_id), example(game_id)
        data = game.to_json(game.setup(game.min_players, 2, options(game_id, pack)))
        packs.forget()
        cards = importlib.import_module(f"engine.games.{game_id}.cards").CARDS
        assert not any(e.id in cards for e in pack.entries), "forgotten"
        s = game.from_json(data)
        assert all(e.id in cards for e in pack.entries) and game.to_json(s) == data
        game.view(s, 0)


def test_two_versions_never_collide_and_a_game_without_the_pack_sees_none() -> None:
    """Two versions of one pack get different ids; a game set up without a pack deals no pack card, and its
    determinizations sample none either."""
    text = packs.example("siege_of_olympus").read_text(encoding="utf-8")  # type: ignore[union-attr]
    one = packs.read(text, "a.toml")
    two = packs.read(
        text.replace("cost = 2\nattack = 2\nhealth = 4", "cost = 2\nattack = 3\nhealth = 4"), "b.toml"
    )
    assert {e.id for e in one.entries}.isdisjoint(e.id for e in two.entries)
    for game_id in GAMES:
        game = get(game_id)
        game.setup(game.min_players, 1, options(game_id, example(game_id)))  # the pack known to this process
        s = game.setup(game.min_players, 1)
        assert "." not in json.dumps(game.to_json(s)["sides" if game_id != "ophion" else "tier1"])
        for seed in range(3):
            d = game.determinize(s, 0, seed)
            tags = {e.id.split(".")[1] for e in example(game_id).entries}
            assert not any(t in json.dumps(game.to_json(d)) for t in tags)


# -- malformed packs: each gets its precise reason -----------------------------------------------------------

SIEGE_HEAD = '[pack]\ngame = "siege_of_olympus"\nname = "Test"\n'
MINION = """
[[card]]
id = "{id}"
name = "Test Minion"
type = "minion"
cost = 1
attack = 2
health = 2
artifact = 5
ranged = false
class = "brawler"
race = "giant"
text = ""
"""


def siege(*cards: str, head: str = SIEGE_HEAD) -> str:
    """A Siege pack text of these card tables."""
    return head + "".join(cards)


BAD = [
    ("bad TOML", "[pack\ngame = 1", "bad.toml: not valid TOML: "),
    ("no [pack]", MINION.format(id="a"), "bad.toml: missing the [pack] table"),
    ("unknown game", '[pack]\ngame = "chess"\nname = "x"\n', "bad.toml [pack]: game = 'chess' is not a game"),
    ("Omphala refused", '[pack]\ngame = "omphala"\nname = "x"\n', "Omphala is played with a standard deck"),
    ("name too long", '[pack]\ngame = "ophion"\nname = "' + "x" * 40 + '"\n', "name must be 1 to 32"),
    ("unknown [pack] field", SIEGE_HEAD + "author = 1\n", "bad.toml [pack]: unknown field author"),
    ("unknown table", siege(MINION.format(id="a")) + "[decks]\n", "bad.toml: unknown field decks"),
    (
        "unknown field",
        siege(MINION.format(id="a") + "speed = 3\n"),
        "bad.toml card 1 (a): unknown field speed",
    ),
    (
        "unknown effect",
        siege(MINION.format(id="a") + '[[card.ability]]\ntype = "summon"\neffect = [{ do = "explode" }]\n'),
        "bad.toml card 1 (a) ability 1 effect 1: do = 'explode' is not one of",
    ),
    (
        "wrong type",
        siege(MINION.format(id="a").replace("attack = 2", 'attack = "2"')),
        "(a): attack must be int",
    ),
    (
        "out of the game's range",
        siege(MINION.format(id="a").replace("attack = 2", "attack = 40")),
        "bad.toml card 1 (a): attack = 40 must be from",
    ),
    ("duplicate id", siege(MINION.format(id="a"), MINION.format(id="a")), "card 2 (a): id 'a' is used twice"),
    ("clash with a base card", siege(MINION.format(id="medusa")), "(medusa): id 'medusa' is already a card"),
    ("bad id", siege(MINION.format(id="Big Guy")), "id must be 1-16 lowercase letters"),
    (
        "too many cards",
        siege(*(MINION.format(id=f"m{i}") for i in range(41))),
        "bad.toml: 41 cards; a pack holds at most 40",
    ),
    ("too big", SIEGE_HEAD + "#" * (64 * 1024), "bytes; a card pack is at most 65,536 bytes"),
    (
        "a type the pack may not add",
        siege('[[card]]\nid = "zz"\nname = "Z"\ntype = "commander"\nhealth = 20\ntext = ""\n'),
        "a pack adds minions and spells only",
    ),
    (
        "Ophelia pack without a deck",
        '[pack]\ngame = "ophelia"\nname = "x"\n[[card]]\nid = "zz"\nname = "Z"\nfaction = "crown"\n'
        'type = "character"\npower = 2\ninitiative = 2\nlife = 2\n',
        "no [decks.ID] table",
    ),
    (
        "Ophion ability text",
        '[pack]\ngame = "ophion"\nname = "x"\n[cards.zz]\nname = "Z"\ntype = "monster"\ncost = 3\nsize = 2\n'
        'attack = 2\ndefense = 2\ntier = 1\ncount = 2\nability = "Eats dragons"\n',
        "bad.toml [cards.zz]: ability is text only the game's own cards carry",
    ),
]


@pytest.mark.parametrize(("what", "text", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_malformed_pack_gets_its_precise_reason(what: str, text: str, message: str) -> None:
    """Every error names the file, the card and the field, and says why."""
    with pytest.raises(CardDataError) as e:
        packs.read(text, "bad.toml")
    assert message in str(e.value), f"{what}: {e.value}"


def test_supports_and_examples() -> None:
    """Omphala, a standard 52-card deck, takes no packs and ships no example; the others do."""
    assert not packs.supports("omphala") and packs.example("omphala") is None
    assert all(packs.supports(g) and packs.example(g) is not None for g in GAMES)


def test_a_saved_ophidian_deck_may_hold_pack_cards() -> None:
    """Ophidian 2350 (RULINGS 68): the pack's deck book reads a deck with its cards; a game with the pack
    deals it, a game without the pack refuses it for a ready team, and the AI's sampled worlds deal pack
    cards to a saved deck only in a game with the pack."""
    game = get("ophidian")
    pack = example("ophidian")
    book = packs.deck_book(pack)
    assert book is not None and packs.deck_book(example("ophion")) is None
    deck = book.parse(book.example.replace("3 Railgun Burst", "3 Rivet Gun"), "Rivets")
    rivet = next(e.id for e in pack.entries if e.name == "Rivet Gun")
    assert deck["arsenal"][rivet] == 3
    with pytest.raises(ValueError, match="no card called 'Rivet Gun'"):
        get_present("ophidian").deck_book.parse(book.example.replace("3 Railgun Burst", "3 Rivet Gun"))

    s = game.setup(2, 4, {"pack": packs.option(pack, 1), "decks": [deck, None]})
    mine = s.sides[0].arsenal + s.sides[0].hand
    assert s.sides[0].custom and mine.count(rivet) == 3
    assert any(rivet in c for seed in range(5) for c in game.determinize(s, 1, seed).sides[0].arsenal)

    plain = game.setup(2, 4, {"decks": [deck, None]})
    assert "not legal now" in json.dumps(plain.log) and not plain.sides[0].custom
    tag = rivet.split(".")[1]
    mine = game.setup(2, 4, {"decks": [get_present("ophidian").deck_book.parse(book.example), None]})
    assert all(tag not in json.dumps(game.to_json(game.determinize(mine, 1, seed))) for seed in range(5))


def test_a_pack_for_another_game_is_refused() -> None:
    """A match's pack must be its own game's: setup and from_option say whose it is, and change nothing."""
    ophion = packs.option(example("ophion"), 2)
    with pytest.raises(CardDataError, match="is for ophion, not ophelia"):
        get("ophelia").setup(2, 1, {"pack": ophion})
    with pytest.raises(CardDataError, match="is for ophion, not siege_of_olympus"):
        packs.from_option("siege_of_olympus", ophion)
