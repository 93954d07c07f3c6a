-- Results and ratings of finished games, as SQLite's migration 0007 has them: game_outcomes
-- (the idempotent record keyed by game id, written in the transaction that finishes the game),
-- game_results (one row per human seat), ratings (openskill mu and sigma per server, game and
-- player) and rating_history. SQLite's REAL is a double here too, so ratings copy exactly.
CREATE TABLE game_outcomes (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id    BIGINT,
    game        TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    finished_at TEXT NOT NULL
);

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

-- saved_order stands in for SQLite's rowid: a player's history is read in the order it was
-- written.
CREATE TABLE rating_history (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    guild_id    BIGINT NOT NULL,
    game        TEXT NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    saved_order BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, game, user_id, saved_order);
