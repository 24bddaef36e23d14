"""A local fake Discord (REST API v10 + gateway on 127.0.0.1) that the real, unmodified discord.py talks to.

    from tests.fakediscord import FakeDiscord, running_bot

    async with FakeDiscord() as fake:
        alice = fake.add_user("alice")                     # admin=True gives Administrator
        client = MyBot(**make_client_kwargs())             # guild_ready_timeout=0.1, default intents
        async with running_bot(client, fake):              # patches Route.BASE + gateway URL, waits READY
            ix = await fake.slash(alice, fake.channel, "play", {"game": "omphala"})
            msg = await ix.wait_reply()                    # what the bot answered (ephemeral or not)
            ix = await fake.click(alice, msg, "Join")      # or fake.select(alice, msg, ["v"])
            await ix.wait_callback()
            fake.visible(alice, fake.channel)              # public messages + alice's ephemerals

State survives client restarts (close the client, start a new one against the same fake), so persistent
buttons sent before a restart can be pressed after it. Fixtures `fake` and `error_logs` live in
`tests.fakediscord.fixtures`.
"""

from .client import (
    BotRunner,
    ErrorLogCapture,
    capture_error_logs,
    make_client_kwargs,
    pointed_at,
    running_bot,
    start_client,
)
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
)
from .server import ApiError, FakeDiscord, FakeTimeout

__all__ = [
    "ApiError",
    "BotRunner",
    "ErrorLogCapture",
    "FakeAttachment",
    "FakeChannel",
    "FakeCommand",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMessage",
    "FakeTimeout",
    "FakeUser",
    "capture_error_logs",
    "make_client_kwargs",
    "pointed_at",
    "running_bot",
    "start_client",
]
