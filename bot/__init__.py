"""Boardroom: the Discord bot, its storage and service layers, and the CLI."""
