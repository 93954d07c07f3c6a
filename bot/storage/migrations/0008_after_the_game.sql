-- After the last move: which finished game a lobby replays (the Rematch button; NULL: opened
-- with /play), and the indexes of the server's game history and of a player's games.
ALTER TABLE games ADD COLUMN rematch_of BIGINT REFERENCES games (id);
CREATE INDEX games_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX games_finished_by_guild ON games (guild_id, id) WHERE status = 'finished';
CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;
