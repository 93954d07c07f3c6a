"""Every statement of the store, written once for SQLite and PostgreSQL.

Named parameters (``:game_id``) and the words in braces (``{lock_row}``) are filled in by
``bot.storage.dialect``; a parameter given a list stands for its values (``IN (:kinds)``).
No ``::`` casts (PostgreSQL's own spelling): ``CAST(:x AS TEXT)`` says the same on both.
Values never go into the text (ruff's S608 is off for this module: its strings are constants
built from the constant column lists below).
A new statement goes here, next to the ones of its table, and is run through ``Connection``.
"""

from __future__ import annotations

from dataclasses import fields

from bot.storage.base import PlayerSettingsRow, ServerPlayRow

GAME_COLUMNS = (
    "id, guild_id, channel_id, game, rules_version, host_id, options_json, capacity, seed,"
    " status, version, move_count, state_json, created_at, updated_at, ended_by,"
    " clock_seconds, deadline, clock_left, rematch_of, bank_increment, bank_cap,"
    " rest_days, rest_timezone"
)
RESULT_COLUMNS = "game_id, seat, guild_id, game, user_id, score, rank, won, extras_json"
RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, games, wins, updated_at"
TIMER_COLUMNS = "id, due, kind, game_id, guild_id, user_id, version, data, attempts"
VOTE_COLUMNS = (
    "id, game_id, kind, version, seat, opened_by, opened_at, outcome, channel_id, message_id"
)

_GAMES = f"SELECT {GAME_COLUMNS} FROM games"

# ---------------------------------------------------------------- games and seats

GAME = f"{_GAMES} WHERE id = :id"
#: the game, its row locked for the rest of this write transaction (see ``dialect``)
GAME_TO_WRITE = f"{_GAMES} WHERE id = :id{{lock_row}}"
OPEN_GAME_IN_CHANNEL = f"{_GAMES} WHERE channel_id = :channel_id AND status IN ('lobby', 'active')"
LAST_ENDED_GAME_IN_CHANNEL = (
    f"{_GAMES} WHERE channel_id = :channel_id AND status IN ('finished', 'abandoned')"
    " ORDER BY id DESC LIMIT 1"
)
REMATCH_OF = (
    f"{_GAMES} WHERE rematch_of = :game_id AND status != 'cancelled' ORDER BY id DESC LIMIT 1"
)
#: a server's newest finished games (``games_finished_by_guild``; with a user, through
#: ``seats_by_user``)
NEWEST_FINISHED_GAMES = (
    f"{_GAMES} WHERE guild_id = :guild_id AND status = 'finished'"
    " AND (CAST(:user_id AS BIGINT) IS NULL"
    "      OR id IN (SELECT game_id FROM seats WHERE user_id = :user_id))"
    " ORDER BY id DESC LIMIT :limit"
)
SEATS = (
    "SELECT seat, user_id, display_name, bot_level, stand_in, stood_in, bank_left FROM seats"
    " WHERE game_id = :game_id ORDER BY seat"
)
INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, game, rules_version, host_id, options_json,"
    " capacity, seed, status, version, move_count, state_json, created_at, updated_at,"
    " clock_seconds, rematch_of, bank_increment, bank_cap, rest_days, rest_timezone)"
    " VALUES (:guild_id, :channel_id, :game, :rules_version, :host_id, :options_json,"
    " :capacity, :seed, :status, :version, :move_count, :state_json, :created_at, :updated_at,"
    " :clock_seconds, :rematch_of, :bank_increment, :bank_cap, :rest_days, :rest_timezone)"
    " RETURNING id"
)
DELETE_SEATS = "DELETE FROM seats WHERE game_id = :game_id"
INSERT_SEAT = (
    "INSERT INTO seats (game_id, seat, user_id, display_name, bot_level, stand_in, stood_in,"
    " bank_left)"
    " VALUES (:game_id, :seat, :user_id, :display_name, :bot_level, :stand_in, :stood_in,"
    " :bank_left)"
)
INSERT_MOVE = (
    "INSERT INTO moves (game_id, seq, seat, action, created_at)"
    " VALUES (:game_id, :seq, :seat, :action, :created_at)"
)
MOVES = (
    "SELECT seq, seat, action, created_at FROM moves"
    " WHERE game_id = :game_id AND seq >= :from_seq ORDER BY seq"
)
#: the version guard of optimistic concurrency: changes nothing unless still ``:expected``
UPDATE_GAME = (
    "UPDATE games SET status = :status, state_json = :state_json, move_count = :move_count,"
    " updated_at = :updated_at, version = version + 1 WHERE id = :id AND version = :expected"
)
REPLACE_STATE = "UPDATE games SET state_json = :state_json WHERE id = :id AND version = :version"
SET_ENDED_BY = "UPDATE games SET ended_by = :user_id WHERE id = :id"
SET_CLOCK = "UPDATE games SET deadline = :deadline, clock_left = :clock_left WHERE id = :id"
SET_CLOCK_SECONDS = "UPDATE games SET clock_seconds = :clock_seconds WHERE id = :id"
#: what a seat's time bank holds for its next turn (migration 0012)
SET_BANK_LEFT = (
    "UPDATE seats SET bank_left = :bank_left WHERE game_id = :game_id AND seat = :seat"
)
#: ``stood_in`` stays 1 once a computer opponent played for the seat
SET_STAND_IN = (
    "UPDATE seats SET stand_in = :stand_in,"
    " stood_in = CASE WHEN :stood_in > stood_in THEN :stood_in ELSE stood_in END"
    " WHERE game_id = :game_id AND seat = :seat"
)

