"""The project's copy of Discord's OpenAPI description: the part of it the fake serves.

``spec/openapi.json`` is made from Discord's whole description (discord/discord-api-spec,
MIT, licence in ``spec/LICENSE``) by :func:`extract`: every path with the names of its methods
(so a route or method Discord lacks is told apart from one the fake does not serve), and, for
each operation the fake serves, its parameters and request body with every schema they refer
to. Responses are left out: the fake checks what the bot sends. Regenerate after a new
description lands beside the checkout::

    python -m tests.fakediscord.spec_copy ../shared/discord/openapi.json

``tests/fakediscord/test_contract.py`` proves the copy equals the extraction of the whole file
whenever that file is there.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SPEC_DIR = Path(__file__).with_name("spec")
COPY = SPEC_DIR / "openapi.json"
#: Discord's whole description as laid beside a checkout (``DISCORD_OPENAPI`` names another)
WHOLE = Path(
    os.environ.get("DISCORD_OPENAPI")
    or Path(__file__).resolve().parents[2].parent / "shared" / "discord" / "openapi.json"
)
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_KEPT = ("operationId", "parameters", "requestBody")


def served_routes() -> list[tuple[str, str]]:
    """(method, path template) of every REST route the fake serves, in its own naming."""
    from . import routes_app, routes_channels, routes_interactions, routes_users

    return [
        (method.lower(), path)
        for module in (routes_app, routes_channels, routes_interactions, routes_users)
        for method, path, _ in module.ROUTES
        if not path.startswith("/attachments")
    ]


def _segments_meet(served: str, described: str) -> bool:
    """Whether a path of the fake's template can be one of Discord's (a parameter on either
    side stands for any segment: the fake's ``{message_id}`` serves Discord's ``@original``)."""
    ours, theirs = served.strip("/").split("/"), described.strip("/").split("/")
    return len(ours) == len(theirs) and all(
        a == b or a.startswith("{") or b.startswith("{") for a, b in zip(ours, theirs, strict=True)
    )


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def extract(whole: dict[str, Any], served: list[tuple[str, str]]) -> dict[str, Any]:
    """The part of Discord's description the fake needs (see the module's docstring)."""
    paths: dict[str, Any] = {}
    for template, item in whole["paths"].items():
        kept: dict[str, Any] = {}
        serves_one = False
        for method, operation in item.items():
            if method not in METHODS:
                continue
            if any(m == method and _segments_meet(p, template) for m, p in served):
                kept[method] = {k: operation[k] for k in _KEPT if k in operation}
                serves_one = True
            else:
                kept[method] = {"operationId": operation.get("operationId")}
        if serves_one and "parameters" in item:
            kept = {"parameters": item["parameters"], **kept}
        paths[template] = kept
    components: dict[str, dict[str, Any]] = {}
    pending = list(_refs(paths))
    while pending:
        ref = pending.pop()
        _, kind, name = ref.removeprefix("#/").split("/")
        if name in components.get(kind, {}):
            continue
        schema = whole["components"][kind][name]
        components.setdefault(kind, {})[name] = schema
        pending.extend(_refs(schema))
    ordered = {
        kind: {
            name: components[kind][name]
            for name in whole["components"][kind]
            if name in components[kind]
        }
        for kind in whole["components"]
        if kind in components
    }
    head = {k: whole[k] for k in ("openapi", "info", "servers") if k in whole}
    return {**head, "paths": paths, "components": ordered}


def render(spec: dict[str, Any]) -> str:
    """The copy's text (one stable form, so a regeneration changes only what changed)."""
    return json.dumps(spec, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else WHOLE
    whole = json.loads(source.read_text(encoding="utf-8"))
    COPY.write_text(render(extract(whole, served_routes())), encoding="utf-8")
    print(f"{COPY}: {COPY.stat().st_size} bytes from {source}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
