"""Request bodies: JSON or multipart (payload_json + files[n]) as discord.py sends them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .models import StoredAttachment
from .payloads import SnowflakeFactory

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")


@dataclass
class Upload:
    """One uploaded file part."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
    """Parse a JSON or multipart body into (payload, uploads by index)."""
    ctype = request.content_type or ""
    if ctype.startswith("multipart/"):
        payload: dict[str, Any] = {}
        uploads: dict[int, Upload] = {}
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            name = getattr(part, "name", None) or ""
            raw = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(raw.decode() or "{}")
                continue
            match = _FILE_FIELD.match(name)
            if match:
                idx = int(match.group(1))
                uploads[idx] = Upload(
                    idx,
                    getattr(part, "filename", None) or f"file{idx}",
                    bytes(raw),
                    part.headers.get("Content-Type"),  # type: ignore[union-attr]
                )
        return payload, uploads
    text = await request.text()
    if not text.strip():
        return {}, {}
    data = json.loads(text)
    return (data if isinstance(data, dict) else {"_list": data}), {}


def resolve_attachments(
    body: dict[str, Any],
    uploads: dict[int, Upload],
    existing: list[StoredAttachment],
    snowflakes: SnowflakeFactory,
) -> list[StoredAttachment]:
    """Compute a message's attachments from payload_json `attachments` and file parts.

    Entries naming an existing attachment id keep it; entries whose id is an upload
    index become new attachments (with the filename/description given in the entry);
    uploads nobody referenced are appended; without an `attachments` key the existing
    attachments are kept.
    """
    by_id = {a.id: a for a in existing}
    used: set[int] = set()
    result: list[StoredAttachment]
    entries = body.get("attachments")
    if entries is None:
        result = list(existing)
    else:
        result = []
        for entry in entries:
            raw_id = int(entry.get("id", -1))
            if raw_id in by_id:
                kept = by_id[raw_id]
                if "description" in entry:
                    kept.description = entry["description"]
                result.append(kept)
            elif raw_id in uploads:
                used.add(raw_id)
                up = uploads[raw_id]
                result.append(
                    StoredAttachment(
                        snowflakes.next(),
                        entry.get("filename") or up.filename,
                        up.data,
                        entry.get("description"),
                        up.content_type,
                    )
                )
    for idx in sorted(uploads):
        if idx not in used:
            up = uploads[idx]
            result.append(
                StoredAttachment(snowflakes.next(), up.filename, up.data, None, up.content_type)
            )
    return result