# ---------------------------------------------------------------- listing games

#: appended to a statement on ``games g``: the game's guild is on the asked shards
#: (``Shards.owns``: a game without a guild is shard 0's)
GAME_ON_SHARDS = " AND ((COALESCE(g.guild_id, 0) >> 22) % :shard_count) IN (:shard_ids)"
OPEN_GAMES = "SELECT g.id FROM games g WHERE g.status = 'active'"
GAMES_WITH_STATE = "SELECT g.id FROM games g WHERE g.state_json IS NOT NULL"
RUNNING_GAMES_WITH_COMPUTERS = (
    "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
    " WHERE g.status = 'active' AND (s.bot_level IS NOT NULL OR s.stand_in IS NOT NULL)"
)
#: games whose newest version the channel has not seen: running ones, and finished ones (changed
#: at ``:since`` or later, when given) still the newest in their channel. Seen: a public post
#: shows that version (or a newer one), or every version since the newest public post is a
#: private step shown to its player (a private copy of a board is not a step: it shows the
#: channel nothing)
UNSHOWN_GAMES = (
    "SELECT g.id FROM ("
    "   SELECT g.id, g.guild_id, g.version, COALESCE((SELECT MAX(p.version)"
    "     FROM posts p WHERE p.game_id = g.id AND p.public = 1), -1) AS seen"
    "   FROM games g"
    "   WHERE (g.status = 'active'"
    "          OR (g.status = 'finished'"
    "              AND (CAST(:since AS TEXT) IS NULL OR g.updated_at >= :since)))"
    "   AND g.id = (SELECT MAX(n.id) FROM games n WHERE n.channel_id = g.channel_id)"
    " ) g"
    " WHERE g.version > g.seen AND g.version - g.seen > ("
    "   SELECT COUNT(*) FROM private_steps q WHERE q.game_id = g.id"
    "   AND q.version > g.seen AND q.version <= g.version)"
)
BY_ID = " ORDER BY g.id"
GAMES_OF_USER = (
    "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
    " WHERE g.guild_id = :guild_id AND g.status = 'active' AND s.user_id = :user_id"
    " ORDER BY g.id"
)
#: every running game in which the user has a seat, on any server (the digest, ``/mygames``
#: everywhere)
GAMES_OF_USER_EVERYWHERE = (
    "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
    " WHERE s.user_id = :user_id AND g.status = 'active' ORDER BY g.id"
)
FINISHED_GAMES = (
    "SELECT g.id FROM games g WHERE g.status = 'finished' AND (:unrecorded_only = 0"
    " OR NOT EXISTS (SELECT 1 FROM game_outcomes o WHERE o.game_id = g.id))"
    " ORDER BY g.updated_at{bytewise}, g.id"
)

