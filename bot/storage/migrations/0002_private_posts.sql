-- Private (ephemeral) turn steps are remembered too, so a restart knows the player saw them;
-- links to a game use public posts only.
ALTER TABLE posts ADD COLUMN public INTEGER NOT NULL DEFAULT 1;
