"""The contract with Discord: every request checked against Discord's published OpenAPI
description (the project's copy, ``spec/openapi.json``): the route and method exist, path
parameters and query parameters are the described ones with valid values, and the JSON body (or
a multipart body's ``payload_json`` and file parts) validates against the request body schema,
limits included. Attachment entries that name an upload index must have that file part.

A request Discord would refuse gets Discord's answer: 404 for a route Discord does not have, 405
for a method it does not take there, 400 Invalid Form Body (50035) with an ``errors`` tree for
the rest. Schemas are JSON Schema 2020-12 (OpenAPI 3.1), validated by jsonschema-rs: one
compiled validator per route and media type, made on first use (a board message validates in
about 10 µs).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import jsonschema_rs

from .bodies import parse_multipart
from .errors import Problem, invalid_form_body
from .spec_copy import COPY, METHODS

#: the pattern of Discord's SnowflakeType
SNOWFLAKE_PATTERN = "^(0|[1-9][0-9]*)$"
#: ids at or above this are snowflakes (a millisecond after Discord's epoch); below it, an
#: attachment entry's id names the index of a file part of the same request
FIRST_SNOWFLAKE = 1 << 22
_TRUE, _FALSE = ("true", "1"), ("false", "0")


@dataclass(frozen=True)
class Violation:
    """A request Discord would refuse, as the fake answered it."""

    method: str
    path: str
    route: str | None
    status: int
    problems: tuple[Problem, ...]

    def __str__(self) -> str:
        reasons = "; ".join(map(str, self.problems))
        return f"{self.method} {self.path} ({self.route or 'no such route'}) -> {self.status}: {reasons}"


@dataclass(frozen=True)
class Refusal:
    """Discord's answer to a refused request: status and JSON body."""

    status: int
    body: dict[str, Any]
    problems: tuple[Problem, ...]


def invalid_form(problems: Iterable[Problem]) -> Refusal:
    """400 Invalid Form Body, the way Discord sends it."""
    found = tuple(problems)
    return Refusal(400, invalid_form_body(found), found)


def _pointer(*parts: str) -> str:
    escaped = "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)
    return "#" + quote("/" + escaped)


