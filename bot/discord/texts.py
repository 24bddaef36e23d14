"""Words for people, all from the game's own presentation (engine.table.present): summaries and rulings
(/rules), card answers and suggestions (/card), a server's card packs' cards among them. Nothing here names a
game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.discord.common import shown
from engine.registry import games
from engine.registry import get as get_game
from engine.table.present import CardEntry, card_lines, find_card, of, player_count, rulings_text, shorten
from engine.text import printable

CHOICE_MAX = 100  # Discord: an autocomplete choice's name and value are at most 100 characters
QUERY_MAX = 100  # longer than any card name: answered politely, never echoed back
CARD_TEXT_MAX = 1800  # a /card answer stays well inside a message's 2,000 characters


@dataclass(frozen=True, slots=True)
class PackCards:
    """The cards of one of a server's card packs (its latest version), as /card offers them."""

    name: str
    version: int
    entries: tuple[CardEntry, ...]

    def value(self, entry: CardEntry) -> str:
        """An autocomplete value naming one card of this pack: "<pack name>/<card id>"."""
        return f"{self.name}/{entry.id}"


Packs = Mapping[str, Sequence[PackCards]]  # a server's packs by game id


def summary(game_id: str) -> str:
    """The game's short summary, its player count and where its full rules are."""
    game = get_game(game_id)
    present = of(game)
    return f"{present.summary}\n*{player_count(game)}.* {present.rules}".strip()


def rulings(game_id: str) -> str:
    """The game's RULINGS.md (how Agora settles what the rule text leaves open), or ""."""
    return rulings_text(get_game(game_id))


def catalogue(game_id: str) -> list[CardEntry]:
    """Every card of a game ([] for an unknown game or one without distinct cards)."""
    game = games().get(game_id)
    return [] if game is None else of(game).catalogue()


def choice_name(entry: CardEntry, game_title: str = "") -> str:
    """How a card reads in the autocomplete list: "K♣ King of Clubs", or "Goblin · <game title>"."""
    name = entry.name if entry.label == entry.name else f"{entry.label} {entry.name}"
    if game_title:
        name += f" · {game_title}"
    return shorten(printable(name), CHOICE_MAX)


def card_choices(
    game_id: str | None, current: str, limit: int = 25, packs: Packs | None = None
) -> list[tuple[str, str]]:
    """(shown name, value) suggestions for /card: cards of the game whose id, name or label contains what
    was typed; every game's cards when no game is chosen yet. Cards of the same name (the two faces of one
    card) are told apart by their type ("Brakka Vohl · … Level 3/4"). A server's pack cards follow the
    game's own, each labelled with its pack ("Frost Giant · Winter pack"), valued "<pack>/<card id>"."""
    q = current.strip().casefold()[:QUERY_MAX]
    chosen = [game_id] if game_id else list(games())
    out: list[tuple[str, str]] = []
    for gid in chosen:
        title = games()[gid].title if not game_id and gid in games() else ""
        sources = [(catalogue(gid), None), *((p.entries, p) for p in (packs or {}).get(gid, ()))]
        for entries, pack in sources:
            names = Counter(choice_name(e) for e in entries)
            for e in entries:
                hit = not q or q in e.name.casefold() or q in e.label.casefold() or q == e.id.casefold()
                value = e.id if pack is None else pack.value(e)
                if hit and len(value) <= CHOICE_MAX:
                    twin = names[choice_name(e)] > 1 and bool(e.type)
                    shown = replace(e, name=f"{e.name} · {e.type}", short="") if twin else e
                    if pack is not None:
                        shown = replace(shown, name=f"{shown.name} · {pack.name} pack")
                    out.append((choice_name(shown, title), value))
                if len(out) >= limit:
                    return out
    return out


def card_text(entry: CardEntry) -> str:
    """What a card is and does, in a few lines."""
    return shorten("\n".join(card_lines(entry, "**")), CARD_TEXT_MAX)


def card_answer(game_id: str, query: str, packs: Packs | None = None) -> str:
    """The /card reply: the card (the game's own, or one of the server's pack cards, which says its pack),
    or a short, polite word about why there is none."""
    game = games().get(game_id)
    if game is None:
        return "There is no such game; pick one from the list."
    if len(query) > QUERY_MAX:
        return "That is longer than any card name; type a few letters of it and pick from the list."
    mine = list((packs or {}).get(game_id, ()))
    pool = [(e, None) for e in of(game).catalogue()] + [(e, p) for p in mine for e in p.entries]
    if not pool:
        return f"{game.title} has no cards to look up: /rules {game.title} says how it plays."
    asked = query.strip().casefold()
    exact = next(((e, p) for e, p in pool if p is not None and p.value(e).casefold() == asked), None)
    hit = exact[0] if exact is not None else find_card([e for e, _ in pool], query)
    if hit is None:
        typed = printable(query.strip().replace("`", "'")) or "?"
        return f"{game.title} has no card called `{typed}`. Type a few letters and pick from the list."
    pack = next(p for e, p in pool if e is hit)
    by_id = {e.id: e for e, p in pool if p is pack}
    faces = [hit, *(by_id[f] for f in hit.faces if f in by_id)]  # every face of the card, the one asked first
    if pack is not None:  # a server's words, shown as written: no Markdown, no mention
        faces = [replace(f, name=shown(f.name), text=shown(f.text), short=shown(f.short)) for f in faces]
    source = (
        "" if pack is None else f"\n*From this server's card pack **{shown(pack.name)}** v{pack.version}.*"
    )
    room = (CARD_TEXT_MAX - len(source) - 2 * (len(faces) - 1)) // len(faces)
    return "\n\n".join(shorten(card_text(face), room) for face in faces) + source
