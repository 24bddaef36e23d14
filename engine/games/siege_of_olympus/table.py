"""Siege of Olympus's board operations: damage and healing, drawing from the shared Deck, hands, minions
entering and leaving the board, recruits, Free/Reborn/Search, summons by effect, the Agora exchange,
artifacts and Add. The effects (effects.py) and the rules (rules.py) call these; triggers are fired here."""

from __future__ import annotations

from typing import Any

from engine.abilities import resolve as kit
from engine.abilities.spec import CardSpec
from engine.core import Arg, Event, PlayerId
from engine.games.siege_of_olympus import board as b
from engine.games.siege_of_olympus.cards import (
    ARTIFACTS,
    CARDS,
    COMMANDER_HEALTH,
    EVERY,
    MAX_MINIONS,
    MINIONS,
)
from engine.games.siege_of_olympus.state import Held, Minion, SiegeState, window
from engine.table.events import emit


def seat_word(seat: int) -> str:
    """How texts name a seat: P1, P2."""
    return f"P{seat + 1}"


def _free(s: SiegeState, uid: int) -> str:
    """Take the prisoner with this uid out of Tartarus: its card."""
    m = next(x for x in s.tartarus if x.uid == uid)
    s.tartarus.remove(m)
    return m.card


class SiegeTable:
    """The board operations of the rules class (a mixin: `self` is the Siege game, the kit's Host)."""

    def card(self, cid: str) -> CardSpec:
        """A card kind by id (also the synergies' pseudo-cards)."""
        return EVERY[cid]

    def opponent(self, s: SiegeState, player: PlayerId) -> PlayerId:
        """The other player."""
        return 1 - player

    def emit(self, events: list[Event], kind: str, text: str, **args: Any) -> None:
        """An event for everyone (the effects' way to speak)."""
        emit(events, kind, text, **args)

    def _watchers(self, s: SiegeState, seat: int, but: int = 0) -> list[tuple[int, str, int]]:
        """A seat's minions that are not crippled and its artifacts, as trigger watchers."""
        out = [(m.uid, m.card, seat) for m in s.sides[seat].minions if not m.crippled and m.uid != but]
        return out + [(h.uid, ARTIFACTS[h.number].id, seat) for h in s.sides[seat].artifacts]

    # -- board operations (the effects call these) ---------------------------------------------

    def damage(self, s: SiegeState, uid: int, amount: int, events: list[Event]) -> None:
        """Damage a minion, a prisoner or a Commander (whose Health stops at 0: RULINGS 2)."""
        if amount <= 0:
            return
        seat = b.commander_of(s, uid)
        if seat is not None:
            s.sides[seat].wounds = min(COMMANDER_HEALTH, s.sides[seat].wounds + amount)
            left = COMMANDER_HEALTH - s.sides[seat].wounds
            emit(events, "wounded", f"{seat_word(seat)}'s Commander takes {amount} ({left} left)", seat=seat)
            return
        m = b.find(s, uid)
        if m is not None:
            m.damage += amount
            emit(events, "damaged", f"{CARDS[m.card].name} takes {amount} damage", uid=uid, amount=amount)

    def heal(self, s: SiegeState, uid: int, amount: int, events: list[Event]) -> None:
        """Restore Health to a minion or a Commander (never above its Health: RULINGS 2)."""
        seat = b.commander_of(s, uid)
        if seat is not None:
            side = s.sides[seat]
            healed = min(amount, side.wounds)
            side.wounds -= healed
            emit(events, "healed", f"{seat_word(seat)}'s Commander restores {healed} Health", seat=seat)
            return
        m = b.find(s, uid)
        if m is not None and m.damage:
            healed = min(amount, m.damage)
            m.damage -= healed
            emit(events, "healed", f"{CARDS[m.card].name} restores {healed} Health", uid=uid)

    def _reshuffle(self, s: SiegeState, events: list[Event], under: bool = False) -> None:
        """The Underworld shuffled to become the Deck (RULINGS 42), or, to refill Tartarus, put under a
        Deck that holds no minion (52)."""
        pile, s.underworld = s.underworld, []
        s.rng.shuffle(pile)
        text = "shuffled and put under the Deck" if under and s.deck else "shuffled to become the Deck"
        s.deck = pile + s.deck if under else pile
        emit(events, "reshuffled", f"The Underworld is {text}")

    def draw(self, s: SiegeState, player: PlayerId, amount: int, events: list[Event]) -> None:
        """Draw from the shared Deck; an empty Deck takes the Underworld shuffled (RULINGS 42)."""
        got = []
        for _ in range(amount):
            if not s.deck and s.underworld:
                self._reshuffle(s, events)
            if not s.deck:
                break
            got.append(s.deck.pop())
        if not got:
            return
        side = s.sides[player]
        side.hand = sorted(side.hand + got)
        names = ", ".join(CARDS[c].name for c in got)
        emit(events, "drew", f"{seat_word(player)} draws {len(got)}", seat=player, n=len(got))
        emit(events, "drew_cards", f"You draw {names}", to=(player,), chance=True, seat=player)

    def hand(self, s: SiegeState, player: PlayerId) -> list[str]:
        """A player's Hand."""
        return s.sides[player].hand

    def unhand(self, s: SiegeState, player: PlayerId, card: str) -> None:
        """A card leaves a Hand (it is no longer marked unsummonable there unless another copy stays)."""
        side = s.sides[player]
        side.hand.remove(card)
        if card in side.fresh and card not in side.hand:
            side.fresh.remove(card)

    def discard(self, s: SiegeState, player: PlayerId, card: str, events: list[Event]) -> None:
        """A card from Hand to the Underworld, face up."""
        self.unhand(s, player, card)
        s.underworld.append(card)
        emit(events, "discarded", f"{seat_word(player)} discards {CARDS[card].name}", seat=player, card=card)

    def defeat(self, s: SiegeState, uid: int, events: list[Event]) -> None:
        """Destroy a minion outright."""
        if b.on_board(s, uid) is not None:
            self.leave(s, uid, "destroyed", events)

    def bounce(self, s: SiegeState, uid: int, events: list[Event]) -> None:
        """Return a minion to its owner's Hand."""
        if b.on_board(s, uid) is not None:
            self.leave(s, uid, "returned", events)

    def detach(self, s: SiegeState, uid: int, events: list[Event]) -> None:
        """Siege has nothing to detach."""

    def leave(self, s: SiegeState, uid: int, how: str, events: list[Event]) -> None:
        """A minion leaves the board: to its owner's Hand when returned, else to the Underworld with the
        cards under it; "destroyed" triggers fire, also for a sacrificed minion (its own even though it has
        left: RULINGS 45, 53)."""
        m = b.on_board(s, uid)
        assert m is not None
        side = s.sides[m.owner]
        side.minions.remove(m)
        if how == "returned":
            side.hand = sorted([*side.hand, m.card])
        else:
            s.underworld.append(m.card)
        s.underworld += m.under
        s.modifiers[:] = [x for x in s.modifiers if x.owner != uid]
        emit(events, how, f"{CARDS[m.card].name} is {how}", uid=uid, card=m.card, seat=m.owner)
        if how in ("destroyed", "sacrificed"):
            if not m.crippled:
                kit.fire(self, s, "destroyed", [(uid, m.card, m.owner)], uid)
            kit.fire(self, s, "ally_destroyed", self._watchers(s, m.owner), uid)

    def _recruited(self, s: SiegeState, m: Minion, events: list[Event]) -> None:
        """A prisoner destroyed by a recruit goes to the recruiter's Hand, not summonable this turn (17)."""
        s.tartarus.remove(m)
        side = s.sides[s.active]
        side.hand = sorted([*side.hand, m.card])
        side.fresh.append(m.card)
        emit(events, "recruited", f"{seat_word(s.active)} recruits {CARDS[m.card].name}", seat=s.active)
        if not m.crippled:
            kit.fire(self, s, "destroyed", [(m.uid, m.card, 1 - s.active)], m.uid)

    def enter(self, s: SiegeState, seat: int, cid: str, events: list[Event], how: str = "summons") -> Minion:
        """A minion is summoned onto a side: its allies' and enemies' "summon" triggers fire."""
        m = Minion(s.mint(cid).uid, cid, seat, piece=CARDS[cid].stat("artifact"))
        s.sides[seat].minions.append(m)
        emit(events, "summoned", f"{seat_word(seat)} {how} {CARDS[cid].name}", seat=seat, card=cid, uid=m.uid)
        kit.fire(self, s, "ally_summoned", self._watchers(s, seat, but=m.uid), m.uid)
        kit.fire(self, s, "enemy_summoned", self._watchers(s, 1 - seat), m.uid)
        return m

    def takeable(self, s: SiegeState, zone: str, kind: str) -> list[Arg]:
        """What Free, Reborn or Search may take: prisoners by uid, cards by id."""
        if zone == "tartarus":
            return [m.uid for m in s.tartarus]
        pool = s.underworld if zone == "underworld" else s.deck
        return sorted({c for c in pool if kind == "any" or CARDS[c].type == kind})

    def take(self, s: SiegeState, player: int, zone: str, got: Arg, events: list[Event]) -> None:
        """Take a prisoner or a card to the Hand; from Tartarus or the Underworld not summonable this turn."""
        side = s.sides[player]
        if zone == "tartarus":
            cid = _free(s, int(got))
        else:
            cid = str(got)
            (s.underworld if zone == "underworld" else s.deck).remove(cid)
        side.hand = sorted([*side.hand, cid])
        if zone != "deck":
            side.fresh.append(cid)
            emit(events, "took", f"{seat_word(player)} takes {CARDS[cid].name} from {zone.capitalize()}")
        else:
            emit(events, "searched", f"{seat_word(player)} searches the Deck", seat=player)
            emit(events, "found", f"You take {CARDS[cid].name}", to=(player,), seat=player)

    def summonable(self, s: SiegeState, player: int, zone: str, max_cost: int | None) -> list[Arg]:
        """What an effect may summon ignoring cost: prisoners by uid, cards in hand by id."""
        if len(s.sides[player].minions) >= MAX_MINIONS:
            return []
        if zone == "tartarus":
            pool = [m for m in s.tartarus if max_cost is None or b.cost(m.card) <= max_cost]
            return [m.uid for m in pool]
        side = s.sides[player]
        cards = {
            c
            for c in side.hand
            if c in MINIONS and c not in side.fresh and (max_cost is None or b.cost(c) <= max_cost)
        }
        return sorted(cards)

    def summon_from(self, s: SiegeState, player: int, zone: str, got: Arg, events: list[Event]) -> None:
        """Summon by an effect: its Summon effect waits as on a window already passed (none opens: RULINGS
        48); the summoning effect then resolves it at once (`carry_out`)."""
        if zone == "tartarus":
            cid = _free(s, int(got))
        else:
            cid = str(got)
            self.unhand(s, player, cid)
        m = self.enter(s, player, cid, events)
        if CARDS[cid].of_type("summon"):  # resolved as the window would, but none opens
            s.window = window("summon", player, cid, uid=m.uid, event=m.uid, opened=True)

    def exchange(self, s: SiegeState, player: int, left: str, took: str, events: list[Event]) -> None:
        """Leave a card in the Agora and take another (RULINGS 18, 37)."""
        side = s.sides[player]
        self.unhand(s, player, left)
        s.agora.remove(took)
        s.agora.append(left)
        s.left.append(left)
        side.hand = sorted([*side.hand, took])
        emit(
            events,
            "exchanged",
            f"{seat_word(player)} leaves {CARDS[left].name} in the Agora and takes {CARDS[took].name}",
            seat=player,
        )

    def take_artifact(self, s: SiegeState, seat: int, number: int, events: list[Event], draw: bool) -> None:
        """A player takes an artifact from Olympus, and draws a card when three pieces made it (RULINGS 8)."""
        s.pile.remove(number)
        s.sides[seat].artifacts.append(Held(s.mint(ARTIFACTS[number].id).uid, number))
        emit(events, "artifact", f"{seat_word(seat)} takes {ARTIFACTS[number].name}", seat=seat, n=number)
        if draw:
            self.draw(s, seat, 1, events)

    def stick(self, s: SiegeState, player: int, m: Minion, cid: str, events: list[Event]) -> None:
        """Add: a minion card from the Hand goes under this minion (RULINGS 30)."""
        self.unhand(s, player, cid)
        m.under.append(cid)
        emit(events, "added", f"{CARDS[cid].name} is added under {CARDS[m.card].name}", uid=m.uid)
