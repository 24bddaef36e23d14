"""/deck save|list|show|delete: people's saved decks, for the games whose presentation has a deck builder
(`DeckBook`, engine/table/present.py); the lobby offers them beside the ready options (lobby.py).

/deck save opens a form (a modal, custom_id `ag:dksave:<game>`) with the deck's name and its text, filled in
with the deck of that name or the game's example. The game reads the text: a refused deck is not saved, and
the person gets every problem in the game's words with their text kept and an **Edit and try again** button
(`ag:dkedit:<game>:<name>`) that reopens the form with it. Nothing lives in memory: the form is answered by
its custom_id (AgoraBot.on_interaction) and the button reads the text back from its own message, so both
work after a restart.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.common import Rebuilt, StaticView, custom_id_of, reply, shown
from bot.discord.services import Services, guard, guarded, services_of
from bot.sessions import SessionError
from bot.sessions.decks import MAX_DECKS, NAME_MAX, DeckProblems, book_for, deck_games
from bot.store import DeckRecord
from engine.registry import games, title_of
from engine.text import printable

TEXT_MAX = 4000  # a form's paragraph input holds at most this many characters
DRAFT = "Your text"  # the title of the embed that keeps a refused deck's text
NAME_INPUT, TEXT_INPUT = "name", "deck"
MESSAGE_MAX = 2000


def _block(text: str) -> str:
    """Text in a code block people can copy (a fence inside it is broken so that the block holds)."""
    return "```\n" + text.replace("```", "'''") + "\n```"


def _unblock(text: str) -> str:
    """The text of a code block made by _block."""
    return re.sub(r"^```\n?|\n?```$", "", text.strip())


class DeckForm(discord.ui.Modal):
    """The /deck save form: the deck's name and its text. Never kept in memory: the bot answers its submit
    by the custom_id (`answer_form`), after a restart too."""

    template = re.compile(r"ag:dksave:(?P<game>[a-z0-9_]+)")

    def __init__(self, game_id: str, name: str, text: str) -> None:
        super().__init__(
            title=f"{title_of(game_id)} deck"[:45], custom_id=f"ag:dksave:{game_id}", timeout=None
        )
        self.add_item(
            discord.ui.TextInput(
                label="Name", custom_id=NAME_INPUT, default=name[:NAME_MAX] or None, max_length=NAME_MAX
            )
        )
        self.add_item(
            discord.ui.TextInput(
                label="The deck (one line each; # starts a note)",
                custom_id=TEXT_INPUT,
                style=discord.TextStyle.paragraph,
                default=text[:TEXT_MAX],
                max_length=TEXT_MAX,
            )
        )

    def is_finished(self) -> bool:
        """Always: discord.py then does not store the form (answer_form answers it by its custom_id)."""
        return True


def form_values(data: Any) -> dict[str, str]:
    """The text inputs of a submitted form, by custom_id (rows and labels walked through)."""
    out: dict[str, str] = {}

    def walk(components: Any) -> None:
        for c in components or []:
            if not isinstance(c, dict):
                continue
            if "custom_id" in c and "value" in c:
                out[str(c["custom_id"])] = str(c["value"])
            walk(c.get("components"))
            if isinstance(c.get("component"), dict):
                walk([c["component"]])

    walk((data or {}).get("components"))
    return out


def problems_embeds(e: DeckProblems, game_id: str, name: str = "") -> dict[str, Any]:
    """A refused deck as embeds: every problem (as many as fit), the person's text to copy, and a button
    that reopens the form with that text."""
    draft = _block(e.text[:TEXT_MAX]) if e.text else ""
    room = 5800 - len(draft) - len(e.title) - len(DRAFT)
    room = min(room, 4000)
    n = len(e.problems)
    intro = f"{n} problem{'s' if n != 1 else ''} to fix:\n"
    lines: list[str] = []
    for i, p in enumerate(e.problems):
        line = f"• {p}"
        if len(intro) + sum(len(x) + 1 for x in lines) + len(line) + 40 > room:
            lines.append(f"…and {n - i} more.")
            break
        lines.append(line)
    embeds = [discord.Embed(title=e.title[:256], description=intro + "\n".join(lines), color=0xEF4444)]
    kwargs: dict[str, Any] = {"embeds": embeds}
    if draft:
        embeds.append(discord.Embed(title=DRAFT, description=draft, color=0x64748B))
        kwargs["view"] = DeckEditButton.view_of(game_id, name, "Edit and try again")
    return kwargs


async def answer_problems(interaction: discord.Interaction, e: DeckProblems, game_id: str, name: str) -> None:
    """Tell a person, privately, why their deck was refused."""
    await reply(interaction, None, **problems_embeds(e, game_id, name))


async def _form_text(interaction: discord.Interaction, game_id: str, name: str) -> str:
    """What a form opens with: the saved deck of that name, else the game's example."""
    _, book = book_for(game_id)
    if name:
        saved = await services_of(interaction).store.deck(interaction.user.id, game_id, name)
        if saved is not None:
            try:
                return book.text(saved.deck)
            except (KeyError, TypeError, ValueError, AttributeError):
                pass
    return book.example


