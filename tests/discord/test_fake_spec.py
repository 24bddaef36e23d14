"""The fake Discord checks every request body against Discord's OpenAPI spec (tests/fakediscord/spec.py): an
invalid body is refused as Discord refuses it (400, 50035 Invalid Form Body) and fails the test that sent it;
the bot's own command registration is valid; the limits the spec leaves out are still the fake's."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import aiohttp
import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:  # `tests` is a namespace package: import it from the repository root
    sys.path.insert(0, ROOT)

from tests.discord_harness import Harness  # noqa: E402
from tests.fakediscord import FakeDiscord, spec  # noqa: E402

pytest_plugins = ("pytester",)

INVALID_FORM_BODY = 50035
BUTTON = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}


def _command(max_value: int) -> dict[str, Any]:
    """A slash command with one integer option bounded by max_value (as /game replay's match id)."""
    option = {"type": 4, "name": "id", "description": "The match", "min_value": 1, "max_value": max_value}
    return {"name": "replay", "description": "Replay a match", "options": [option]}


def _commands_path(fake: FakeDiscord) -> str:
    return f"/api/v10/applications/{fake.application_id}/commands"


async def _send(fake: FakeDiscord, method: str, path: str, body: Any) -> tuple[int, dict[str, Any]]:
    """Send a JSON body to the fake as the bot; its status and answer."""
    headers = {"Authorization": f"Bot {fake.token}"}
    url = fake.api_base + path.removeprefix("/api/v10")
    async with (
        aiohttp.ClientSession(headers=headers) as session,
        session.request(method, url, json=body) as r,
    ):
        return r.status, await r.json()


# --- the spec itself ----------------------------------------------------------------------------------------


def test_a_command_option_above_2_pow_53_minus_1_is_invalid() -> None:
    path = "/api/v10/applications/1/commands"
    assert spec.errors("PUT", path, [_command(2**53 - 1)]) == []
    assert spec.errors("PUT", path, [_command(2**53)]) == [
        "0.options.0.max_value: 9007199254740992 is greater than the maximum of 9007199254740991"
    ]


def test_a_wrong_type_is_named_where_it_is() -> None:
    button = BUTTON | {"style": "1"}
    body = {"content": 5, "components": [{"type": 1, "components": [button]}]}
    found = spec.errors("POST", "/api/v10/channels/1/messages", body)
    assert "content: 5 is not of type 'string', 'null'" in found
    assert "components.0.components.0.style: '1' is not of type 'integer'" in found


def test_integer_ids_are_accepted_where_discord_py_sends_them() -> None:
    """discord.py sends attachment, mention, recipient and reply ids as integers: Discord takes them."""
    body = {
        "content": "hi",
        "allowed_mentions": {"parse": [], "users": [123, "456"], "roles": [789]},
        "attachments": [{"id": 0, "filename": "board.png"}],
        "message_reference": {"message_id": 1576022471759364821, "channel_id": 1576022471759364800},
    }
    assert spec.errors("POST", "/api/v10/channels/1/messages", body) == []
    assert spec.errors("POST", "/api/v10/users/@me/channels", {"recipient_id": 1576022466881389101}) == []
    for bad in (-1, 2**64, "12a", 1.5, True):
        wrong = body | {"allowed_mentions": {"users": [bad]}}
        assert spec.errors("POST", "/api/v10/channels/1/messages", wrong), bad


def test_every_route_the_fake_answers_with_a_body_is_in_the_spec() -> None:
    paths = {
        ("POST", "/channels/1/messages"): "/channels/{channel_id}/messages",
        (
            "PATCH",
            "/webhooks/1/t/messages/@original",
        ): "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        ("PATCH", "/webhooks/1/t/messages/9"): "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        ("POST", "/interactions/1/t/callback"): "/interactions/{interaction_id}/{interaction_token}/callback",
        (
            "PUT",
            "/applications/1/guilds/2/commands",
        ): "/applications/{application_id}/guilds/{guild_id}/commands",
    }
    for (method, path), template in paths.items():
        assert spec._template(path) == template and spec._operation(method.lower(), path) is not None
    assert spec.errors("POST", "/api/v10/nowhere", {}) == [
        "POST /api/v10/nowhere: no such operation in Discord's API"
    ]
    assert spec.errors("POST", "/api/v10/channels/1/messages/2/threads", None, present=False) == [
        "a request body is required"
    ]


# --- the fake refuses, and the test fails -------------------------------------------------------------------


async def test_an_invalid_body_is_refused_with_invalid_form_body(fake: FakeDiscord) -> None:
    status, answer = await _send(fake, "PUT", _commands_path(fake), [_command(2**53)])
    assert status == 400 and answer["code"] == INVALID_FORM_BODY and answer["message"] == "Invalid Form Body"
    assert "max_value" in str(answer["errors"]) and not fake.commands
    channel = f"/api/v10/channels/{fake.channel.id}/messages"
    status, answer = await _send(fake, "POST", channel, {"content": "x", "flags": "ephemeral"})
    assert status == 400 and answer["code"] == INVALID_FORM_BODY and "flags" in str(answer["errors"])
    assert len(fake.rejected) == 2 and "max_value" in fake.rejected[0] and "flags" in fake.rejected[1]
    fake.rejected.clear()  # refused on purpose: the fixture would fail this test otherwise


async def test_a_valid_body_passes(fake: FakeDiscord) -> None:
    status, _ = await _send(fake, "PUT", _commands_path(fake), [_command(2**53 - 1)])
    assert status == 200 and [c.name for c in fake.commands.values()] == ["replay"]
    body = {
        "content": "your turn",
        "components": [{"type": 1, "components": [BUTTON]}],
        "allowed_mentions": {"users": [123]},
    }
    status, _ = await _send(fake, "POST", f"/api/v10/channels/{fake.channel.id}/messages", body)
    assert status == 200 and fake.latest(fake.channel).content == "your turn"


async def test_a_multipart_body_is_checked_by_its_payload_json(fake: FakeDiscord) -> None:
    """Messages with files come as multipart: their payload_json part is what the spec checks."""
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"

    async def post(payload: dict[str, Any]) -> int:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(payload), content_type="application/json")
        form.add_field("files[0]", b"GIF89a", filename="replay.gif", content_type="application/octet-stream")
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession(headers=headers) as session, session.post(url, data=form) as r:
            return r.status

    gif = {"id": 0, "filename": "replay.gif", "description": "a replay"}
    assert await post({"content": "the replay", "attachments": [gif]}) == 200
    assert fake.latest(fake.channel).attachment("replay.gif").data == b"GIF89a"
    assert await post({"content": "the replay", "attachments": [{"id": "first"}]}) == 400
    assert len(fake.rejected) == 1 and "attachments.0.id" in fake.rejected[0]
    fake.rejected.clear()


