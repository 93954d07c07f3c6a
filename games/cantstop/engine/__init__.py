"""Can't Stop (Sid Sackson): push your luck up eleven dice columns."""