async def open_form(interaction: discord.Interaction, game_id: str, name: str) -> None:
    """/deck save: the form, filled in."""
    game, _ = book_for(game_id)
    name = " ".join(name.split())[:NAME_MAX]
    await interaction.response.send_modal(
        DeckForm(game.id, name, await _form_text(interaction, game.id, name))
    )


async def answer_form(interaction: discord.Interaction) -> bool:
    """Answer a submitted /deck save form (False if the interaction is not one)."""
    if interaction.type != discord.InteractionType.modal_submit:
        return False
    m = DeckForm.template.fullmatch(custom_id_of(interaction))
    if m is None:
        return False
    game_id = m["game"]
    values = form_values(interaction.data)
    name, text = values.get(NAME_INPUT, ""), values.get(TEXT_INPUT, "")

    async def work() -> None:
        sessions = services_of(interaction).sessions
        try:
            saved = await sessions.save_deck(interaction.user.id, game_id, name, text)
        except DeckProblems as e:
            await answer_problems(interaction, e, game_id, " ".join(name.split())[:NAME_MAX])
            return
        except SessionError as e:  # a name refused, no room left: the text is kept all the same
            refused = DeckProblems("Your deck was not saved.", [str(e)], text)
            await answer_problems(interaction, refused, game_id, " ".join(name.split())[:NAME_MAX])
            return
        count = len(await sessions.decks(interaction.user.id, game_id))
        await reply(
            interaction,
            f"✅ Saved **{shown(saved.name)}** for {title_of(game_id)} ({count} of your {MAX_DECKS}). "
            "Bring it to a game: in the lobby's menu choose *📂 One of my saved decks*. "
            "`/deck show` gives its text back.",
        )

    await guard(interaction, None, work)
    return True


class DeckEditButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ag:dkedit:(?P<game_id>[a-z0-9_]+):(?P<name>.*)",
):
    """Reopens the /deck save form: with the text kept in its own message (a refused deck), else with the
    saved deck of that name."""

    def __init__(self, game_id: str, name: str, label: str = "Edit", *, emoji: str | None = None) -> None:
        cid = f"ag:dkedit:{game_id}:{name}"[:100]
        style = discord.ButtonStyle.primary if emoji else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=style, custom_id=cid))
        self.game_id, self.name = game_id, name

    @classmethod
    def view_of(cls, game_id: str, name: str, label: str) -> StaticView:
        """A message view holding the button, as the messages show it ("✏️ Edit")."""
        view = StaticView()
        view.add_item(cls(game_id, name, label, emoji="✏️").item)
        return view

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the form."""

        async def work() -> None:
            book_for(self.game_id)
            message = interaction.message
            draft = (
                next((e.description for e in message.embeds if e.title == DRAFT), None) if message else None
            )
            text = _unblock(draft) if draft else await _form_text(interaction, self.game_id, self.name)
            await interaction.response.send_modal(DeckForm(self.game_id, self.name, text))

        await guard(interaction, None, work)


def _listing(decks: list[DeckRecord]) -> str:
    names = " · ".join(f"**{shown(d.name)}**" for d in decks)
    return f"{len(decks)} of {MAX_DECKS}: {names}" if decks else "none yet"


async def list_decks(services: Services, interaction: discord.Interaction, game_id: str | None) -> None:
    """/deck list: a person's decks, for one game or every game with decks."""
    sessions = services.sessions
    chosen = [book_for(game_id)[0]] if game_id else deck_games()
    if not chosen:
        await reply(interaction, "No game here uses decks yet.")
        return
    embed = discord.Embed(title="Your saved decks", color=0xA855F7)
    for game in chosen[:25]:
        decks = await sessions.decks(interaction.user.id, game.id)
        embed.add_field(name=game.title, value=_listing(decks)[:1024], inline=False)
    embed.set_footer(
        text="/deck show reads one · /deck save builds or changes one · /deck delete removes one"
    )
    await reply(interaction, None, embed=embed)


