-- Finding the newest game of a channel (the repair of boards a channel never saw looks at the
-- newest game of each channel only).
CREATE INDEX games_by_channel ON games (channel_id, id);
