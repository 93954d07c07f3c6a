"""Harmonies (Johan Benvenuto, Libellud 2024): build landscapes from tokens, home animals."""
