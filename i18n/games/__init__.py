"""Words a game's renderer and presenter both say, defined once per game (taking a Translator)."""
