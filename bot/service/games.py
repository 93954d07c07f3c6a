"""GameService: lobbies, one transaction per accepted action, chance resolution, history.

Every accepted action is applied by the engine, followed by any chance steps it opens (dice, bag
draws, drawn with ``Rng.for_step(seed, seq)``), and committed with the new state and a version
bump in one transaction before the caller gets the outcome. Rejected input raises a
``UserFacingError`` and changes nothing.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.service import errors, fairness, ratings, rest_time
from bot.service.clocks import (
    LOBBY_CLOSED_NOTICE,
    LOBBY_EXPIRY,
    TURN_TIMERS,
    TimeUnits,
    TurnClock,
    notice,
)
from bot.service.models import GameSnapshot, LoggedMove, Outcome, Seat
from bot.service.positions import Positions
from bot.service.rematch_seats import in_rematch_order
from bot.service.turns import TurnLog
from bot.storage.base import (
    GameRow,
    GameStore,
    MoveRow,
    OpenGameExists,
    SeatRow,
    Shards,
    TimerRow,
    Tx,
)
from engines import errors as rule_errors
from engines.base import CHANCE, TERMINAL, Engine
from engines.bots import LEVELS, bot_games
from engines.registry import encoding_fingerprint, game_names, get_engine
from engines.replay import replay
from engines.rng import Rng

log = logging.getLogger(__name__)

OPEN = ("lobby", "active")
#: the ``meta`` key of the engines' fingerprint the stored states were last checked against
STATES_CHECKED = "states_checked_against"


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def utc_ago(seconds: float) -> str:
    """``utc_now()`` of ``seconds`` ago (to compare with stored times)."""
    return (datetime.now(UTC) - timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


#: the channel an input came from and, for a thread, its parent (None: not from a channel)
Where = Collection[int] | None


def _check_place(row: GameRow, where: Where) -> None:
    """An input for a game counts only from the game's own channel (or a thread of it)."""
    if where is not None and row.channel_id not in where:
        raise errors.WrongChannel(channel_id=row.channel_id)


def seats_of(row: GameRow, units: TimeUnits | None = None) -> tuple[Seat, ...]:
    """The seats of a stored game (with ``units``: a time bank's holdings in hours too)."""
    start = row.clock_seconds if row.bank_cap is not None else None
    if not start:
        return tuple(
            Seat(s.seat, s.user_id, s.display_name, s.bot_level, s.stand_in) for s in row.seats
        )
    hour = units.hour if units is not None else None
    return tuple(
        Seat(
            s.seat,
            s.user_id,
            s.display_name,
            s.bot_level,
            s.stand_in,
            bank_left=s.bank_left,
            bank_hours=None if hour is None else (s.bank_left or float(start)) / hour,
        )
        for s in row.seats
    )


def _dump(engine: Engine[Any, Any], state: Any) -> str:
    return json.dumps(engine.encode_state(state), separators=(",", ":"), sort_keys=True)


