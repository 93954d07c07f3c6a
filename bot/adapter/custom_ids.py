"""The one reader and writer of our custom_ids, and the check of every value a control carries.

``br:<game>:<version>:<action>`` is a game action button, ``brs:<game>:<version>:<n>`` a select
whose chosen value is the action, ``brl:<game>:<op>`` a lobby button, ``brv:<vote>:<choice>`` a
ballot of a table vote, ``brb:<game>`` the *I'm back* button of a player whose seat a computer
took, ``brr:<game>`` the Rematch button of a finished game and ``brp:<game>:<page>`` a page of
a game's record (``/game log``): its number from 0 (Previous/Next), or ``first``/``last``
(the jumps, distinct from Previous/Next on the pages next to the ends). A custom_id comes from
outside (any client can send any text), so every field is checked here, at the edge, before
anything reaches the service or the catalogue:

- ids and versions are plain ASCII decimals without leading zeros, at most 2^63 - 1 (what an
  SQLite integer holds);
- a select number is 0-24, a lobby op one of ``LOBBY_OPS`` (the bot levels that exist), a record
  page 0-999999, ``first`` or ``last``;
- an action code is 1-80 characters of the engines' alphabet;
- the whole custom_id is at most 100 characters (Discord's limit).

Anything else parses to ``None`` and gets the ordinary private refusal (``BadControl``).
Discord-free: no discord.py here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.service.errors import UserFacingError
from engines.bots import LEVELS

ACTION_PREFIX = "br:"
SELECT_PREFIX = "brs:"
LOBBY_PREFIX = "brl:"
VOTE_PREFIX = "brv:"
BACK_PREFIX = "brb:"
REMATCH_PREFIX = "brr:"
PAGE_PREFIX = "brp:"
PREFIXES = (
    ACTION_PREFIX,
    SELECT_PREFIX,
    LOBBY_PREFIX,
    VOTE_PREFIX,
    BACK_PREFIX,
    REMATCH_PREFIX,
    PAGE_PREFIX,
)
#: what a ballot may say (bot.service.table's choices)
VOTE_CHOICES = ("wait", "bot_turn", "bot_seat", "end", "yes", "no")

#: a record page's jumps: the first page, the last one
FIRST_PAGE, LAST_PAGE = "first", "last"
LAST = -1  # ``PageId.page`` of the last page

MAX_ID = 2**63 - 1  # SQLite's largest integer
MAX_CUSTOM_ID = 100  # Discord's limit
MAX_SELECTS = 25
MAX_TYPED = 100  # a move typed into /game move
LOBBY_OPS = ("join", "leave", "start", "cancel", *(f"bot-{level}" for level in LEVELS))

_NUMBER = r"(?:0|[1-9][0-9]{0,18})"
_CODE = r"[a-z0-9:+\-_.]{1,80}"
_ACTION = re.compile(rf"br:(?P<gid>{_NUMBER}):(?P<ver>{_NUMBER}):(?P<act>{_CODE})", re.ASCII)
_SELECT = re.compile(rf"brs:(?P<gid>{_NUMBER}):(?P<ver>{_NUMBER}):(?P<n>[0-9]{{1,2}})", re.ASCII)
_LOBBY = re.compile(rf"brl:(?P<gid>{_NUMBER}):(?P<op>[a-z\-]{{1,12}})", re.ASCII)
_VOTE = re.compile(rf"brv:(?P<vid>{_NUMBER}):(?P<choice>[a-z_]{{1,10}})", re.ASCII)
_BACK = re.compile(rf"brb:(?P<gid>{_NUMBER})", re.ASCII)
_REMATCH = re.compile(rf"brr:(?P<gid>{_NUMBER})", re.ASCII)
_PAGE = re.compile(
    rf"brp:(?P<gid>{_NUMBER}):(?P<page>0|[1-9][0-9]{{0,5}}|{FIRST_PAGE}|{LAST_PAGE})", re.ASCII
)
_CODE_ONLY = re.compile(_CODE, re.ASCII)


class BadControl(UserFacingError):
    """A control this bot did not make (or no longer understands): nothing is done."""

    key = "error.bad_custom_id"


@dataclass(frozen=True, slots=True)
class ActionId:
    game_id: int
    version: int
    action: str


@dataclass(frozen=True, slots=True)
class SelectId:
    game_id: int
    version: int
    index: int


@dataclass(frozen=True, slots=True)
class LobbyId:
    game_id: int
    op: str


@dataclass(frozen=True, slots=True)
class VoteId:
    vote_id: int
    choice: str


@dataclass(frozen=True, slots=True)
class BackId:
    game_id: int


@dataclass(frozen=True, slots=True)
class RematchId:
    game_id: int


@dataclass(frozen=True, slots=True)
class PageId:
    game_id: int
    page: int  # from 0; ``LAST``: the last page (however many there are by then)


Control = ActionId | SelectId | LobbyId | VoteId | BackId | RematchId | PageId


def _bounded(text: str) -> int | None:
    value = int(text)
    return value if value <= MAX_ID else None


def parse(custom_id: object) -> Control | None:
    """The control a custom_id names, or None when any field is out of shape or bounds."""
    if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
        return None
    if m := _ACTION.fullmatch(custom_id):
        gid, ver = _bounded(m["gid"]), _bounded(m["ver"])
        if gid is None or ver is None:
            return None
        return ActionId(gid, ver, m["act"])
    if m := _SELECT.fullmatch(custom_id):
        gid, ver, index = _bounded(m["gid"]), _bounded(m["ver"]), int(m["n"])
        if gid is None or ver is None or index >= MAX_SELECTS:
            return None
        return SelectId(gid, ver, index)
    if m := _LOBBY.fullmatch(custom_id):
        gid = _bounded(m["gid"])
        if gid is None or m["op"] not in LOBBY_OPS:
            return None
        return LobbyId(gid, m["op"])
    if m := _VOTE.fullmatch(custom_id):
        vid = _bounded(m["vid"])
        if vid is None or m["choice"] not in VOTE_CHOICES:
            return None
        return VoteId(vid, m["choice"])
    if m := _BACK.fullmatch(custom_id):
        gid = _bounded(m["gid"])
        return None if gid is None else BackId(gid)
    if m := _REMATCH.fullmatch(custom_id):
        gid = _bounded(m["gid"])
        return None if gid is None else RematchId(gid)
    if m := _PAGE.fullmatch(custom_id):
        gid = _bounded(m["gid"])
        if gid is None:
            return None
        page = {FIRST_PAGE: 0, LAST_PAGE: LAST}.get(m["page"])
        return PageId(gid, int(m["page"]) if page is None else page)
    return None


def has_our_prefix(custom_id: object) -> bool:
    """Does ``custom_id`` claim to be one of ours (whether or not it parses)?"""
    return isinstance(custom_id, str) and custom_id.startswith(PREFIXES)


def action_code(value: object) -> str | None:
    """A select's chosen value as an action code, or None when it cannot be one."""
    if isinstance(value, str) and _CODE_ONLY.fullmatch(value):
        return value
    return None