def _discord_problem(error: Any, prefix: tuple[str | int, ...]) -> Problem:
    """A jsonschema-rs error as Discord words it (codes as in Discord's own answers)."""
    kind, detail = error.kind.name, error.kind.as_dict()
    where = (*prefix, *error.instance_path)
    limit = detail.get("limit")
    if kind == "required":
        return Problem((*where, detail["property"]), "BASE_TYPE_REQUIRED", "This field is required")
    if kind in ("maxLength", "maxItems", "maxProperties"):
        return Problem(where, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    if kind in ("minLength", "minItems", "minProperties"):
        return Problem(where, "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")
    if kind == "pattern" and detail.get("pattern") == SNOWFLAKE_PATTERN:
        return Problem(where, "NUMBER_TYPE_COERCE", f'Value "{error.instance}" is not snowflake.')
    if kind in ("enum", "const"):
        choices = detail.get("options", [detail.get("expected_value")])
        return Problem(where, "BASE_TYPE_CHOICES", f"Value must be one of {choices}.")
    if kind == "maximum":
        return Problem(where, "NUMBER_TYPE_MAX", f"Must be less than or equal to {limit}.")
    if kind == "minimum":
        return Problem(where, "NUMBER_TYPE_MIN", f"Must be greater than or equal to {limit}.")
    if kind in ("oneOf", "anyOf"):
        branches = getattr(error.kind, "context", None) or []
        if branches and all(len(b) == 1 and b[0].kind.name == "const" for b in branches):
            choices = [b[0].kind.as_dict().get("expected_value") for b in branches]
            return Problem(where, "BASE_TYPE_CHOICES", f"Value must be one of {choices}.")
        return Problem(where, "UNION_TYPE_CHOICES", "Value matches none of the described forms.")
    return Problem(where, "BASE_TYPE_INVALID", error.message)


def _narrowed(error: Any) -> list[Any]:
    """The errors that say why. A union's members differ by JSON type (``null`` or an object)
    or, for Discord's objects, by their ``type`` field: when exactly one member takes the value's
    kind, that member's errors are the reasons; otherwise the union's own error is."""
    context = getattr(error.kind, "context", None)
    if error.kind.name not in ("oneOf", "anyOf") or not context:
        return [error]
    here = list(error.instance_path)

    def takes_the_kind(branch: list[Any]) -> bool:
        return not any(
            (list(e.instance_path) == here and e.kind.name == "type")
            or (list(e.instance_path) == [*here, "type"] and e.kind.name in ("enum", "const"))
            for e in branch
        )

    matching = [branch for branch in context if takes_the_kind(branch)]
    if len(matching) != 1 or not matching[0]:
        return [error]
    return [found for inner in matching[0] for found in _narrowed(inner)]


def _problems(validator: Any, instance: Any, prefix: tuple[str | int, ...]) -> list[Problem]:
    return [
        _discord_problem(found, prefix)
        for error in validator.iter_errors(instance)
        for found in _narrowed(error)
    ]


def _query_value(raw: str, schema: Mapping[str, Any]) -> Any:
    """A query string value as the type its schema says (Discord reads ``1``/``true`` alike)."""
    kind = schema.get("type")
    if kind == "boolean":
        low = raw.lower()
        return True if low in _TRUE else False if low in _FALSE else raw
    if kind == "integer":
        try:
            return int(raw)
        except ValueError:
            return raw
    return raw


@dataclass
class Operation:
    """One method of one described path, with its validators made on first use."""

    contract: Contract
    template: str
    method: str
    description: dict[str, Any]
    parameters: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    _validators: dict[tuple[str, ...], Any] = field(default_factory=dict)

    def validator(self, *pointer: str) -> Any:
        """The compiled validator of the schema at ``pointer`` (inside this path's item)."""
        found = self._validators.get(pointer)
        if found is None:
            found = self.contract.compile(_pointer("paths", self.template, *pointer))
            self._validators[pointer] = found
        return found

    def _parameter_problems(
        self, where: str, values: Mapping[str, str], *, every: bool
    ) -> list[Problem]:
        problems: list[Problem] = []
        described = {name: p for (place, name), p in self.parameters.items() if place == where}
        for name, raw in values.items():
            param = described.get(name)
            if param is None:
                if every:
                    problems.append(Problem((name,), "UNKNOWN_FIELD", "Not a described parameter."))
                continue
            schema = self.contract.resolve(param.get("schema") or {})
            validator = self.validator(*param["_at"], "schema")
            value = _query_value(raw, schema)
            problems += _problems(validator, value, (name,))
        for name, param in described.items():
            if param.get("required") and name not in values:
                problems.append(Problem((name,), "BASE_TYPE_REQUIRED", "This field is required"))
        return problems

    def check(
        self,
        path_values: Mapping[str, str],
        query: Iterable[tuple[str, str]],
        content_type: str,
        raw: bytes,
    ) -> list[Problem]:
        """Every reason Discord would refuse this call of the operation (empty when valid)."""
        problems = self._parameter_problems("path", path_values, every=False)
        problems += self._parameter_problems("query", dict(query), every=True)
        if "requestBody" in self.description:
            problems += self._body_problems(content_type, raw)
        return problems

    def _body_problems(self, content_type: str, raw: bytes) -> list[Problem]:
        content = self.description["requestBody"].get("content") or {}
        media = content_type.split(";")[0].strip().lower() if raw.strip() else "application/json"
        if media not in content:
            return [Problem((), "CONTENT_TYPE_INVALID", f"Content type {media!r} not accepted.")]
        uploads: dict[int, Any] = {}
        if media == "multipart/form-data":
            payload, uploads = parse_multipart(raw, ctype_boundary(content_type).encode())
            instance: Any = {**payload, **{f"files[{i}]": "" for i in uploads}}
        else:
            try:
                instance = json.loads(raw) if raw.strip() else {}
            except ValueError:
                return [Problem((), "JSON_INVALID", "The request body contains invalid JSON.")]
        validator = self.validator(self.method.lower(), "requestBody", "content", media, "schema")
        return _problems(validator, instance, ()) + attachment_problems(instance, set(uploads))


def ctype_boundary(content_type: str) -> str:
    """The boundary of a multipart Content-Type header."""
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.lower() == "boundary":
            return value.strip('"')
    return ""


def attachment_problems(instance: Any, files: set[int]) -> list[Problem]:
    """Attachment entries that name an upload index must have that file part (Discord answers
    such a message without its file, or refuses it: either way, not what was meant)."""
    if not isinstance(instance, dict):
        return []
    problems: list[Problem] = []
    for prefix, holder in (((), instance), (("data",), instance.get("data"))):
        entries = holder.get("attachments") if isinstance(holder, dict) else None
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            try:
                index = int(entry.get("id"))
            except (AttributeError, TypeError, ValueError):
                continue  # the schema said why
            if index < FIRST_SNOWFLAKE and index not in files:
                problems.append(
                    Problem(
                        (*prefix, "attachments", i, "id"),
                        "ATTACHMENT_NOT_FOUND",
                        f"No file part files[{index}] in this request.",
                    )
                )
    return problems


def _as_discord_reads(components: dict[str, Any]) -> dict[str, Any]:
    """The description's components, with a snowflake also read from a JSON number: Discord
    takes ``"id": 0`` as it takes ``"id": "0"`` (clients send both; discord.py numbers its
    uploads so), where the description names only the string form."""
    schemas = dict(components.get("schemas") or {})
    if "SnowflakeType" in schemas:
        as_number = {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}
        schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], as_number]}
    return {**components, "schemas": schemas}


