-- Private (ephemeral) turn steps are remembered too, so a restart knows the player saw them;
-- links to a game use public posts only.
ALTER TABLE posts ADD COLUMN public INTEGER NOT NULL DEFAULT 1;

-- Posts are read in the order they were written (SQLite: the rowid; PostgreSQL: a column of its
-- own), so the newest of two posts of one version wins.
{posted_order_added}
