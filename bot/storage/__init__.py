"""Game-agnostic persistence: games, seats, the append-only move log and posted messages."""