def test_an_invalid_body_fails_the_test_that_sent_it(pytester: pytest.Pytester) -> None:
    """The test's own assertions pass; the `fake` fixture fails it at teardown for the refused body."""
    pytester.makeconftest(
        f"import sys\nsys.path.insert(0, {ROOT!r})\npytest_plugins = ('tests.fakediscord.fixtures',)"
    )
    pytester.makepyfile(
        test_sends=textwrap.dedent(
            """
            import aiohttp

            async def test_registers(fake):
                option = {"type": 4, "name": "id", "description": "d", "max_value": 2**53}
                url = f"{fake.api_base}/applications/{fake.application_id}/commands"
                headers = {"Authorization": f"Bot {fake.token}"}
                body = [{"name": "replay", "description": "d", "options": [option]}]
                async with aiohttp.ClientSession(headers=headers) as s, s.put(url, json=body) as r:
                    assert r.status == 400
            """
        )
    )
    result = pytester.runpytest_inprocess(
        "-p",
        "no:cacheprovider",
        "-o",
        "asyncio_mode=auto",
        "-o",
        "asyncio_default_fixture_loop_scope=function",
    )
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*Discord would have refused*max_value*9007199254740992*"])


# --- the bot's own requests ---------------------------------------------------------------------------------


async def test_the_bots_command_registration_is_valid(fake: FakeDiscord, tmp_path: Path) -> None:
    """Every command the bot registers passes the spec (MAX_MATCH_ID = 2**53 made Discord refuse them all)."""
    async with Harness.started(fake, tmp_path):
        assert not fake.rejected, fake.rejected
        commands = [c.data for c in fake.commands.values()]
        assert {"game", "play"} <= {c["name"] for c in commands}
        assert spec.errors("PUT", _commands_path(fake), commands) == []


# --- what the spec leaves out, the fake still checks --------------------------------------------------------

ROW = {"type": 1, "components": [BUTTON]}
OVER_LIMITS = {
    "six action rows": (
        {"components": [{"type": 1, "components": [BUTTON | {"custom_id": str(i)}]} for i in range(6)]},
        "5 action rows",
    ),
    "2,001 characters": ({"content": "x" * 2001}, "2001 > 2000"),
    "6,001 characters of embeds": (
        {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]},
        "6001 > 6000",
    ),
    "a custom id twice": ({"components": [ROW, ROW]}, "duplicate 'go'"),
}


@pytest.mark.parametrize("case", OVER_LIMITS)
async def test_limits_the_spec_leaves_out_are_refused(fake: FakeDiscord, case: str) -> None:
    body, reason = OVER_LIMITS[case]
    path = f"/api/v10/channels/{fake.channel.id}/messages"
    assert spec.errors("POST", path, body) == []  # the spec allows it: only the fake's own check refuses it
    status, answer = await _send(fake, "POST", path, body)
    assert status == 400 and answer["code"] == INVALID_FORM_BODY and reason in str(answer["errors"])
    assert len(fake.rejected) == 1
    fake.rejected.clear()
