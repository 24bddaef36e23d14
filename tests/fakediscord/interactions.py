"""Building the `data` of interactions from what the bot registered: slash commands, components, modals.

Option values are checked the way Discord checks them before an interaction reaches a bot (unknown options,
missing required ones), so a test cannot invoke what no user could. What Discord enforces for the options a
bot registered (`min_value`/`max_value`, `min_length`/`max_length`, `choices`) is refused as Discord refuses
it: `InvalidOption`, a 400 Invalid Form Body (code 50035) whose field error carries Discord's own code and
words ("NUMBER_TYPE_MIN": "int value should be greater than or equal to 0."); the bot never hears of it.
`check_options=False` skips those three checks (a client that still has an older registration of the
command), to test that the bot checks the values itself too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .models import (
    DM,
    JSON,
    MESSAGE_COMPONENT,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    snowflake,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
ATTACHMENT = 11
INVALID_FORM_BODY = 50035


class InvalidOption(ValueError):
    """An option value Discord refuses: 400 Invalid Form Body (50035) with one field error, e.g.
    `data.options.0.value` [NUMBER_TYPE_MIN] "int value should be greater than or equal to 0."."""

    status, code, message = 400, INVALID_FORM_BODY, "Invalid Form Body"

    def __init__(self, field: str, error_code: str, error: str) -> None:
        super().__init__(f"Invalid Form Body\n{field}[{error_code}]: {error}")
        self.field, self.error_code, self.error = field, error_code, error

    def to_json(self) -> JSON:
        """The error body Discord answers: the field's path as nested keys down to its `_errors`."""
        errors: JSON = {"_errors": [{"code": self.error_code, "message": self.error}]}
        for key in reversed(self.field.split(".")):
            errors = {key: errors}
        return {"code": self.code, "message": self.message, "errors": errors}


def build_command_data(
    fake: FakeDiscord,
    cmd: FakeCommand,
    command: str,
    values: dict[str, Any],
    guild: FakeGuild | None,
    *,
    focused: str | None = None,
    check_options: bool = True,
) -> JSON:
    """The data of an APPLICATION_COMMAND (or, with `focused`, an autocomplete) interaction."""
    path = command.split()
    schema: list[JSON] = cmd.data.get("options", [])
    options: list[JSON] = []
    container = options
    where = "data.options"
    for name in path[1:]:
        sub = _find(schema, name, (SUB_COMMAND, SUB_COMMAND_GROUP), command)
        node: JSON = {"type": sub["type"], "name": name, "options": []}
        container.append(node)
        container = node["options"]
        schema = sub.get("options", [])
        where += ".0.options"
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        raise ValueError(f"/{command} needs a subcommand: {[o['name'] for o in schema]}")
    resolved: dict[str, dict[str, JSON]] = {}
    for name, value in values.items():
        spec = _find(schema, name, None, command)
        if name == focused:
            container.append({"type": spec["type"], "name": name, "value": str(value), "focused": True})
        else:
            out = _convert(fake, spec, value, resolved, guild)
            if check_options:  # while typing into another option (autocomplete), only the choices
                _check_value(spec, out, f"{where}.{len(container)}.value", limits=focused is None)
            container.append({"type": spec["type"], "name": name, "value": out})
    if focused is None:
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
        if missing:
            raise ValueError(f"/{command} is missing required options {missing}")
    data: JSON = {"id": str(cmd.id), "name": path[0], "type": cmd.data.get("type", 1), "options": options}
    if resolved:
        data["resolved"] = resolved
    if cmd.guild_id is not None:
        data["guild_id"] = str(cmd.guild_id)
    return data


def _find(schema: list[JSON], name: str, types: tuple[int, ...] | None, command: str) -> JSON:
    for option in schema:
        if option["name"] == name and (types is None or option["type"] in types):
            return option
    raise ValueError(f"/{command} has no option {name!r}; it has {[o['name'] for o in schema]}")


def _convert(
    fake: FakeDiscord, spec: JSON, value: Any, resolved: dict[str, dict[str, JSON]], guild: FakeGuild | None
) -> Any:
    kind = spec["type"]
    if kind == STRING:
        out: Any = str(value)
    elif kind == INTEGER:
        out = int(value)
    elif kind == NUMBER:
        out = float(value)
    elif kind == BOOLEAN:
        out = bool(value)
    elif kind in (USER, MENTIONABLE) and isinstance(value, FakeUser | int) and _is_user(fake, value):
        user = value if isinstance(value, FakeUser) else fake.users[value]
        resolved.setdefault("users", {})[str(user.id)] = user.to_json()
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].to_json(permissions=guild.permissions_of(user))
            del member["user"]
            resolved.setdefault("members", {})[str(user.id)] = member
        out = str(user.id)
    elif kind == CHANNEL and isinstance(value, FakeChannel):
        data = value.to_json(fake.message_count(value.id)) | {"permissions": str(fake_perms(fake, guild))}
        resolved.setdefault("channels", {})[str(value.id)] = data
        out = str(value.id)
    elif kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.to_json()
        out = str(value.id)
    elif kind == ATTACHMENT and isinstance(value, FakeAttachment):  # a file the user attached
        fake.uploads[value.id] = value
        upload = value.upload_json(fake.url, fake.application_id)
        resolved.setdefault("attachments", {})[str(value.id)] = upload
        out = str(value.id)
    else:
        raise ValueError(f"cannot pass {value!r} as option {spec['name']!r} of type {kind}")
    return out