# ---------------------------------------------------------------- posts

#: the posts of one game are written by one transaction at a time (on PostgreSQL two processes
#: recording one message at once would otherwise both delete, then both insert it)
LOCK_GAME = "SELECT id FROM games WHERE id = :id{lock_row}"
#: SQLite's INSERT OR REPLACE in two steps: the row goes and comes back as the newest one
DELETE_POST = "DELETE FROM posts WHERE game_id = :game_id AND message_id = :message_id"
INSERT_POST = (
    "INSERT INTO posts (game_id, version, channel_id, message_id, public)"
    " VALUES (:game_id, :version, :channel_id, :message_id, :public)"
)
#: a version shown to its player privately (a step inside a turn); shown again: still one row
INSERT_PRIVATE_STEP = (
    "INSERT INTO private_steps (game_id, version, message_id)"
    " VALUES (:game_id, :version, :message_id) ON CONFLICT (game_id, version) DO NOTHING"
)
#: the newest version a public (channel) post shows; private steps do not count
POSTED_VERSION = "SELECT MAX(version) FROM posts WHERE game_id = :game_id AND public = 1"
#: the versions newer than ``:after`` that a private step showed its player
PRIVATE_VERSIONS = (
    "SELECT version FROM private_steps WHERE game_id = :game_id"
    " AND version > :after ORDER BY version"
)
LATEST_POST = (
    "SELECT channel_id, message_id FROM posts WHERE game_id = :game_id AND public = 1"
    " ORDER BY version DESC, {posted_order} DESC LIMIT 1"
)

# ---------------------------------------------------------------- server and player settings