class GameService:
    """Transport-agnostic game hosting used by the Discord adapter, the CLI and the tests."""

    def __init__(
        self,
        store: GameStore,
        *,
        clock: Callable[[], str] = utc_now,
        new_seed: Callable[[], int] = lambda: secrets.randbits(62),
        shards: Shards | None = None,
        turn_clock: TurnClock | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.new_seed = new_seed
        #: the gateway shards of this process: what it does on its own (recovery, the sweep,
        #: bots resumed after a restart) is limited to games of guilds on them
        self.shards = shards
        #: turn deadlines and reminders, kept in step with every commit
        self.turn_clock = turn_clock or TurnClock()
        #: the newest turns of the games shown, for their public messages (``bot.service.turns``)
        self.turn_log = TurnLog(store)
        #: the decoded state of each game's newest row, and what the engine says of it
        self.positions = Positions()

    # ----------------------------------------------------------------- reading

    def _resting_until(self, row: GameRow) -> float | None:
        """When the rest the running game's clock stands still in ends (None: not resting)."""
        if row.status != "active" or not row.rest_days or not row.clock_seconds:
            return None
        return self.turn_clock.calendar(row).resting_until(self.turn_clock.now())

    def snapshot_of(self, row: GameRow, state: Any = None) -> GameSnapshot:
        """The snapshot of a stored row (``state``: the row's state, already decoded)."""
        units = self.turn_clock.units
        bank = row.bank_cap is not None and bool(row.clock_seconds)
        position = (
            None
            if row.state_json is None
            else self.positions.of(row.id, row.game, row.state_json, state)
        )
        running = (
            position is not None
            and row.status == "active"
            and position.mover not in (CHANCE, TERMINAL)
        )
        return GameSnapshot(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game=row.game,
            host_id=row.host_id,
            status=row.status,
            version=row.version,
            capacity=row.capacity,
            options=json.loads(row.options_json),
            seats=seats_of(row, units),
            ended_by=row.ended_by,
            clock_seconds=row.clock_seconds,
            clock_hours=self.turn_clock.units.in_hours(row.clock_seconds),
            deadline=row.deadline,
            clock_left=row.clock_left,
            bank_increment=row.bank_increment if bank else None,
            bank_cap=row.bank_cap if bank else None,
            bank_hours=(
                ((row.bank_increment or 0) / units.hour, (row.bank_cap or 0) / units.hour)
                if bank
                else None
            ),
            commitment=fairness.commitment(row.game, row.id, row.seed) if row.id else "",
            # the seed predicts every die: it leaves the service only once the game is over
            revealed_seed=row.seed if row.status in ("finished", "abandoned") else None,
            rematch_of=row.rematch_of,
            rest_days=rest_time.from_stored(row.rest_days),
            rest_timezone=row.rest_timezone,
            resting_until=self._resting_until(row),
            state=position.state if position else None,
            move_count=row.move_count if position else None,
            to_move=position.mover if position and running else None,
            legal=position.legal if position and running else (),
            scores=position.scores if position else (),
            turn=position.turn if position else 0,
            winners=position.winners if position else (),
        )

    async def game(self, game_id: int) -> GameSnapshot:
        row = await self.store.load_game(game_id)
        if row is None:
            raise errors.GameNotFound(game_id=game_id)
        return self.snapshot_of(row)

    async def current(self, channel_id: int) -> GameSnapshot:
        """The open lobby or running game of a channel."""
        row = await self.store.open_game_in_channel(channel_id)
        if row is None:
            raise errors.NoActiveGame()
        return self.snapshot_of(row)

    async def last_ended(self, channel_id: int) -> GameSnapshot:
        """The channel's newest game that was played to its end or abandoned."""
        row = await self.store.last_ended_game_in_channel(channel_id)
        if row is None:
            raise errors.NoActiveGame()
        return self.snapshot_of(row)

    async def history(self, game_id: int) -> list[LoggedMove]:
        return [LoggedMove(m.seq, m.seat, m.action) for m in await self.store.moves(game_id)]

    async def verify(self, game_id: int) -> bool:
        """True when replaying the move log gives exactly the stored state."""
        snap = await self.game(game_id)
        if snap.state is None:
            return True
        engine = get_engine(snap.game)
        moves = await self.store.moves(game_id)
        rebuilt = replay(engine, len(snap.seats), snap.options, (m.action for m in moves))
        return bool(rebuilt == snap.state)

    async def upgrade_stored_states(self, *, force: bool = False) -> int:
        """Rebuild, from their move logs, the stored states an engine can no longer read
        (``OldEncoding``: saved before its encoding changed). The version stays, so the buttons
        on the boards players already see keep working. Returns how many were rebuilt.

        Reading every stored state takes long on a big database, so it is done only when the
        engines' code changed since the last full check (or with ``force``)."""
        fingerprint = encoding_fingerprint()
        if not force and await self.store.meta(STATES_CHECKED) == fingerprint:
            return 0
        rebuilt = 0
        for game_id in await self.store.games_with_state():
            row = await self.store.load_game(game_id)
            if row is None or row.state_json is None or row.game not in game_names():
                continue
            engine = get_engine(row.game)
            try:
                engine.decode_state(json.loads(row.state_json))
                continue
            except rule_errors.OldEncoding:
                pass
            moves = await self.store.moves(game_id)
            state = replay(
                engine, len(row.seats), json.loads(row.options_json), (m.action for m in moves)
            )
            async with self.store.write() as tx:
                changed = await tx.replace_state(game_id, row.version, _dump(engine, state))
            if changed:
                rebuilt += 1
                log.info("stored state rebuilt from its log", extra={"game_id": game_id})
        await self.store.set_meta(STATES_CHECKED, fingerprint)
        return rebuilt

    async def seed_of(self, game_id: int) -> int:
        row = await self.store.load_game(game_id)
        if row is None:
            raise errors.GameNotFound(game_id=game_id)
        return row.seed

    async def running_games(self) -> list[int]:
        """Ids of every game in progress (used to resume computer opponents after a restart),
        of guilds on this process's shards."""
        return await self.store.open_games(self.shards)

    async def games_with_computers(self) -> list[int]:
        """Running games where a computer plays a seat (resumed after a restart), of guilds on
        this process's shards."""
        return await self.store.running_games_with_computers(self.shards)

    async def posted_version(self, game_id: int) -> int | None:
        """The newest game version a message in the channel shows (None: nothing posted yet);
        private messages do not count."""
        return await self.store.posted_version(game_id)

    async def latest_post(self, game_id: int) -> tuple[int, int] | None:
        return await self.store.latest_post(game_id)

    async def unshown_games(self, changed_since: str | None = None) -> list[int]:
        """Games whose newest committed version the channel has not seen (``is_shown``): every
        running game, and finished ones (changed since ``changed_since``) still the newest in
        their channel. This is the durable record of "committed but not yet shown": the posts
        table remembers the version every posted message shows, and whether it was public."""
        return await self.store.unshown_games(changed_since, self.shards)

    async def is_shown(self, snap: GameSnapshot) -> bool:
        """Has the channel seen ``snap``'s version? Yes when a public message shows it (or a
        newer one), or when every version since the newest public one is a private step shown
        to its player (Harmonies and Kokeshi show a turn's steps to the mover alone; the
        channel sees the turn at its end). A private copy of a board (``/game board``) is not
        recorded, so it never stands in for the channel."""
        public = await self.store.posted_version(snap.id)
        seen = -1 if public is None else public
        if seen >= snap.version:
            return True
        private = await self.store.private_versions(snap.id, seen)
        steps = [version for version in private if version <= snap.version]
        return len(steps) == snap.version - seen

    # ----------------------------------------------------------------- lobby

    async def open_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options: Mapping[str, object] | None = None,
        players: int | None = None,
        clock_seconds: int | None = None,
        bank_increment: int | None = None,
        bank_cap: int | None = None,
        expires_after: float | None = None,
        rest_days: Iterable[int] = (),
        rest_timezone: str | None = None,
    ) -> GameSnapshot:
        """Open a lobby with the host in the first seat (``clock_seconds``: the turn clock, a
        time bank's start when ``bank_cap`` is given, with ``bank_increment`` a turn;
        ``expires_after``: seconds after which the lobby closes unless it was started;
        ``rest_days``: weekdays its clocks stand still, in ``rest_timezone``)."""
        if game not in game_names():
            raise errors.UnknownGameType(game=game, games=", ".join(game_names()))
        engine = get_engine(game)
        info = engine.info
        try:
            normal = info.normalize_options(options)
        except ValueError as exc:
            raise errors.BadOption(detail=str(exc)[:200]) from exc
        capacity = info.max_seats if players is None else players
        if type(capacity) is not int or not info.min_seats <= capacity <= info.max_seats:
            raise errors.BadOption(
                detail=f"players: {info.min_seats}-{info.max_seats}"  # numbers only, not prose
            )
        busy = await self.store.open_game_in_channel(channel_id)
        if busy is not None:
            raise await self._busy(busy)
        now = self.clock()
        row = GameRow(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            rules_version=info.rules_version,
            host_id=host_id,
            options_json=json.dumps(normal, sort_keys=True),
            capacity=capacity,
            seed=self.new_seed(),
            status="lobby",
            version=0,
            move_count=0,
            state_json=None,
            created_at=now,
            updated_at=now,
            clock_seconds=clock_seconds or None,
            bank_increment=(bank_increment or 0) if clock_seconds and bank_cap else None,
            bank_cap=bank_cap if clock_seconds and bank_cap else None,
            rest_days=rest_time.to_stored(rest_days),
            rest_timezone=rest_timezone if rest_days else None,
        )
        try:
            async with self.store.write() as tx:
                game_id = await tx.insert_game(row)
                await tx.set_seats(game_id, [SeatRow(0, host_id, host_name)])
                lobby = await self._reread(tx, game_id)
                if expires_after:
                    await self.turn_clock.add(
                        tx,
                        TimerRow(
                            id=0,
                            due=self.turn_clock.now() + expires_after,
                            kind=LOBBY_EXPIRY,
                            game_id=game_id,
                            guild_id=guild_id,
                        ),
                    )
        except OpenGameExists:
            busy = await self.store.open_game_in_channel(channel_id)
            raise (await self._busy(busy)) if busy else errors.ChannelBusy() from None
        log.info("lobby opened", extra={"game_id": game_id, "channel_id": channel_id})
        return lobby

    async def _busy(self, row: GameRow) -> errors.ChannelBusy:
        post = await self.store.latest_post(row.id)
        return errors.ChannelBusy(
            game_id=row.id,
            game=row.game,
            guild_id=row.guild_id,
            channel_id=post[0] if post else row.channel_id,
            message_id=post[1] if post else None,
        )

    async def join(
        self, game_id: int, user_id: int, name: str, *, where: Where = None
    ) -> GameSnapshot:
        return await self._edit_lobby(game_id, user_id, name, "join", where=where)

    async def leave(self, game_id: int, user_id: int, *, where: Where = None) -> GameSnapshot:
        return await self._edit_lobby(game_id, user_id, "", "leave", where=where)

    async def add_bot(
        self, game_id: int, user_id: int, level: str, name: str, *, where: Where = None
    ) -> GameSnapshot:
        """Seat a computer opponent (host only)."""
        if level not in LEVELS:
            raise errors.BadOption(detail=f"level: {', '.join(LEVELS)}")
        return await self._edit_lobby(game_id, user_id, name, "bot", level=level, where=where)

    async def _edit_lobby(
        self,
        game_id: int,
        user_id: int,
        name: str,
        op: str,
        level: str | None = None,
        *,
        where: Where = None,
    ) -> GameSnapshot:
        async with self.store.write() as tx:
            row = await self._lobby_row(tx, game_id, where)
            seats = list(row.seats)
            if op == "join":
                if any(s.user_id == user_id for s in seats):
                    raise errors.AlreadySeated()
                if len(seats) >= row.capacity:
                    raise errors.LobbyFull(capacity=row.capacity)
                seats.append(SeatRow(len(seats), user_id, name))
                if row.rematch_of is not None:  # the seat the rotation keeps for them
                    old = await tx.load_game(row.rematch_of)
                    seats = in_rematch_order(seats, old.seats if old else ())
            elif op == "bot":
                if user_id != row.host_id:
                    raise errors.NotHost()
                if row.game not in bot_games():
                    raise errors.NoBotsForGame(game=row.game)
                if len(seats) >= row.capacity:
                    raise errors.LobbyFull(capacity=row.capacity)
                seats.append(SeatRow(len(seats), None, name, level))
            else:
                if user_id == row.host_id:
                    raise errors.HostCannotLeave()
                if not any(s.user_id == user_id for s in seats):
                    raise errors.NotInLobby()
                seats = [s for s in seats if s.user_id != user_id]
            seats = [replace(s, seat=i) for i, s in enumerate(seats)]
            await tx.set_seats(game_id, seats)
            await tx.update_game(
                game_id,
                row.version,
                status="lobby",
                state_json=None,
                move_count=0,
                updated_at=self.clock(),
            )
            return await self._reread(tx, game_id)

    async def _lobby_row(self, tx: Tx, game_id: int, where: Where = None) -> GameRow:
        row = await tx.load_game(game_id)
        if row is None:
            raise errors.GameNotFound(game_id=game_id)
        _check_place(row, where)
        if row.status != "lobby":
            raise errors.NotALobby()
        return row

    async def cancel(self, game_id: int, user_id: int, *, where: Where = None) -> GameSnapshot:
        async with self.store.write() as tx:
            row = await self._lobby_row(tx, game_id, where)
            if user_id != row.host_id:
                raise errors.NotHost()
            return await self._close_lobby(tx, row)

    async def _close_lobby(self, tx: Tx, row: GameRow) -> GameSnapshot:
        await tx.update_game(
            row.id,
            row.version,
            status="cancelled",
            state_json=None,
            move_count=0,
            updated_at=self.clock(),
        )
        await tx.clear_timers(row.id, (LOBBY_EXPIRY,))
        return await self._reread(tx, row.id)

    async def expire_lobby(self, game_id: int, timer_id: int) -> GameSnapshot | None:
        """Close a lobby nobody started in time, its message to be updated by a notice (None:
        it is no longer a lobby, or another process closed it)."""
        async with self.store.write() as tx:
            if await tx.load_timer(timer_id) is None:
                return None
            row = await tx.load_game(game_id)
            if row is None or row.status != "lobby":
                await tx.delete_timer(timer_id)
                return None
            closed = await self._close_lobby(tx, row)
            await self.turn_clock.add(tx, notice(LOBBY_CLOSED_NOTICE, row, self.turn_clock.now()))
            return closed

    async def withdraw_lobby(self, game_id: int, version: int) -> bool:
        """Close a lobby just opened whose message reached nobody, so its channel is free at
        once instead of when the lobby expires. False (nothing done) when it is no longer the
        lobby at ``version``: someone saw it after all and joined, or it was closed."""
        async with self.store.write() as tx:
            row = await tx.load_game(game_id)
            if row is None or row.status != "lobby" or row.version != version:
                return False
            await self._close_lobby(tx, row)
        return True

    async def start(self, game_id: int, user_id: int, *, where: Where = None) -> Outcome:
        """Deal the game (resolving its setup chance steps) and commit it."""
        async with self.store.write() as tx:
            row = await self._lobby_row(tx, game_id, where)
            if user_id != row.host_id:
                raise errors.NotHost()
            before = self.snapshot_of(row)
            engine = get_engine(row.game)
            if len(row.seats) < engine.info.min_seats:
                raise errors.TooFewPlayers(minimum=engine.info.min_seats, seated=len(row.seats))
            state = engine.initial_state(len(row.seats), json.loads(row.options_json))
            state, moves = self._resolve_chance(engine, state, row.seed, 0, [])
            after = await self._commit(tx, row, engine, state, moves, before)
            await tx.clear_timers(game_id, (LOBBY_EXPIRY,))
        log.info("game started", extra={"game_id": game_id})
        return Outcome(before, after, tuple(moves))

    # ----------------------------------------------------------------- playing

    async def act(
        self,
        game_id: int,
        user_id: int,
        action_text: str,
        expected_version: int | None = None,
        *,
        where: Where = None,
    ) -> Outcome:
        """Apply one player action (and the chance steps it opens), committed before returning.
        ``where``: the channels the action came from (refused unless one is the game's)."""
        async with self.store.write() as tx:
            row = await tx.load_game(game_id)
            if row is None:
                raise errors.GameNotFound(game_id=game_id)
            _check_place(row, where)
            if row.status in ("finished", "abandoned"):
                raise errors.GameEnded(self.snapshot_of(row))
            if expected_version is not None and expected_version != row.version:
                raise errors.StaleBoard()
            seat = next((s.seat for s in row.seats if s.user_id == user_id), None)
            return await self._apply(tx, row, seat, action_text)

    async def act_as_bot(
        self, game_id: int, seat: int, action_text: str, expected_version: int
    ) -> Outcome:
        """A computer opponent's action; the version guards against acting on an old state."""
        async with self.store.write() as tx:
            row = await tx.load_game(game_id)
            if row is None:
                raise errors.GameNotFound(game_id=game_id)
            if expected_version != row.version:
                raise errors.StaleBoard()
            if not (row.seats[seat].bot_level or row.seats[seat].stand_in):
                raise errors.NotSeated()
            return await self._apply(tx, row, seat, action_text)

    async def _apply(self, tx: Tx, row: GameRow, seat: int | None, action_text: str) -> Outcome:
        if row.status == "lobby":
            raise errors.GameNotStarted()
        if row.status != "active":
            raise errors.GameOver()
        if seat is None:
            raise errors.NotSeated()
        before = self.snapshot_of(row)
        engine = get_engine(row.game)
        state = before.state
        if engine.to_move(state) != seat:
            mover = before.player_to_move()
            raise errors.NotYourTurn(player=mover.name if mover else "")
        try:
            action = engine.decode_action(action_text)
        except rule_errors.GameError as exc:
            raise errors.BadActionText(action=action_text[:60]) from exc
        try:
            state = engine.apply(state, action)
        except rule_errors.GameError as exc:
            raise errors.IllegalMove(action=action_text[:60]) from exc
        seq = row.move_count
        moves = [LoggedMove(seq, seat, engine.encode_action(action))]
        state, moves = self._resolve_chance(engine, state, row.seed, seq + 1, moves)
        after = await self._commit(tx, row, engine, state, moves, before)
        log.info("move %s", moves[0].action, extra={"game_id": row.id, "seq": seq, "seat": seat})
        return Outcome(before, after, tuple(moves))

    async def _reread(self, tx: Tx, game_id: int) -> GameSnapshot:
        """The game as this transaction wrote it (read on the writer connection)."""
        row = await tx.load_game(game_id)
        assert row is not None
        return self.snapshot_of(row)

    @staticmethod
    def _resolve_chance(
        engine: Engine[Any, Any], state: Any, seed: int, seq: int, moves: list[LoggedMove]
    ) -> tuple[Any, list[LoggedMove]]:
        moves = list(moves)
        while engine.to_move(state) == CHANCE:
            outcome = engine.sample_chance(state, Rng.for_step(seed, seq))
            state = engine.apply(state, outcome)
            moves.append(LoggedMove(seq, None, engine.encode_action(outcome)))
            seq += 1
        return state, moves

    async def _commit(
        self,
        tx: Tx,
        row: GameRow,
        engine: Engine[Any, Any],
        state: Any,
        moves: list[LoggedMove],
        before: GameSnapshot,
    ) -> GameSnapshot:
        """Append the moves and the new state (version + 1), and keep the turn's timers in step;
        returns the game as committed."""
        now = self.clock()
        if moves:
            await tx.append_moves(
                row.id, moves[0].seq, [MoveRow(m.seq, m.seat, m.action, now) for m in moves]
            )
        status = "finished" if engine.to_move(state) == TERMINAL else "active"
        state_json = _dump(engine, state)
        move_count = row.move_count + len(moves)
        changed = await tx.update_game(
            row.id,
            row.version,
            status=status,
            state_json=state_json,
            move_count=move_count,
            updated_at=now,
        )
        if changed != 1:  # another writer got there first (several processes on one file)
            raise errors.StaleBoard()
        new_row = replace(
            row,
            status=status,
            state_json=state_json,
            move_count=move_count,
            updated_at=now,
            version=row.version + 1,
        )
        if status == "finished":  # results and ratings in this same transaction
            await ratings.record_finished(tx, new_row, engine, state, now)
        after = self.snapshot_of(new_row, state)
        clock_changed = await self.turn_clock.after_commit(tx, new_row, before, after)
        if (
            clock_changed
            and after.status == "active"
            and (after.clock_seconds or any(s.stand_in for s in before.seats))
        ):
            reread = await tx.load_game(row.id)  # with the deadline just set
            assert reread is not None
            after = replace(
                after,
                deadline=reread.deadline,
                clock_left=reread.clock_left,
                seats=seats_of(reread, self.turn_clock.units),
            )
        return after

    async def abandon(
        self, channel_id: int, user_id: int, can_manage_channel: bool
    ) -> GameSnapshot:
        """End the channel's lobby or game: its host, or a member allowed to manage the channel."""
        # found before the write (a read inside it would take a second pooled connection while
        # holding one) and checked again inside it
        current = await self.store.open_game_in_channel(channel_id)
        if current is None:
            raise errors.NoActiveGame()
        async with self.store.write() as tx:
            row = await tx.load_game(current.id)
            if row is None or row.status not in OPEN or row.channel_id != channel_id:
                raise errors.NoActiveGame()
            if user_id != row.host_id and not can_manage_channel:
                raise errors.NotAllowedToAbandon()
            await self.end_unplayed(tx, row, (*TURN_TIMERS, LOBBY_EXPIRY))
            if row.status == "active":
                await tx.set_ended_by(row.id, user_id)
            return await self._reread(tx, row.id)

    async def end_unplayed(self, tx: Tx, row: GameRow, timers: Sequence[str]) -> None:
        """End an open game before its end: a running one as abandoned, a lobby as cancelled;
        its clock stops and ``timers`` of it are cleared (abandon, the table's vote, a channel
        gone)."""
        await tx.update_game(
            row.id,
            row.version,
            status="abandoned" if row.status == "active" else "cancelled",
            state_json=row.state_json,
            move_count=row.move_count,
            updated_at=self.clock(),
        )
        await tx.clear_timers(row.id, timers)
        await tx.set_clock(row.id, deadline=None, clock_left=None)

    async def record_post(
        self, game_id: int, version: int, channel_id: int, message_id: int, public: bool = True
    ) -> None:
        """Remember the message that shows ``version``: public ones link the game, and any of
        them tells a restarted bot that the players have seen that version. Not synced to
        disk at once: a record a power cut loses only makes the bot post that board again."""
        async with self.store.write(synced=False) as tx:
            await tx.record_post(game_id, version, channel_id, message_id, public)
