"""Words of one game that several layers use, defined once per game."""
