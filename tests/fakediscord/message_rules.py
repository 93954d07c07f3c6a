"""Limits Discord enforces on message bodies: components, embeds, attachments."""

from __future__ import annotations

from typing import Any

from .models import iter_components

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_EMBEDS_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
IS_COMPONENTS_V2 = 1 << 15
_EMBED_LIMITS = {"title": 256, "description": 4096}


def component_problems(components: list[dict[str, Any]], flags: int) -> list[str]:
    """Reasons Discord would refuse these components."""
    problems: list[str] = []
    if not flags & IS_COMPONENTS_V2:
        if len(components) > MAX_ROWS:
            problems.append(f"components: at most {MAX_ROWS} action rows")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(f"components.{i}: top level must be action rows")
                continue
            children = list(row.get("components") or [])
            kinds = {c.get("type") for c in children}
            if not children:
                problems.append(f"components.{i}: empty action row")
            if kinds - {2} and len(children) > 1:
                problems.append(f"components.{i}: a select menu must be alone in its row")
            if len(children) > MAX_BUTTONS_PER_ROW:
                problems.append(f"components.{i}: at most {MAX_BUTTONS_PER_ROW} buttons")
    seen: set[str] = set()
    for comp in iter_components(components):
        ctype = comp.get("type")
        cid = comp.get("custom_id")
        if cid is not None:
            if not 1 <= len(str(cid)) <= MAX_CUSTOM_ID:
                problems.append(f"custom_id {cid!r}: must be 1-{MAX_CUSTOM_ID} characters")
            if cid in seen:
                problems.append(f"custom_id {cid!r}: duplicated in one message")
            seen.add(str(cid))
        if ctype == 2:
            style = comp.get("style")
            if style == 5 and not comp.get("url"):
                problems.append("link button without url")
            if style not in (5, 6) and cid is None:
                problems.append("button without custom_id")
            if len(str(comp.get("label") or "")) > MAX_LABEL:
                problems.append(f"button label longer than {MAX_LABEL}")
        if ctype == 3:
            options = list(comp.get("options") or [])
            if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                problems.append(f"select {cid!r}: 1-{MAX_SELECT_OPTIONS} options")
            if len({o.get("value") for o in options}) != len(options):
                problems.append(f"select {cid!r}: duplicate option values")
    return problems


def embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    """Reasons Discord would refuse these embeds."""
    problems: list[str] = []
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in _EMBED_LIMITS.items():
            size = len(str(embed.get(key) or ""))
            total += size
            if size > limit:
                problems.append(f"embeds.{i}.{key}: at most {limit} characters")
        fields = list(embed.get("fields") or [])
        if len(fields) > 25:
            problems.append(f"embeds.{i}.fields: at most 25")
        for field in fields:
            name, value = str(field.get("name") or ""), str(field.get("value") or "")
            total += len(name) + len(value)
            if len(name) > 256 or len(value) > 1024:
                problems.append(f"embeds.{i}.fields: name <= 256, value <= 1024")
        footer = str((embed.get("footer") or {}).get("text") or "")
        author = str((embed.get("author") or {}).get("name") or "")
        total += len(footer) + len(author)
        if len(footer) > 2048 or len(author) > 256:
            problems.append(f"embeds.{i}: footer <= 2048, author <= 256")
    if total > MAX_EMBEDS_TOTAL:
        problems.append(f"embeds: more than {MAX_EMBEDS_TOTAL} characters in total")
    return problems


def upload_problems(sizes: list[int]) -> list[str]:
    """Reasons Discord would refuse these uploads (oversized files: 413, see messages)."""
    problems: list[str] = []
    if len(sizes) > MAX_FILES:
        problems.append(f"files: at most {MAX_FILES}")
    return problems


def autocomplete_problems(data: dict[str, Any]) -> list[str]:
    """Reasons Discord would refuse an autocomplete result (callback type 8)."""
    choices = data.get("choices")
    if not isinstance(choices, list):
        return ["choices: required"]
    problems = [] if len(choices) <= MAX_SELECT_OPTIONS else ["choices: at most 25"]
    for i, choice in enumerate(choices):
        name, value = choice.get("name"), choice.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(f"choices.{i}.name: must be 1-100 characters")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"choices.{i}.value: at most 100 characters")
    return problems


def modal_problems(data: dict[str, Any]) -> list[str]:
    """Reasons Discord would refuse a modal (callback type 9)."""
    problems: list[str] = []
    if not 1 <= len(str(data.get("custom_id") or "")) <= MAX_CUSTOM_ID:
        problems.append("custom_id: must be 1-100 characters")
    if not 1 <= len(str(data.get("title") or "")) <= 45:
        problems.append("title: must be 1-45 characters")
    if not 1 <= len(list(data.get("components") or [])) <= 5:
        problems.append("components: 1-5 required")
    return problems
