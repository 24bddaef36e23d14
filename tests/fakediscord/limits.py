"""Discord's documented size limits, checked on what the bot sends, so a bot that would be refused by Discord
is refused by the fake too (400, code 50035 "Invalid Form Body", or 50006 for an empty message).

A message flagged IS_COMPONENTS_V2 (1 << 15) is laid out by its components alone: it may not carry content,
embeds, a poll or stickers; once set the flag cannot be removed by an edit, nor added to a message that still
shows content or embeds. Its components are checked as Discord documents them: the types 9 section, 10 text
display, 11 thumbnail, 12 media gallery, 13 file, 14 separator and 17 container, where each may be nested;
at most 40 components in all (nested ones, action rows and their children counted); at most 4,000
characters of text display content in the whole message; a media item's `attachment://name` names a file
of the request or an attachment the edit keeps; component ids unique.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import mentions
from .models import IS_COMPONENTS_V2, JSON

COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


V2_TYPES = frozenset({9, 10, 11, 12, 13, 14, 17})
TOP_LEVEL = frozenset({1, 9, 10, 12, 13, 14, 17})  # what a V2 message may hold at its top level
IN_CONTAINER = frozenset({1, 9, 10, 12, 13, 14})  # what a container may hold
INTERACTIVE = frozenset({2, 3, 5, 6, 7, 8})  # buttons and selects (in action rows, a button as an accessory)
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000


@dataclass(frozen=True)
class Before:
    """What an edit starts from: the message's flags, whether it has content, whether it has embeds."""

    flags: int = 0
    content: bool = False
    embeds: bool = False


def message_errors(
    body: JSON,
    file_count: int,
    *,
    new: bool,
    files: frozenset[str] = frozenset(),
    before: Before | None = None,
) -> list[str]:
    """What is wrong with a message create/edit body (empty when it is acceptable); `files` the names an
    `attachment://` URL may use, `before` the edited message."""
    errors: list[str] = []
    content = body.get("content") or ""
    embeds = body.get("embeds") or ([body["embed"]] if body.get("embed") else [])
    components = body.get("components") or []
    if len(content) > 2000:
        errors.append(f"content: {len(content)} > 2000 characters")
    if len(embeds) > 10:
        errors.append(f"embeds: {len(embeds)} > 10")
    errors += _embed_errors(embeds)
    errors += _flag_errors(body, new, before or Before())
    if _is_v2(body, before):
        errors += _v2_errors(components, files)
    else:
        errors += _component_errors(components)
    if file_count > 10:
        errors.append(f"files: {file_count} > 10")
    errors += mentions.errors(body.get("allowed_mentions"))
    return errors


def is_empty(body: JSON, file_count: int) -> bool:
    """Whether a new message would have nothing to show (Discord's 'Cannot send an empty message')."""
    keys = ("content", "embeds", "embed", "components", "sticker_ids", "poll", "attachments")
    return file_count == 0 and not any(body.get(k) for k in keys)


def _is_v2(body: JSON, before: Before | None) -> bool:
    """Whether the message is laid out by Components V2 after this request."""
    if body.get("flags") is not None:
        return bool(int(body["flags"]) & IS_COMPONENTS_V2)
    return before is not None and bool(before.flags & IS_COMPONENTS_V2)


def _flag_errors(body: JSON, new: bool, before: Before) -> list[str]:
    """The IS_COMPONENTS_V2 rules: nothing but components with it; never removed; added only to a message
    whose content and embeds the edit clears."""
    errors: list[str] = []
    v2 = _is_v2(body, None if new else before)
    was_v2 = not new and bool(before.flags & IS_COMPONENTS_V2)
    if v2:
        for key in ("content", "embeds", "embed", "poll", "sticker_ids"):
            if body.get(key):
                errors.append(f"{key}: a message with the IS_COMPONENTS_V2 flag cannot have {key}")
    if was_v2 and not v2:
        errors.append("flags: the IS_COMPONENTS_V2 flag cannot be removed from a message")
    if v2 and not new and not was_v2:
        kept = (before.content and "content" not in body) or (
            before.embeds and "embeds" not in body and "embed" not in body
        )
        if kept:
            errors.append("flags: IS_COMPONENTS_V2 cannot be set on a message with content or embeds")
    return errors