SERVER_LOCALE = "SELECT locale FROM server_settings WHERE guild_id = :guild_id"
SET_SERVER_LOCALE = (
    "INSERT INTO server_settings (guild_id, locale, updated_at)"
    " VALUES (:guild_id, :locale, :updated_at)"
    " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale,"
    " updated_at = excluded.updated_at"
)
#: a server's settings for play are the fields of ``ServerPlayRow``, each a column of
#: ``server_settings`` of the same name: a new one is a migration and a field, nothing here
SERVER_PLAY_COLUMNS = tuple(f.name for f in fields(ServerPlayRow))
SERVER_PLAY = (
    f"SELECT {', '.join(SERVER_PLAY_COLUMNS)} FROM server_settings WHERE guild_id = :guild_id"
)
SET_SERVER_PLAY = (
    f"INSERT INTO server_settings ({', '.join(SERVER_PLAY_COLUMNS)}, updated_at)"
    f" VALUES ({', '.join(':' + c for c in SERVER_PLAY_COLUMNS)}, :updated_at)"
    " ON CONFLICT (guild_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in (*SERVER_PLAY_COLUMNS[1:], "updated_at"))
)
#: a player's own choices are the fields of ``PlayerSettingsRow``, each a column of
#: ``player_settings`` of the same name (the digest's: migration 0014)
PLAYER_SETTINGS_COLUMNS = tuple(f.name for f in fields(PlayerSettingsRow))
PLAYER_SETTINGS = (
    f"SELECT {', '.join(PLAYER_SETTINGS_COLUMNS)} FROM player_settings WHERE user_id = :user_id"
)
SET_PLAYER_SETTINGS = (
    f"INSERT INTO player_settings ({', '.join(PLAYER_SETTINGS_COLUMNS)}, updated_at)"
    f" VALUES ({', '.join(':' + c for c in PLAYER_SETTINGS_COLUMNS)}, :updated_at)"
    " ON CONFLICT (user_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in (*PLAYER_SETTINGS_COLUMNS[1:], "updated_at"))
)
SET_DM_CHANNEL = "UPDATE player_settings SET dm_channel_id = :channel_id WHERE user_id = :user_id"
#: when the player was last reminded of the game (a reminder, or a digest's fallback mention)
REMINDED_AT = "SELECT at FROM reminded WHERE user_id = :user_id AND game_id = :game_id"
SET_REMINDED = (
    "INSERT INTO reminded (user_id, game_id, at) VALUES (:user_id, :game_id, :at)"
    " ON CONFLICT (user_id, game_id) DO UPDATE SET at = excluded.at"
)
META = "SELECT value FROM meta WHERE key = :key"
SET_META = (
    "INSERT INTO meta (key, value) VALUES (:key, :value)"
    " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)
AWAY_UNTIL = "SELECT until FROM away WHERE guild_id = :guild_id AND user_id = :user_id"
SET_AWAY = (
    "INSERT INTO away (guild_id, user_id, since, until)"
    " VALUES (:guild_id, :user_id, :since, :until)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET until = excluded.until"
)
CLEAR_AWAY = "DELETE FROM away WHERE guild_id = :guild_id AND user_id = :user_id"
_OF_PLAYER = "guild_id = :guild_id AND user_id = :user_id"
AWAY_PERIODS = (
    f"SELECT since, until, told_low FROM away_periods WHERE {_OF_PLAYER}"
    " AND since > :after ORDER BY since"
)
ADD_AWAY_PERIOD = (
    "INSERT INTO away_periods (guild_id, user_id, since, until)"
    " VALUES (:guild_id, :user_id, :since, :until)"
    " ON CONFLICT (guild_id, user_id, since) DO UPDATE SET until = excluded.until"
)
FORGET_AWAY_PERIODS = f"DELETE FROM away_periods WHERE {_OF_PLAYER} AND since <= :before"
END_AWAY_PERIOD = f"UPDATE away_periods SET until = :until WHERE {_OF_PLAYER} AND since = :since"
TOLD_BUDGET_LOW = f"UPDATE away_periods SET told_low = 1 WHERE {_OF_PLAYER} AND since = :since"

# ---------------------------------------------------------------- timers

_TIMERS = f"SELECT {TIMER_COLUMNS} FROM timers"
#: in a write transaction: the timer, claimed (see ``dialect``: two processes never both act)
TIMER_TO_WRITE = f"{_TIMERS} WHERE id = :id{{claim_row}}"
INSERT_TIMER = (
    "INSERT INTO timers (due, kind, game_id, guild_id, user_id, version, data, attempts)"
    " VALUES (:due, :kind, :game_id, :guild_id, :user_id, :version, :data, :attempts)"
    " RETURNING id"
)
DELETE_TIMER = "DELETE FROM timers WHERE id = :id"
RESCHEDULE_TIMER = "UPDATE timers SET due = :due, attempts = :attempts WHERE id = :id"
CLEAR_TIMERS = "DELETE FROM timers WHERE game_id = :game_id AND kind IN (:kinds)"
CARRY_TIMERS = (
    "UPDATE timers SET version = :new_version WHERE game_id = :game_id AND version = :old_version"
)
USER_TIMERS = f"{_TIMERS} WHERE user_id = :user_id AND kind IN (:kinds) ORDER BY due"
TIMERS_OF_GAME = f"{_TIMERS} WHERE game_id = :game_id ORDER BY due"
#: appended after a ``WHERE``: the timer's guild is on the asked shards, or it has none
#: (``Shards.serves``)
TIMER_ON_SHARDS = " AND (guild_id IS NULL OR ((guild_id >> 22) % :shard_count) IN (:shard_ids))"
NEXT_DUE = "SELECT due FROM timers WHERE 1 = 1"
DUE_TIMERS = f"{_TIMERS} WHERE due <= :now"
BY_DUE = " ORDER BY due LIMIT :limit"

# ---------------------------------------------------------------- votes

_VOTES = f"SELECT {VOTE_COLUMNS} FROM votes"
VOTE = f"{_VOTES} WHERE id = :id"
OPEN_VOTE_OF = (
    f"{_VOTES} WHERE game_id = :game_id AND kind = :kind AND outcome IS NULL"
    " ORDER BY id DESC LIMIT 1"
)
INSERT_VOTE = (
    "INSERT INTO votes (game_id, kind, version, seat, opened_by, opened_at)"
    " VALUES (:game_id, :kind, :version, :seat, :opened_by, :opened_at) RETURNING id"
)
CLOSE_VOTE = "UPDATE votes SET outcome = :outcome WHERE id = :id"
SET_VOTE_MESSAGE = (
    "UPDATE votes SET channel_id = :channel_id, message_id = :message_id WHERE id = :id"
)
CAST_BALLOT = (
    "INSERT INTO ballots (vote_id, user_id, choice) VALUES (:vote_id, :user_id, :choice)"
    " ON CONFLICT (vote_id, user_id) DO UPDATE SET choice = excluded.choice"
)
BALLOTS = "SELECT user_id, choice FROM ballots WHERE vote_id = :vote_id"

# ---------------------------------------------------------------- results and ratings

OUTCOME_RECORDED = "SELECT 1 FROM game_outcomes WHERE game_id = :game_id"
INSERT_OUTCOME = (
    "INSERT INTO game_outcomes (game_id, guild_id, game, rated, finished_at)"
    " VALUES (:game_id, :guild_id, :game, :rated, :finished_at)"
)
INSERT_RESULT = (
    f"INSERT INTO game_results ({RESULT_COLUMNS})"
    " VALUES (:game_id, :seat, :guild_id, :game, :user_id, :score, :rank, :won, :extras_json)"
)
PLAYER_RESULTS = (
    f"SELECT {', '.join('r.' + c for c in RESULT_COLUMNS.split(', '))}"
    " FROM game_results r JOIN game_outcomes o ON o.game_id = r.game_id"
    " WHERE r.guild_id = :guild_id AND r.user_id = :user_id"
    " AND (CAST(:game AS TEXT) IS NULL OR r.game = :game)"
    " ORDER BY o.finished_at{bytewise}, r.game_id"
)
_RATINGS = f"SELECT {RATING_COLUMNS} FROM ratings"
RATING = f"{_RATINGS} WHERE guild_id = :guild_id AND game = :game AND user_id = :user_id"
RATINGS_OF = f"{_RATINGS} WHERE guild_id = :guild_id AND game = :game AND user_id IN (:user_ids)"
SAVE_RATING = (
    f"INSERT INTO ratings ({RATING_COLUMNS})"
    " VALUES (:guild_id, :game, :user_id, :mu, :sigma, :games, :wins, :updated_at)"
    " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
    " updated_at = excluded.updated_at"
)
INSERT_RATING_HISTORY = (
    "INSERT INTO rating_history (game_id, user_id, guild_id, game, mu, sigma)"
    " VALUES (:game_id, :user_id, :guild_id, :game, :mu, :sigma)"
)
RATING_HISTORY = (
    "SELECT mu, sigma FROM rating_history"
    " WHERE guild_id = :guild_id AND game = :game AND user_id = :user_id ORDER BY {saved_order}"
)
LEADERBOARD = (
    f"{_RATINGS} WHERE guild_id = :guild_id AND game = :game AND games >= :min_games"
    " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT :limit"
)
ALL_RATINGS = f"{_RATINGS} ORDER BY guild_id, game{{bytewise}}, user_id"
#: everything a rebuild of the ratings starts without, children first
CLEAR_OUTCOMES = (
    "DELETE FROM rating_history",
    "DELETE FROM ratings",
    "DELETE FROM game_results",
    "DELETE FROM game_outcomes",
)

# ---------------------------------------------------------------- copying (boardroom copy-db)

#: the order of a table's rows where its first two columns do not give one (``table_rows``):
#: the order they were written, and text byte by byte
COPY_ORDER = {
    "posts": "{posted_order}",
    "rating_history": "{saved_order}",
    "ratings": "guild_id, game{bytewise}, user_id",
    "away_periods": "guild_id, user_id, since",
}
