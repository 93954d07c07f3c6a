"""The fairness proof: a commitment to a game's seed, shown before the first die is rolled.

Every chance outcome of a game (dice, bag draws) is drawn with ``Rng.for_step(seed, seq)``
(``engines/rng.py``, public), so whoever knows the seed can predict every one of them. The seed
therefore stays secret while the game runs; what the players see when it starts is

    SHA-256("boardroom:<game>:<game_id>:<seed>")        (UTF-8, lowercase hex)

(all 64 hex digits, in the game's first message and in its export) and when it ends the seed
itself. Anyone can then recompute the hash (it must equal the one shown
at the start, so the seed was not changed mid-game) and replay every chance step from the seed
(``boardroom verify FILE``). The game name and id in the prefix tie the commitment to one game,
so a seed cannot be reused to vouch for another.

Pure: the standard library only.
"""

from __future__ import annotations

import hashlib
import hmac

PREFIX = "boardroom"
#: what ``commitment`` hashes, as the export names it
SCHEME = "sha256(utf-8 'boardroom:<game>:<game_id>:<seed>'), lowercase hex"


def committed_text(game: str, game_id: int, seed: int) -> str:
    """The exact text that is hashed."""
    return f"{PREFIX}:{game}:{game_id}:{seed}"


def commitment(game: str, game_id: int, seed: int) -> str:
    """The full commitment: 64 lowercase hex digits."""
    return hashlib.sha256(committed_text(game, game_id, seed).encode("utf-8")).hexdigest()


def matches(game: str, game_id: int, seed: int, digest: object) -> bool:
    """Does ``digest`` (64 hex digits, as shown and exported) commit to ``seed``?"""
    if not isinstance(digest, str) or len(digest) != 64:
        return False
    return hmac.compare_digest(commitment(game, game_id, seed), digest.lower())
