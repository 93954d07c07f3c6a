-- What a server's admins chose for it (today the language of its public messages; NULL: the
-- server's own Discord locale).
CREATE TABLE server_settings (
    guild_id   BIGINT PRIMARY KEY,
    locale     TEXT,
    updated_at TEXT NOT NULL
);
