-- Facts about the database as a whole, e.g. the code fingerprint of the engines whose encodings
-- every stored state was last checked against (a start-up skips the check while it matches).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
