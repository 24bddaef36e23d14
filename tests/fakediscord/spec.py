"""Every request body the fake receives, checked against Discord's official OpenAPI spec (openapi.json here,
its source in openapi.SOURCE.txt), so a body real Discord would refuse is refused by the fake too.

A request (method and path) is mapped to the spec's operation, whose requestBody schema (JSON, or the
`payload_json` part of a multipart body) is checked with `jsonschema`; the `$ref`s resolve inside the spec.
Validators are built once per operation. One leniency, as Discord accepts it: discord.py sends ids as JSON
integers where the spec says a snowflake string (attachment and allowed-mention ids, a DM's recipient_id, a
reply's message_reference), so a snowflake may also be an integer of 0 to 2^64 - 1. The limits the spec
leaves out (5 action rows, 2,000 characters of content, 6,000 over all embeds, unique custom ids) are
checked in limits.py.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_FILE = Path(__file__).with_name("openapi.json")
SPEC_URI = "urn:discord-openapi"
API_PREFIX = "/api/v10"
MAX_ERRORS = 5  # errors reported per body
SCHEMAS = "#/components/schemas/"
DISPATCH = "x-fake-dispatch-on-type"  # our keyword: {type value: schema}, see _simplify
SNOWFLAKE_INTEGER = {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}  # how discord.py sends ids


def errors(method: str, path: str, body: Any, *, present: bool = True) -> list[str]:
    """What is wrong with a request body by the spec (empty when it is valid, or the request has none)."""
    operation = _operation(method.lower(), path.removeprefix(API_PREFIX))
    if operation is None:
        return [f"{method} {path}: no such operation in Discord's API"] if present else []
    validator, required = operation
    if not present:
        return ["a request body is required"] if required else []
    if validator is None:
        return ["this operation takes no request body"]
    return [_describe(e) for e in islice(validator.iter_errors(body), MAX_ERRORS)]


def _describe(error: ValidationError) -> str:
    """One line for an error: where in the body, and what is wrong (the best match inside a union)."""
    inner = best_match([error]) or error
    where = ".".join(str(p) for p in inner.absolute_path) or "body"
    message = inner.message if len(inner.message) <= 200 else inner.message[:200] + "…"
    return f"{where}: {message}"


@functools.cache
def _spec() -> dict[str, Any]:
    """The spec, with the one leniency applied (integer snowflakes) and its unions made quick to check."""
    spec = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], SNOWFLAKE_INTEGER]}
    _simplify(spec, schemas)
    _inline(spec, schemas, _recursive(schemas), set())
    return spec


def _inline(node: Any, schemas: dict[str, Any], recursive: set[str], done: set[int]) -> None:
    """Put each schema a `$ref` names in its place (the same object, not a copy), unless it contains itself:
    a reference costs a look-up on every check."""
    if id(node) in done:
        return
    done.add(id(node))
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in list(children):
        name = _ref_name(child)
        if name is not None and name not in recursive:
            child = node[key] = schemas[name]
        _inline(child, schemas, recursive, done)


def _recursive(schemas: dict[str, Any]) -> set[str]:
    """The schemas that contain themselves through references (in this spec only ErrorDetails)."""
    refs = {name: set(_refs(schema)) for name, schema in schemas.items()}
    found = set()
    for start in schemas:
        stack, seen = list(refs[start]), set()
        while stack:
            name = stack.pop()
            if name == start:
                found.add(start)
                break
            if name not in seen:
                seen.add(name)
                stack.extend(refs[name])
    return found


def _refs(node: Any) -> list[str]:
    """The names of the schemas a schema refers to."""
    if isinstance(node, list):
        return [name for item in node for name in _refs(item)]
    if not isinstance(node, dict):
        return []
    name = _ref_name(node)
    return [name] if name is not None else [n for value in node.values() for n in _refs(value)]


def _ref_name(node: Any) -> str | None:
    """The component schema a node is only a reference to, if it is."""
    if isinstance(node, dict) and len(node) == 1 and str(node.get("$ref", "")).startswith(SCHEMAS):
        return node["$ref"].removeprefix(SCHEMAS)
    return None


def _simplify(node: Any, schemas: dict[str, Any]) -> None:
    """Rewrite the spec's unions into schemas with the same verdict that are quick to check: enumerations
    written as a oneOf of constants become an `enum`, and each union of object schemas told apart by their
    `type` field (components, command options, callbacks) a dispatch on that field, one branch checked
    instead of all (a message of 25 buttons took 11 ms to check, now 2), whose errors come from the branch
    the body meant."""
    if isinstance(node, list):
        for item in node:
            _simplify(item, schemas)
        return
    if not isinstance(node, dict):
        return
    constants = node.get("oneOf")
    if isinstance(constants, list) and all(isinstance(c, dict) and "const" in c for c in constants):
        values = [c["const"] for c in constants]
        if all(set(c) <= {"const", "title", "description"} for c in constants) and _distinct(values):
            del node["oneOf"]
            node["enum"] = values
    for key in ("oneOf", "anyOf"):
        kinds = _discriminators(node.get(key), schemas)
        if kinds is not None:
            branches = node.pop(key)
            everything = [value for values in kinds for value in values]
            node.setdefault("allOf", []).append(
                {"required": ["type"], "properties": {"type": {"enum": everything}}}
            )
            node[DISPATCH] = {
                value: branch for values, branch in zip(kinds, branches, strict=True) for value in values
            }
    for value in node.values():
        _simplify(value, schemas)


def _discriminators(branches: Any, schemas: dict[str, Any]) -> list[list[Any]] | None:
    """The `type` values of each branch of a union, when every branch is a component schema that requires
    `type` and no value is in two branches; else None."""
    if not isinstance(branches, list) or len(branches) < 2:
        return None
    kinds = []
    for branch in branches:
        ref = branch.get("$ref", "") if isinstance(branch, dict) and len(branch) == 1 else ""
        target = schemas.get(ref.removeprefix(SCHEMAS), {}) if ref else {}
        values = target.get("properties", {}).get("type", {}).get("enum")
        if not values or "type" not in target.get("required", ()) or {type(v) for v in values} != {int}:
            return None
        kinds.append(values)
    return kinds if _distinct([value for values in kinds for value in values]) else None


def _distinct(values: list[Any]) -> bool:
    """Whether no two values are equal (True and 1 count as different, as JSON Schema has them)."""
    return len({(type(v), v) for v in values}) == len(values)


def _dispatch(
    validator: Any, branches: dict[Any, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """Check an object against the branch of a union its `type` field names (our keyword DISPATCH)."""
    kind = instance.get("type") if isinstance(instance, dict) else None
    if isinstance(kind, int) and not isinstance(kind, bool) and kind in branches:
        yield from validator.descend(instance, branches[kind])


Validator = validators.extend(Draft202012Validator, {DISPATCH: _dispatch})


@functools.cache
def _registry() -> Registry:
    return Registry().with_resource(SPEC_URI, DRAFT202012.create_resource(_spec()))


@functools.cache
def _templates() -> list[tuple[re.Pattern[str], str]]:
    """The spec's path templates as patterns, the most literal first (`messages/@original` before
    `messages/{message_id}`)."""
    found = []
    for template in sorted(_spec()["paths"], key=lambda t: t.count("{")):
        parts = ("[^/]+" if part.startswith("{") else re.escape(part) for part in template.split("/"))
        found.append((re.compile("/".join(parts)), template))
    return found


@functools.lru_cache(maxsize=4096)
def _template(path: str) -> str | None:
    return next((t for pattern, t in _templates() if pattern.fullmatch(path)), None)


def _operation(method: str, path: str) -> tuple[Any, bool] | None:
    """The validator of an operation's request body (None: it takes none) and whether a body is required;
    None when the spec has no such operation."""
    template = _template(path)
    if template is None or method not in _spec()["paths"][template]:
        return None
    return _validator(template, method)


@functools.cache
def _validator(template: str, method: str) -> tuple[Any, bool]:
    request_body = _spec()["paths"][template][method].get("requestBody")
    if request_body is None:
        return None, False
    content = request_body["content"]
    kind = "application/json" if "application/json" in content else "multipart/form-data"
    pointer = "/".join(
        part.replace("~", "~0").replace("/", "~1")
        for part in ("paths", template, method, "requestBody", "content", kind, "schema")
    )
    validator = Validator({"$ref": f"{SPEC_URI}#/{pointer}"}, registry=_registry())
    return validator, bool(request_body.get("required"))
