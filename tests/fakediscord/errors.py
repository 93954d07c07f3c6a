"""Discord-shaped JSON error responses.

A response refusing the request's form (400 Invalid Form Body, 50006 empty message, 413) carries
its reasons under ``REFUSED``, so the fake records the request as one Discord refuses."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

INVALID_FORM_BODY = 50035
#: where a response keeps its reasons for refusing the request's form
REFUSED: web.ResponseKey[tuple[Problem, ...]] = web.ResponseKey("refused_because", tuple)
_WHERE = re.compile(r"^([\w@.\-]+): (.+)$", re.DOTALL)


@dataclass(frozen=True)
class Problem:
    """One reason Discord refuses a request: where (field path) and why (Discord's code)."""

    where: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        return f"{'.'.join(map(str, self.where)) or '(body)'}: {self.message}"

    @classmethod
    def from_text(cls, reason: str, code: str = "BASE_TYPE_INVALID") -> Problem:
        """A reason written ``field.path: why`` (or just ``why``, for the whole body)."""
        found = _WHERE.match(reason)
        if found is None:
            return cls((), code, reason)
        where = tuple(int(k) if k.isdigit() else k for k in found.group(1).split("."))
        return cls(where, code, found.group(2))


def errors_tree(problems: Iterable[Problem]) -> dict[str, Any]:
    """Discord's ``errors`` object: nested by field, each leaf holding ``_errors``."""
    tree: dict[str, Any] = {}
    for problem in problems:
        node = tree
        for key in problem.where:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return tree


def invalid_form_body(problems: Iterable[Problem]) -> dict[str, Any]:
    """The body of Discord's 400 Invalid Form Body."""
    found = list(problems)
    return {"message": "Invalid Form Body", "code": INVALID_FORM_BODY, "errors": errors_tree(found)}


def refusing(response: web.Response, problems: Iterable[Problem]) -> web.Response:
    """``response``, marked as Discord's refusal of the request's form for these reasons."""
    response[REFUSED] = tuple(problems)
    return response


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with exactly `Content-Type: application/json` (discord.py compares it verbatim)."""
    body = json.dumps(data, separators=(",", ":")).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def error(status: int, code: int, message: str) -> web.Response:
    """A JSON error body as Discord sends it."""
    return json_response({"message": message, "code": code}, status=status)


def unknown_interaction() -> web.Response:
    """404 Unknown interaction (10062): unknown, expired or late."""
    return error(404, 10062, "Unknown interaction")


def already_acknowledged() -> web.Response:
    """400 Interaction has already been acknowledged (40060)."""
    return error(400, 40060, "Interaction has already been acknowledged.")


def unknown_webhook() -> web.Response:
    """404 Unknown Webhook (10015)."""
    return error(404, 10015, "Unknown Webhook")


def unknown_message() -> web.Response:
    """404 Unknown Message (10008)."""
    return error(404, 10008, "Unknown Message")


def unknown_channel() -> web.Response:
    """404 Unknown Channel (10003)."""
    return error(404, 10003, "Unknown Channel")


def empty_message() -> web.Response:
    """400 Cannot send an empty message (50006)."""
    problem = Problem((), "EMPTY_MESSAGE", "Cannot send an empty message")
    return refusing(error(400, 50006, problem.message), [problem])


def too_large() -> web.Response:
    """413 Request entity too large (40005): a file over the upload limit."""
    problem = Problem((), "TOO_LARGE", "Request entity too large")
    return refusing(error(413, 40005, problem.message), [problem])


def invalid_form(*reasons: str) -> web.Response:
    """400 Invalid Form Body (50035), each reason written ``field.path: why``."""
    problems = [Problem.from_text(r) for r in reasons]
    return refusing(json_response(invalid_form_body(problems), status=400), problems)
