-- The versions a player was shown privately, one row each. A turn played through private
-- controls edits one private message step by step, so that message shows one version after
-- another, where posts keep one row per message (its newest version). Private rows move here;
-- posts keeps the channel's messages.
CREATE TABLE private_steps (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, version)
);
INSERT INTO private_steps (game_id, version, message_id)
    SELECT game_id, version, MAX(message_id) FROM posts WHERE public = 0
    GROUP BY game_id, version;
DELETE FROM posts WHERE public = 0;
