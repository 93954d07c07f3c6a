"""The table's side of asynchronous play in Discord: the vote message on a player whose clock ran
out (or on ending a game its host did not end), its ballots, the *I'm back* button, and the lines
a turn message carries about clocks and stand-ins.

Votes and their results are channel messages the bot posts on its own (no interaction carries
them): each is a notice committed with its effect and posted by the timer dispatcher, retried
until it is in. A ballot is an interaction; what it changes is committed before it is answered.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord

from bot.adapter.components import button
from bot.adapter.custom_ids import BackId, VoteId, vote_id
from bot.adapter.delivery import DISCORD_FAILURES
from bot.adapter.handlers import guarded, reply_private
from bot.adapter.messages import when
from bot.adapter.outgoing import USERS_ONLY
from bot.adapter.runtime import Runtime, runtime_of
from bot.adapter.words import user_locale
from bot.service.errors import WrongChannel
from bot.service.models import GameSnapshot
from bot.service.table import (
    ABANDON_CHOICES,
    DEFAULT_ACTION,
    EXPIRY_CHOICES,
    Decision,
    VoteOver,
    voters,
)
from bot.service.vote_end import vote_end
from bot.storage.base import VoteRow
from i18n import game_title, join_list, t

log = logging.getLogger(__name__)

_STYLES = {"bot_turn": "primary", "end": "danger", "yes": "danger", "no": "secondary"}


# --------------------------------------------------------------------------- vote messages


async def vote_end_time(runtime: Runtime, vote: VoteRow) -> float | None:
    return await vote_end(runtime.service.store, vote)


def vote_view(locale: str, vote: VoteRow) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    choices = EXPIRY_CHOICES if vote.kind == "expiry" else ABANDON_CHOICES
    for choice in choices:
        view.add_item(
            button(
                vote_id(vote.id, choice),
                t(locale, f"vote.choice.{choice}"),
                _STYLES.get(choice, "secondary"),
            )
        )
    return view


async def vote_text(runtime: Runtime, locale: str, vote: VoteRow, snap: GameSnapshot) -> str:
    electorate = join_list(locale, [f"<@{u}>" for u in voters(snap, vote)])
    closes = when(await vote_end_time(runtime, vote))
    if vote.kind == "expiry" and vote.seat is not None:
        play = await runtime.table.server_play(snap.guild_id)
        default = play.default_action or DEFAULT_ACTION
        return "\n".join(
            [
                t(
                    locale,
                    "vote.expiry.title_bank" if snap.bank_hours else "vote.expiry.title",
                    player=f"<@{snap.seats[vote.seat].user_id}>",
                ),
                t(
                    locale,
                    "vote.expiry.ask",
                    voters=electorate,
                    when=closes,
                    default=t(locale, f"vote.default.{default}"),
                ),
            ]
        )
    return "\n".join(
        [
            t(
                locale,
                "vote.abandon.title",
                player=f"<@{vote.opened_by}>",
                game=game_title(locale, snap.game),
            ),
            t(locale, "vote.abandon.ask", voters=electorate, when=closes),
        ]
    )


async def vote_messages_after_downtime(
    client: Any,
    runtime: Runtime,
    vote_ids: Iterable[int],
    pace: Callable[[], Awaitable[None]],
) -> None:
    """After downtime: the message of each open vote whose end got a grace period names the new
    end (its text is written anew, its buttons stay). Best effort, like boards: a message that
    cannot be edited keeps its old time, and the vote still ends at the new one."""
    for vote_id_ in vote_ids:
        try:
            vote = await runtime.service.store.vote(vote_id_)
            if vote is None or vote.outcome is not None or vote.message_id is None:
                continue  # decided meanwhile, or its message is still to be posted
            snap = await runtime.service.game(vote.game_id)
            locale = await client.guild_locale(snap.guild_id)
            text = await vote_text(runtime, locale, vote, snap)
            channel_id = vote.channel_id or snap.channel_id
            channel = client.get_partial_messageable(channel_id, guild_id=snap.guild_id)
            await pace()
            await channel.get_partial_message(vote.message_id).edit(
                content=text, allowed_mentions=USERS_ONLY
            )
        except DISCORD_FAILURES as exc:
            log.info("vote message not updated: %r", exc, extra={"vote_id": vote_id_})
        except Exception:
            log.exception("vote message not updated", extra={"vote_id": vote_id_})


def result_text(locale: str, decision: Decision, *, by_default: bool = False) -> str:
    vote, snap, outcome = decision.vote, decision.game, decision.outcome or ""
    player = snap.seats[vote.seat].name if vote.seat is not None else ""
    if vote.kind == "expiry" and snap.status == "active" and snap.version != vote.version:
        text = t(locale, "vote.result.moved_on", player=player)
    else:
        text = t(locale, f"vote.result.{outcome}", player=player, when=when(snap.deadline))
    return "\n".join([t(locale, "vote.by_default"), text]) if by_default else text


# --------------------------------------------------------------------------- interactions


async def on_ballot(interaction: discord.Interaction, control: VoteId) -> None:
    await guarded(interaction, _ballot(interaction, control))


async def on_back(interaction: discord.Interaction, control: BackId) -> None:
    """The *I'm back* button: the player takes their seat back from the computer."""
    await guarded(interaction, reclaim(interaction, control.game_id))


async def _ballot(interaction: discord.Interaction, control: VoteId) -> None:
    runtime = runtime_of(interaction)
    perms = interaction.permissions
    vote = await runtime.service.store.vote(control.vote_id)
    if vote is not None:
        snap = await runtime.service.game(vote.game_id)
        if interaction.channel_id not in (snap.channel_id, *_parents(interaction)):
            vote = None  # a forged id of another channel's vote: as if it did not exist
    if vote is None:
        raise VoteOver()
    decision = await runtime.table.cast(
        control.vote_id,
        interaction.user.id,
        control.choice,
        can_manage=bool(perms and perms.manage_channels),
    )
    reader = user_locale(interaction)
    if decision.outcome is None:
        electorate = voters(decision.game, decision.vote)
        await reply_private(
            interaction,
            t(reader, "vote.counted", needed=len(electorate) // 2 + 1, voters=len(electorate)),
        )
        return
    # the channel hears it from the decision's notice (posted, and retried, by the timers)
    await reply_private(interaction, result_text(reader, decision))


def _parents(interaction: discord.Interaction) -> tuple[int, ...]:
    parent = getattr(interaction.channel, "parent_id", None)
    return (parent,) if parent else ()


async def reclaim(interaction: discord.Interaction, game_id: int) -> None:
    runtime = runtime_of(interaction)
    snap = await runtime.service.game(game_id)
    if interaction.channel_id not in (snap.channel_id, *_parents(interaction)):
        raise WrongChannel(channel_id=snap.channel_id)
    after = await runtime.table.reclaim(game_id, interaction.user.id)
    await reply_private(interaction, t(user_locale(interaction), "reclaim.done"))
    await runtime.delivery.show(after.id)  # the board as it is now, with their controls


async def post_vote(
    runtime: Runtime, channel: Any, locale: str, vote: VoteRow, snap: GameSnapshot
) -> int:
    """Post the vote message (returns its id)."""
    sent = await channel.send(
        await vote_text(runtime, locale, vote, snap),
        view=vote_view(locale, vote),
        allowed_mentions=USERS_ONLY,
    )
    return int(sent.id)
