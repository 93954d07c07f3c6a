-- The vacation budget: every away period a player took on a server (``/away``), kept while it
-- counts against their yearly budget. ``until`` is when it ends, or ended (an early end gives the
-- unused time back); ``told_low``: the player heard, in a reminder, that their budget is nearly
-- spent after this period.
CREATE TABLE away_periods (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    since    DOUBLE PRECISION NOT NULL,
    until    DOUBLE PRECISION NOT NULL,
    told_low INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, since)
);
-- an away period under way when the budget came counts against it
INSERT INTO away_periods (guild_id, user_id, since, until)
    SELECT guild_id, user_id, since, until FROM away;

-- A server's yearly away budget per player, in days of game time (NULL: the built-in 21).
ALTER TABLE server_settings ADD COLUMN away_days INTEGER;
