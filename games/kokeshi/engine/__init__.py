"""Kokeshi (Ludofun, 2024): climb five kokeshi up your workshop tracks and chain tile effects."""
