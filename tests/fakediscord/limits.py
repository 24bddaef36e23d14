"""Discord's documented size limits, checked on what the bot sends, so a bot that would be refused by Discord
is refused by the fake too (400, code 50035 "Invalid Form Body", or 50006 for an empty message).

Only classic messages are checked in depth; a message flagged IS_COMPONENTS_V2 has its components unchecked.
"""

from __future__ import annotations

import re

from . import mentions
from .models import JSON

IS_COMPONENTS_V2 = 1 << 15
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def message_errors(body: JSON, file_count: int, *, new: bool) -> list[str]:
    """What is wrong with a message create/edit body (empty when it is acceptable)."""
    errors: list[str] = []
    content = body.get("content") or ""
    embeds = body.get("embeds") or ([body["embed"]] if body.get("embed") else [])
    components = body.get("components") or []
    if len(content) > 2000:
        errors.append(f"content: {len(content)} > 2000 characters")
    if len(embeds) > 10:
        errors.append(f"embeds: {len(embeds)} > 10")
    errors += _embed_errors(embeds)
    if not int(body.get("flags") or 0) & IS_COMPONENTS_V2:
        errors += _component_errors(components)
    if file_count > 10:
        errors.append(f"files: {file_count} > 10")
    errors += mentions.errors(body.get("allowed_mentions"))
    return errors


def is_empty(body: JSON, file_count: int) -> bool:
    """Whether a new message would have nothing to show (Discord's 'Cannot send an empty message')."""
    keys = ("content", "embeds", "embed", "components", "sticker_ids", "poll", "attachments")
    return file_count == 0 and not any(body.get(k) for k in keys)


def _embed_errors(embeds: list[JSON]) -> list[str]:
    errors: list[str] = []
    total = 0
    for i, e in enumerate(embeds):
        parts = {
            "title": (e.get("title") or "", 256),
            "description": (e.get("description") or "", 4096),
            "footer.text": ((e.get("footer") or {}).get("text") or "", 2048),
            "author.name": ((e.get("author") or {}).get("name") or "", 256),
        }
        for name, (text, limit) in parts.items():
            total += len(text)
            if len(text) > limit:
                errors.append(f"embeds[{i}].{name}: {len(text)} > {limit}")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors.append(f"embeds[{i}].fields: {len(fields)} > 25")
        for j, f in enumerate(fields):
            name, value = str(f.get("name", "")), str(f.get("value", ""))
            total += len(name) + len(value)
            if not name or len(name) > 256:
                errors.append(f"embeds[{i}].fields[{j}].name: must be 1-256 characters")
            if not value or len(value) > 1024:
                errors.append(f"embeds[{i}].fields[{j}].value: must be 1-1024 characters")
    if total > 6000:
        errors.append(f"embeds: {total} > 6000 characters in total")
    return errors


def _component_errors(rows: list[JSON]) -> list[str]:
    errors: list[str] = []
    if len(rows) > 5:
        errors.append(f"components: {len(rows)} > 5 action rows")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        where = f"components[{i}]"
        if row.get("type") != 1:
            errors.append(f"{where}: top-level components must be action rows (type 1)")
            continue
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
        if not items:
            errors.append(f"{where}: an action row needs at least one component")
        if selects and len(items) > 1:
            errors.append(f"{where}: a select menu must be alone in its row")
        if len(items) > 5:
            errors.append(f"{where}: {len(items)} > 5 components in a row")
        for j, comp in enumerate(items):
            errors += _item_errors(comp, f"{where}.components[{j}]", seen)
    return errors


def _item_errors(comp: JSON, where: str, seen: set[str]) -> list[str]:
    errors: list[str] = []
    custom_id = comp.get("custom_id")
    is_link = comp.get("type") == 2 and comp.get("style") in (5, 6)
    if custom_id is None and not is_link:
        errors.append(f"{where}.custom_id: required")
    if custom_id is not None:
        if not 1 <= len(custom_id) <= 100:
            errors.append(f"{where}.custom_id: must be 1-100 characters")
        if custom_id in seen:
            errors.append(f"{where}.custom_id: duplicate {custom_id!r}")
        seen.add(custom_id)
    if comp.get("type") == 2:
        label = comp.get("label") or ""
        if len(label) > 80:
            errors.append(f"{where}.label: {len(label)} > 80")
        if not label and not comp.get("emoji"):
            errors.append(f"{where}: a button needs a label or an emoji")
    if comp.get("type") == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.append(f"{where}.options: must be 1-25, got {len(options)}")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.append(f"{where}.options: duplicate values")
        for k, option in enumerate(options):
            for key, limit in (("label", 100), ("value", 100), ("description", 100)):
                text = option.get(key) or ""
                if len(text) > limit or (key != "description" and not text):
                    errors.append(f"{where}.options[{k}].{key}: must be 1-{limit} characters")
        if int(comp.get("max_values", 1)) > max(1, len(options)):
            errors.append(f"{where}.max_values: more than the options")
    if len(comp.get("placeholder") or "") > 150:
        errors.append(f"{where}.placeholder: > 150 characters")
    return errors


def modal_errors(data: JSON) -> list[str]:
    """What is wrong with a modal (callback type 9)."""
    errors: list[str] = []
    if not 1 <= len(data.get("title") or "") <= 45:
        errors.append("title: must be 1-45 characters")
    if not 1 <= len(data.get("custom_id") or "") <= 100:
        errors.append("custom_id: must be 1-100 characters")
    if not 1 <= len(data.get("components") or []) <= 5:
        errors.append("components: must be 1-5")
    return errors


def choices_errors(data: JSON) -> list[str]:
    """What is wrong with autocomplete choices (callback type 8)."""
    choices = data.get("choices") or []
    errors = [f"choices: {len(choices)} > 25"] if len(choices) > 25 else []
    for i, c in enumerate(choices):
        if not 1 <= len(str(c.get("name", ""))) <= 100:
            errors.append(f"choices[{i}].name: must be 1-100 characters")
    return errors


def command_errors(commands: list[JSON]) -> list[str]:
    """What is wrong with a bulk command overwrite (names, descriptions, option and choice counts)."""
    errors: list[str] = []
    if len(commands) > 100:
        errors.append(f"{len(commands)} > 100 commands")
    for cmd in commands:
        errors += _command_errors(cmd, f"/{cmd.get('name')}")
    return errors


def _command_errors(cmd: JSON, where: str) -> list[str]:
    errors: list[str] = []
    name = str(cmd.get("name", ""))
    is_chat_input = cmd.get("type", 1) in (1, None) or "description" in cmd
    if is_chat_input and (not COMMAND_NAME.match(name) or name != name.lower()):
        errors.append(f"{where}: invalid name {name!r}")
    if is_chat_input and not 1 <= len(cmd.get("description") or "") <= 100:
        errors.append(f"{where}: description must be 1-100 characters")
    options = cmd.get("options") or []
    if len(options) > 25:
        errors.append(f"{where}: {len(options)} > 25 options")
    for option in options:
        if len(option.get("choices") or []) > 25:
            errors.append(f"{where} {option.get('name')}: > 25 choices")
        if option.get("type") in (1, 2):
            errors += _command_errors(option, f"{where} {option.get('name')}")
    return errors