def _v2_errors(components: list[JSON], files: frozenset[str]) -> list[str]:
    """A V2 message's components: the nesting rules, the 40-component and 4,000-character limits, media
    that names the request's files, unique ids and custom_ids."""
    errors: list[str] = []
    count, text = 0, 0
    seen: set[str] = set()
    ids: set[int] = set()

    def walk(comp: JSON, where: str, allowed: frozenset[int]) -> None:
        nonlocal count, text
        count += 1
        kind = comp.get("type")
        if kind not in allowed:
            errors.append(f"{where}: a component of type {kind} is not allowed here")
            return
        if comp.get("id") is not None:
            if comp["id"] in ids:
                errors.append(f"{where}.id: duplicate {comp['id']}")
            ids.add(comp["id"])
        children = comp.get("components") or []
        if kind == 17:
            if not children:
                errors.append(f"{where}: a container needs at least one component")
            for i, child in enumerate(children):
                walk(child, f"{where}.components[{i}]", IN_CONTAINER)
        elif kind == 9:
            if not 1 <= len(children) <= 3:
                errors.append(f"{where}: a section holds 1-3 text displays")
            for i, child in enumerate(children):
                walk(child, f"{where}.components[{i}]", frozenset({10}))
            if comp.get("accessory") is None:
                errors.append(f"{where}.accessory: required")
            else:
                walk(comp["accessory"], f"{where}.accessory", frozenset({2, 11}))
        elif kind == 1:
            errors.extend(_row_errors(comp, where, seen))
            for i, child in enumerate(children):
                count += 1
                if child.get("id") is not None:
                    if child["id"] in ids:
                        errors.append(f"{where}.components[{i}].id: duplicate {child['id']}")
                    ids.add(child["id"])
        elif kind == 10:
            content = str(comp.get("content") or "")
            text += len(content)
            if not content:
                errors.append(f"{where}.content: required")
        elif kind == 12:
            items = comp.get("items") or []
            if not 1 <= len(items) <= 10:
                errors.append(f"{where}.items: must be 1-10, got {len(items)}")
            for i, item in enumerate(items):
                errors.extend(_media_errors(item, f"{where}.items[{i}]", files))
        elif kind in (11, 13):
            errors.extend(_media_errors(comp, where, files, key="media" if kind == 11 else "file"))
        elif kind == 2:
            errors.extend(_item_errors(comp, where, seen))

    for i, comp in enumerate(components):
        walk(comp, f"components[{i}]", TOP_LEVEL)
    if count > MAX_V2_COMPONENTS:
        errors.append(f"components: {count} > {MAX_V2_COMPONENTS} components in all")
    if text > MAX_V2_TEXT:
        errors.append(f"components: {text} > {MAX_V2_TEXT} characters of text display content")
    return errors


def _media_errors(item: JSON, where: str, files: frozenset[str], key: str = "media") -> list[str]:
    """A media item: a URL (an `attachment://` one names a file of the request), a description of at most
    1,024 characters."""
    errors: list[str] = []
    url = str((item.get(key) or {}).get("url") or "")
    if not url:
        errors.append(f"{where}.{key}.url: required")
    elif url.startswith("attachment://") and url.removeprefix("attachment://") not in files:
        errors.append(f"{where}.{key}.url: {url} names no attachment of the message")
    description = item.get("description")
    if description is not None and not 1 <= len(description) <= 1024:
        errors.append(f"{where}.description: must be 1-1024 characters")
    return errors


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
        errors += _row_errors(row, where, seen)
    return errors


def _row_errors(row: JSON, where: str, seen: set[str]) -> list[str]:
    """An action row: 1-5 buttons, or one select menu alone."""
    errors: list[str] = []
    items = row.get("components") or []
    selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
    if not items:
        errors.append(f"{where}: an action row needs at least one component")
    if selects and len(items) > 1:
        errors.append(f"{where}: a select menu must be alone in its row")
    if len(items) > 5:
        errors.append(f"{where}: {len(items)} > 5 components in a row")
    for j, comp in enumerate(items):
        if comp.get("type") not in INTERACTIVE:
            errors.append(f"{where}.components[{j}]: type {comp.get('type')} is not allowed in an action row")
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
