-- The level a computer opponent plays at when it stands in for a silent player on this server
-- (one of the bot levels, e.g. 'hard'; NULL: the built-in 'medium').
ALTER TABLE server_settings ADD COLUMN stand_in_level TEXT;
