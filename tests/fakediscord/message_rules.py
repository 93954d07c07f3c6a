"""Discord's documented limits on message bodies that its published description does not encode.

Discord's OpenAPI description (``contract``) is the judge of every body: lengths of content,
labels, custom ids, titles, embed parts, counts of embeds, rows' children, select options,
choices and attachments. What stays here is what a schema of the description cannot say or
does not say:

- rules that depend on another field: the ``IS_COMPONENTS_V2`` flag decides whether the top
  level holds at most 5 action rows; a button's ``style`` decides whether it needs ``url`` or
  ``custom_id``; a select menu fills its row alone;
- rules across a whole message: custom ids unique in a message, option values unique in a
  select, 6,000 characters across all embeds, at most 10 file parts (the description names
  ``files[0]`` to ``files[9]`` but allows more parts), 10 MiB a file (413);
- limits the description states more loosely than Discord's documentation: a bot's message
  content is 2,000 characters (the description's 4,000 on channel messages is a Nitro user's),
  an autocomplete string choice's value is 100 characters (the description says 6,000) and an
  autocomplete answer needs its ``choices`` (the description marks them optional).
"""

from __future__ import annotations

from typing import Any

from .models import iter_components

MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_CHOICE_VALUE = 100
MAX_EMBEDS_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
IS_COMPONENTS_V2 = 1 << 15
LINK = 5
PREMIUM = 6


def component_problems(components: list[dict[str, Any]], flags: int) -> list[str]:
    """Reasons Discord would refuse these components that no schema of its description says."""
    problems: list[str] = []
    if not flags & IS_COMPONENTS_V2:
        if len(components) > MAX_ROWS:
            problems.append(f"components: Must be {MAX_ROWS} or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(f"components.{i}: top level must be action rows")
                continue
            children = list(row.get("components") or [])
            if {c.get("type") for c in children} - {2} and len(children) > 1:
                problems.append(f"components.{i}: a select menu must be alone in its row")
    seen: set[str] = set()
    for comp in iter_components(components):
        cid = comp.get("custom_id")
        if cid is not None:
            if cid in seen:
                problems.append(f"custom_id {cid!r}: duplicated in one message")
            seen.add(str(cid))
        if comp.get("type") == 2:
            style = comp.get("style")
            if style == LINK and not comp.get("url"):
                problems.append("link button without url")
            if style not in (LINK, PREMIUM) and cid is None:
                problems.append("button without custom_id")
        if comp.get("type") == 3:
            options = list(comp.get("options") or [])
            if len({o.get("value") for o in options}) != len(options):
                problems.append(f"select {cid!r}: duplicate option values")
    return problems


def _embed_chars(embed: dict[str, Any]) -> int:
    parts = [embed.get("title"), embed.get("description")]
    parts += [(embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
    for field in embed.get("fields") or []:
        parts += [field.get("name"), field.get("value")]
    return sum(len(str(p or "")) for p in parts)


def embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    """Discord's 6,000 characters across every embed of a message."""
    if sum(map(_embed_chars, embeds)) > MAX_EMBEDS_TOTAL:
        return [f"embeds: more than {MAX_EMBEDS_TOTAL} characters in total"]
    return []


def upload_problems(sizes: list[int]) -> list[str]:
    """Reasons Discord would refuse these uploads (oversized files: 413, see messages)."""
    return [f"files: at most {MAX_FILES}"] if len(sizes) > MAX_FILES else []


def content_problems(content: Any) -> list[str]:
    """A bot's message content: at most 2,000 characters."""
    if content is not None and len(str(content)) > MAX_CONTENT:
        return [f"content: Must be {MAX_CONTENT} or fewer in length."]
    return []


def autocomplete_problems(data: dict[str, Any]) -> list[str]:
    """Reasons Discord would refuse an autocomplete result (callback type 8)."""
    choices = data.get("choices")
    if not isinstance(choices, list):
        return ["choices: This field is required"]
    return [
        f"choices.{i}.value: Must be {MAX_CHOICE_VALUE} or fewer in length."
        for i, choice in enumerate(choices)
        if isinstance(choice.get("value"), str) and len(choice["value"]) > MAX_CHOICE_VALUE
    ]