def _check_value(spec: JSON, value: Any, field: str, limits: bool = True) -> None:
    """Refuse, as Discord does, a value outside the option's registered choices (and range or length)."""
    choices = [c["value"] for c in spec.get("choices") or []]
    if choices and value not in choices:
        shown = ", ".join(repr(c) if isinstance(c, str) else str(c) for c in choices)
        raise InvalidOption(field, "BASE_TYPE_CHOICES", f"Value must be one of {{{shown}}}.")
    if not limits:
        return
    if spec["type"] in (INTEGER, NUMBER):
        kind = "int" if spec["type"] == INTEGER else "float"
        low, high = spec.get("min_value"), spec.get("max_value")
        if low is not None and value < low:
            raise InvalidOption(
                field, "NUMBER_TYPE_MIN", f"{kind} value should be greater than or equal to {low}."
            )
        if high is not None and value > high:
            raise InvalidOption(
                field, "NUMBER_TYPE_MAX", f"{kind} value should be less than or equal to {high}."
            )
    if spec["type"] == STRING:
        low, high = spec.get("min_length"), spec.get("max_length")
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            words = f"between {low or 0} and {high}" if high is not None else f"{low} or more"
            raise InvalidOption(field, "BASE_TYPE_BAD_LENGTH", f"Must be {words} in length.")


def _is_user(fake: FakeDiscord, value: FakeUser | int) -> bool:
    return isinstance(value, FakeUser) or value in fake.users


def fake_perms(fake: FakeDiscord, guild: FakeGuild | None) -> int:
    """The bot's permissions in a guild (used for resolved channels)."""
    return guild.permissions_of(fake.bot_user) if guild is not None else 0


def component_data(custom_id: str, component_type: int, values: list[str] | None = None) -> JSON:
    """The data of a MESSAGE_COMPONENT interaction (2 = button, 3 = string select with values).

    Only string selects carry no `resolved`: discord.py reads user/role/channel select values from it.
    """
    data: JSON = {"custom_id": custom_id, "component_type": component_type}
    if component_type != 2:
        data["values"] = list(values or [])
    return data


def modal_submit_data(modal: JSON, values: dict[str, str]) -> JSON:
    """The data of a MODAL_SUBMIT interaction: each text input of the modal with its submitted value."""
    rows: list[JSON] = []
    for row in modal.get("components", []):
        inner = row.get("components", [row.get("component")] if "component" in row else [])
        for comp in inner:
            if comp is None or "custom_id" not in comp:
                continue
            value = values.get(comp["custom_id"], comp.get("value", ""))
            rows.append(
                {"type": 1, "components": [{"type": 4, "custom_id": comp["custom_id"], "value": value}]}
            )
    unknown = set(values) - {r["components"][0]["custom_id"] for r in rows}
    if unknown:
        raise ValueError(f"modal has no text inputs {sorted(unknown)}")
    return {"custom_id": modal["custom_id"], "components": rows}


def dm_channel(fake: FakeDiscord, user: FakeUser) -> FakeChannel:
    """The direct-message channel between `user` and the bot (opened on first use, as the bot's own
    POST /users/@me/channels opens it)."""
    for channel in fake.channels.values():
        if channel.type == DM and channel.recipient is user:
            return channel
    channel = FakeChannel(snowflake(), "", type=DM, recipient=user)
    fake.channels[channel.id] = channel
    fake.messages[channel.id] = []
    return channel


async def forge_press(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, custom_id: str, values: list[str] | None = None
) -> FakeInteraction:
    """`user` presses, on `message` (any message of the bot they see: in another server, in a DM), a component
    Discord never showed there: `custom_id` (a button; a string select when `values` are given), as a
    modified client can send. The interaction carries the message's own server and channel, and the message
    as if it held that one component (discord.py dispatches a press only to a component of its message)."""
    kind = 2 if values is None else 3
    component: JSON = {"type": kind, "custom_id": custom_id}
    if values is None:
        component.update(style=1, label="forged")
    else:
        component["options"] = [{"label": v, "value": v} for v in values]
    carrier = message.snapshot()
    carrier.components = [{"type": 1, "components": [component]}]
    channel = fake.channels[message.channel_id]
    data = component_data(custom_id, kind, values)
    return await fake._interact(user, channel, MESSAGE_COMPONENT, data, message=carrier)
