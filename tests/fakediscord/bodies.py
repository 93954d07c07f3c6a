"""Request bodies: JSON or multipart (payload_json + files[n]) as discord.py sends them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from aiohttp import web

from .models import StoredAttachment
from .payloads import SnowflakeFactory

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")
_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_CTYPE = re.compile(r"(?im)^content-type:\s*([^\r\n;]+)")


@dataclass
class Upload:
    """One uploaded file part."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
    """Parse a JSON or multipart body into (payload, uploads by index)."""
    # the media type straight from the header: aiohttp's ``request.content_type`` runs the
    # e-mail header parser, the largest cost of a request in the load bench's fake
    ctype = request.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
    if ctype.startswith("multipart/"):
        boundary = _BOUNDARY.search(request.headers.get("Content-Type", ""))
        if boundary is None:
            raise web.HTTPBadRequest(text="multipart body without boundary")
        return parse_multipart(await request.read(), boundary.group(1).encode())
    text = (await request.read()).decode("utf-8")  # Discord's JSON is UTF-8
    if not text.strip():
        return {}, {}
    data = json.loads(text)
    return (data if isinstance(data, dict) else {"_list": data}), {}


def parse_multipart(raw: bytes, boundary: bytes) -> tuple[dict[str, Any], dict[int, Upload]]:
    """Split a multipart/form-data body exactly (bytes are kept verbatim)."""
    payload: dict[str, Any] = {}
    uploads: dict[int, Upload] = {}
    for chunk in raw.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, body = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        body = body.removesuffix(b"\r\n")
        headers = head.decode("utf-8", "replace")
        name = _param(headers, "name") or ""
        if name == "payload_json":
            payload = json.loads(body.decode() or "{}")
            continue
        match = _FILE_FIELD.match(name)
        if match:
            idx = int(match.group(1))
            ctype = _CTYPE.search(headers)
            uploads[idx] = Upload(
                idx,
                _param(headers, "filename") or f"file{idx}",
                body,
                ctype.group(1).strip() if ctype else None,
            )
    return payload, uploads


def _param(headers: str, key: str) -> str | None:
    star = re.search(rf"\b{key}\*=(?:utf-8|UTF-8)''([^;\r\n]+)", headers)
    if star:
        return unquote(star.group(1).strip())
    plain = re.search(rf'\b{key}="([^"]*)"', headers) or re.search(rf"\b{key}=([^;\s]+)", headers)
    return plain.group(1) if plain else None


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
