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
            pack = FakeAttachment.from_upload("p.toml", data)   # a file attached to a slash command:
            await fake.slash(alice, fake.channel, "config", {"cardpack": pack})  # the bot downloads its URL

Discord's rules are kept: a callback later than 3 s fails (404 Unknown interaction; `callback_deadline=None`
opts out), an interaction token serves follow-ups and edits for 15 minutes of the fake's clock
(`fake.advance(seconds)`), `allowed_mentions` decides who a message really pings (`message.pinged(user)`,
`fake.pings(user)`), a slash-command option outside its registered choices, range or length is refused
before the bot hears of it (`InvalidOption`: 400 Invalid Form Body, 50035), files over the upload limit are
refused (`fake.upload_limit`, 10 MiB as on a server without boosts, also sent to the bot as each interaction's
attachment_size_limit: 413 Request entity too large, 40005), and the bot's channel permissions are checked
(403 Missing Permissions, 50013):

    await fake.set_permissions(fake.channel, deny=models.ATTACH_FILES)      # the bot may not attach here

Every request body is checked against Discord's official OpenAPI spec (spec.py, openapi.json): one Discord
would refuse answers 400 Invalid Form Body (50035) and is kept in `fake.rejected`, which the `fake` fixture
fails the test on; limits.py adds the documented limits the spec leaves out.

State survives client restarts (close the client, start a new one against the same fake), so persistent
buttons sent before a restart can be pressed after it. Fixtures `fake` and `error_logs` live in
`tests.fakediscord.fixtures`.
"""

from . import limits, models
from .client import (
    BotRunner,
    ErrorLogCapture,
    capture_error_logs,
    make_client_kwargs,
    pointed_at,
    quick_identify,
    running_bot,
    start_client,
)
from .interactions import InvalidOption
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeOverwrite,
    FakeUser,
)
from .server import INTERACTION_DEADLINE, TOKEN_LIFETIME, ApiError, FakeDiscord, FakeTimeout

__all__ = [
    "INTERACTION_DEADLINE",
    "TOKEN_LIFETIME",
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
    "FakeOverwrite",
    "FakeTimeout",
    "FakeUser",
    "InvalidOption",
    "capture_error_logs",
    "limits",
    "make_client_kwargs",
    "models",
    "pointed_at",
    "quick_identify",
    "running_bot",
    "start_client",
]