def selected_action(values: object) -> str | None:
    """The action of a select interaction's ``values``: exactly one valid code, else None."""
    if not isinstance(values, list) or len(values) != 1:
        return None
    return action_code(values[0])


def typed_action(value: object) -> str | None:
    """A move typed into ``/game move``: text of 1-100 characters (the service reads it)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    return text if 0 < len(text) <= MAX_TYPED and text.isprintable() else None


def action_id(game_id: int, version: int, action: str) -> str:
    return f"{ACTION_PREFIX}{game_id}:{version}:{action}"


def select_id(game_id: int, version: int, index: int) -> str:
    return f"{SELECT_PREFIX}{game_id}:{version}:{index}"


def lobby_id(game_id: int, op: str) -> str:
    return f"{LOBBY_PREFIX}{game_id}:{op}"


def vote_id(vote: int, choice: str) -> str:
    return f"{VOTE_PREFIX}{vote}:{choice}"


def back_id(game_id: int) -> str:
    return f"{BACK_PREFIX}{game_id}"

def rematch_id(game_id: int) -> str:
    return f"{REMATCH_PREFIX}{game_id}"


def page_id(game_id: int, page: int | str) -> str:
    """The button showing page ``page`` (a number, ``FIRST_PAGE`` or ``LAST_PAGE``)."""
    return f"{PAGE_PREFIX}{game_id}:{page}"
