-- Games (a lobby is a game whose status is 'lobby'), seats, the append-only move log, posts.
-- Times are ISO 8601 text on both backends, so both compare and copy them alike.
CREATE TABLE games (
    id            {id},
    guild_id      BIGINT,
    channel_id    BIGINT NOT NULL,
    game          TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    host_id       BIGINT NOT NULL,
    options_json  TEXT NOT NULL,
    capacity      INTEGER NOT NULL,
    seed          BIGINT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    version       INTEGER NOT NULL DEFAULT 0,
    move_count    INTEGER NOT NULL DEFAULT 0,
    state_json    TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);

-- One open lobby or running game per channel.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      BIGINT,
    display_name TEXT NOT NULL,
    bot_level    TEXT,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE moves (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    seat       INTEGER,
    action     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE posts (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, message_id)
);
CREATE INDEX posts_latest ON posts (game_id, version);