class Contract:
    """Discord's described routes, and the check of one request against them."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self._root = {
            "components": _as_discord_reads(spec.get("components", {})),
            "paths": spec["paths"],
        }
        self._routes: list[tuple[tuple[str, ...], str, dict[str, Operation]]] = []
        for template, item in spec["paths"].items():
            operations = {}
            for method, description in item.items():
                if method not in METHODS:
                    continue
                op = Operation(self, template, method.upper(), description)
                for at, param in self._parameters(template, item, method):
                    op.parameters[(param["in"], param["name"])] = {**param, "_at": at}
                operations[method.upper()] = op
            self._routes.append((tuple(template.strip("/").split("/")), template, operations))
        # a literal segment wins over a template (OpenAPI: concrete paths match first)
        self._routes.sort(key=lambda r: [s.startswith("{") for s in r[0]])

    @classmethod
    @functools.cache
    def shipped(cls) -> Contract:
        """The contract of the project's copy of Discord's description (loaded once)."""
        return cls(json.loads(COPY.read_text(encoding="utf-8")))

    def _parameters(
        self, template: str, item: dict[str, Any], method: str
    ) -> Iterable[tuple[tuple[str, ...], dict[str, Any]]]:
        for i, param in enumerate(item.get("parameters") or []):
            yield ("parameters", str(i)), param
        for i, param in enumerate(item[method].get("parameters") or []):
            yield (method, "parameters", str(i)), param

    def compile(self, ref: str) -> Any:
        """A validator of the schema ``ref`` points at, with the copy's components in reach."""
        return jsonschema_rs.Draft202012Validator({"$ref": ref, **self._root})

    def resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """A schema with its top-level ``$ref`` followed."""
        while "$ref" in schema:
            _, kind, name = str(schema["$ref"]).removeprefix("#/").split("/")
            schema = self.spec["components"][kind][name]
        return schema

    def route(self, path: str) -> tuple[str, dict[str, Operation], dict[str, str]] | None:
        """The described path ``path`` (relative to the API base) is an instance of."""
        segments = path.strip("/").split("/")
        for pattern, template, operations in self._routes:
            if len(pattern) != len(segments):
                continue
            values: dict[str, str] = {}
            for want, got in zip(pattern, segments, strict=True):
                if want.startswith("{"):
                    values[want[1:-1]] = got
                elif want != got:
                    break
            else:
                return template, operations, values
        return None

    def check(
        self,
        method: str,
        path: str,
        query: Iterable[tuple[str, str]],
        content_type: str,
        raw: bytes,
    ) -> tuple[str | None, Refusal | None]:
        """(the described route, Discord's refusal or None) for one request."""
        found = self.route(path)
        if found is None:
            problem = Problem((), "UNKNOWN_ROUTE", "Discord describes no such route.")
            return None, Refusal(404, {"message": "404: Not Found", "code": 0}, (problem,))
        template, operations, values = found
        operation = operations.get(method.upper())
        if operation is None:
            allowed = ", ".join(sorted(operations))
            problem = Problem((), "METHOD_NOT_ALLOWED", f"{template} takes {allowed}.")
            body = {"message": "405: Method Not Allowed", "code": 0}
            return template, Refusal(405, body, (problem,))
        problems = operation.check(values, query, content_type, raw)
        return template, (invalid_form(problems) if problems else None)

    def body_problems(self, method: str, path: str, body: Any) -> list[Problem]:
        """Why Discord would refuse ``body`` sent as JSON to ``method path`` (a path such as
        ``/applications/1/guilds/2/commands``): for checking a payload before it is sent."""
        _, refusal = self.check(method, path, (), "application/json", json.dumps(body).encode())
        return [] if refusal is None else list(refusal.problems)
