-- Facts about the database as a whole, as SQLite's migration 0009 has them (e.g. the code
-- fingerprint of the engines whose encodings every stored state was last checked against).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