async def show_deck(
    services: Services, interaction: discord.Interaction, game_id: str, name: str | None
) -> None:
    """/deck show: a saved deck (or, without a name, the game's example) as text to copy, with Edit."""
    sessions = services.sessions
    game, book = book_for(game_id)
    if name:
        saved = await sessions.deck(interaction.user.id, game.id, name)
        title, text = saved.name, book.text(saved.deck)
        intro = f"**{shown(title)}** ({game.title}) — copy it, or press **Edit** to change it:"
    else:
        title, text = "", book.example
        intro = (
            f"A ready {game.title} deck to start from: copy it, change it, and save it with "
            f"`/deck save` (or press **Edit**). Your own: `/deck list`."
        )
    view = DeckEditButton.view_of(game.id, title, "Edit")
    content = f"{intro}\n{_block(text)}"
    if len(content) <= MESSAGE_MAX:
        await reply(interaction, content, view=view)
        return
    file = discord.File(io.BytesIO(text.encode()), re.sub(r"[^\w.-]+", "_", title or game.id) + ".txt")
    await reply(
        interaction, f"{intro} (in the attached file: it is too long for a message)", file=file, view=view
    )


async def delete_deck(services: Services, interaction: discord.Interaction, game_id: str, name: str) -> None:
    """/deck delete: remove a saved deck; its text is shown once more, in case."""
    sessions = services.sessions
    game, book = book_for(game_id)
    gone = await sessions.delete_deck(interaction.user.id, game.id, name)
    try:
        text = _block(book.text(gone.deck))
    except (KeyError, TypeError, ValueError, AttributeError):
        text = ""
    content = f"🗑️ Deleted your {game.title} deck **{shown(gone.name)}**."
    if text and len(content) + len(text) + 60 <= MESSAGE_MAX:
        content += f" Its text, should you want it back:\n{text}"
    await reply(interaction, content)


async def game_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The games with decks whose title or id holds what was typed."""
    q = current.strip().casefold()
    return [
        app_commands.Choice(name=g.title, value=g.id)
        for g in deck_games()
        if q in g.title.casefold() or q in g.id
    ][:25]


async def deck_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The person's saved decks for the chosen game whose name holds what was typed."""
    game_id = getattr(interaction.namespace, "game", None) or ""
    if game_id not in games():
        return []
    q = current.strip().casefold()
    decks = await services_of(interaction).store.decks(interaction.user.id, game_id)
    return [
        app_commands.Choice(name=printable(d.name), value=d.name) for d in decks if q in d.name.casefold()
    ][:25]


class DeckCommands(
    app_commands.Group, name="deck", description="Your saved decks, for the games you build decks for"
):
    """/deck save, list, show and delete."""

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services

    @app_commands.command(name="save", description="Build a deck, or change one of yours (a form opens)")
    @app_commands.describe(game="Which game", name="The deck's name (one of yours to change it)")
    @app_commands.autocomplete(game=game_names, name=deck_names)
    @guarded
    async def save(self, interaction: discord.Interaction, game: str, name: str | None = None) -> None:
        """/deck save."""
        await open_form(interaction, game, name or "")

    @app_commands.command(name="list", description="Your saved decks")
    @app_commands.describe(game="Only this game (default: every game with decks)")
    @app_commands.autocomplete(game=game_names)
    @guarded
    async def listing(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """/deck list."""
        await list_decks(self.services, interaction, game)

    @app_commands.command(name="show", description="One of your decks as text to copy (no name: a ready one)")
    @app_commands.describe(game="Which game", name="Which of your decks (default: the game's ready example)")
    @app_commands.autocomplete(game=game_names, name=deck_names)
    @guarded
    async def show(self, interaction: discord.Interaction, game: str, name: str | None = None) -> None:
        """/deck show."""
        await show_deck(self.services, interaction, game, name)

    @app_commands.command(name="delete", description="Delete one of your saved decks")
    @app_commands.describe(game="Which game", name="Which of your decks")
    @app_commands.autocomplete(game=game_names, name=deck_names)
    @guarded
    async def delete(self, interaction: discord.Interaction, game: str, name: str) -> None:
        """/deck delete."""
        await delete_deck(self.services, interaction, game, name)
