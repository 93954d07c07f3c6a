-- Who ended a game with /game abandon (NULL: nobody did; the game was won, or is still running),
-- so an old button of that game can say how it ended.
ALTER TABLE games ADD COLUMN ended_by BIGINT;
