-- What each finished game meant for its human players, kept so stats and ratings need no replay.
-- game_outcomes is the idempotent record keyed by game id: a finished game has a row once its
-- results (and, when rated, its rating updates) are written, in the same transaction that
-- finished it. A finished game without a row (finished before this migration) is recorded at
-- start-up, in the order the games finished.
CREATE TABLE game_outcomes (
    game_id     {game_id_key} REFERENCES games (id) ON DELETE CASCADE,
    guild_id    BIGINT,
    game        TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    finished_at TEXT NOT NULL
);

-- One row per human seat of a finished game: the final score, the rank (0: a winner; equal
-- scores share a rank) and the game's own averages (e.g. Can't Stop busts) as JSON.
CREATE TABLE game_results (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    guild_id    BIGINT,
    game        TEXT NOT NULL,
    user_id     BIGINT NOT NULL,
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    extras_json TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_by_player ON game_results (guild_id, user_id, game);

-- The skill rating (openskill Plackett-Luce: mu, sigma) of a player in one server and game,
-- after every rated game it counts.
CREATE TABLE ratings (
    guild_id   BIGINT NOT NULL,
    game       TEXT NOT NULL,
    user_id    BIGINT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);

-- The rating of each player after each rated game (the sparkline of /stats), read in the order
-- it was written (SQLite: the rowid; PostgreSQL: saved_order).
CREATE TABLE rating_history (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    game     TEXT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL{saved_order_column},
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, game, user_id, {saved_order_key});
