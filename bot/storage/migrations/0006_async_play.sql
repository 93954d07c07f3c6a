-- Asynchronous play over days.
-- The turn clock chosen in the lobby (seconds per turn; NULL: no clock), when the turn of the
-- seat to move runs out (unix seconds; NULL: no clock runs), and, while that player is away,
-- the seconds their clock had left when it was stopped (NULL: the clock runs).
ALTER TABLE games ADD COLUMN clock_seconds INTEGER;
ALTER TABLE games ADD COLUMN deadline DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN clock_left DOUBLE PRECISION;

-- A computer opponent standing in for a seated player: 'turn' (this turn only) or 'seat' (until
-- they come back); stood_in stays 1 once a bot played for the seat (such games are not rated).
ALTER TABLE seats ADD COLUMN stand_in TEXT CHECK (stand_in IN ('turn', 'seat'));
ALTER TABLE seats ADD COLUMN stood_in INTEGER NOT NULL DEFAULT 0;

-- Everything that falls due, in one table read by one scheduler: turn deadlines, reminders,
-- vote ends, lobby expiry, the end of an away period, and messages still to be sent. A timer acts
-- only while its game is at the version it was set for (moves within a turn carry the timers
-- of that turn along to the new version). ``lease`` > 0: a process has claimed it until then.
CREATE TABLE timers (
    id       {id},
    due      DOUBLE PRECISION NOT NULL,
    kind     TEXT NOT NULL,
    game_id  BIGINT REFERENCES games (id) ON DELETE CASCADE,
    guild_id BIGINT,
    user_id  BIGINT,
    version  INTEGER NOT NULL DEFAULT 0,
    data     TEXT NOT NULL DEFAULT '{}',
    attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX timers_due ON timers (due);
CREATE INDEX timers_of_game ON timers (game_id, kind);
CREATE INDEX timers_of_user ON timers (user_id, kind);

-- Table votes: what to do about a silent player ('expiry'), or whether to end a game ('abandon').
CREATE TABLE votes (
    id          {id},
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('expiry', 'abandon')),
    version     INTEGER NOT NULL,
    seat        INTEGER,
    opened_by   BIGINT,
    opened_at   DOUBLE PRECISION NOT NULL,
    outcome     TEXT,
    channel_id  BIGINT,
    message_id  BIGINT
);
CREATE INDEX votes_of_game ON votes (game_id, outcome);
CREATE TABLE ballots (
    vote_id BIGINT NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    choice  TEXT NOT NULL,
    PRIMARY KEY (vote_id, user_id)
);

-- A player's own choices: how reminders reach them, and their quiet hours.
CREATE TABLE player_settings (
    user_id     BIGINT PRIMARY KEY,
    reminders   TEXT NOT NULL DEFAULT 'channel' CHECK (reminders IN ('channel', 'dm', 'off')),
    quiet_start TEXT,
    quiet_end   TEXT,
    timezone    TEXT,
    updated_at  TEXT NOT NULL
);

-- Away mode, per server: the player's clocks and reminders stop until ``until``.
CREATE TABLE away (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    since    DOUBLE PRECISION NOT NULL,
    until    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- A server's defaults for asynchronous play (NULL: the built-in default).
ALTER TABLE server_settings ADD COLUMN default_clock INTEGER;
ALTER TABLE server_settings ADD COLUMN default_action TEXT;
ALTER TABLE server_settings ADD COLUMN lobby_expiry INTEGER;
ALTER TABLE server_settings ADD COLUMN allow_dm INTEGER;

-- /mygames and the shard filter look games up by server.
CREATE INDEX games_open_by_guild ON games (guild_id, status);

-- Running games are looked up by status (start-up recovery, the sweep for unshown boards).
CREATE INDEX games_by_status ON games (status);
