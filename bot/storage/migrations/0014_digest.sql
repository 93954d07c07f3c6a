-- One digest across servers: a player may choose a direct message listing every game, on every
-- server, where it is their move: ``digest`` 'off', 'daily' or 'twice' (a day), at ``digest_at``
-- ("HH:MM" in their time zone; twice: also twelve hours later), in ``digest_locale`` (the
-- language they chose it in); ``digest_only`` 1: instead of per-game reminders, 0: beside them.
ALTER TABLE player_settings ADD COLUMN digest TEXT NOT NULL DEFAULT 'off';
ALTER TABLE player_settings ADD COLUMN digest_at TEXT;
ALTER TABLE player_settings ADD COLUMN digest_only INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_settings ADD COLUMN digest_locale TEXT;
-- The player's direct-message channel with the bot, once known: a digest sent there needs no
-- request to open it (NULL: not known yet; a channel Discord no longer knows is opened anew).
ALTER TABLE player_settings ADD COLUMN dm_channel_id BIGINT;

-- When a player was last reminded of a game (a per-game reminder, or a digest's fallback
-- mention in the game's channel): a player who takes the digest hears of each game at most
-- once a day besides it.
CREATE TABLE reminded (
    user_id BIGINT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
