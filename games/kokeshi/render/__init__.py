"""Kokeshi board picture, its alt text and the icon legend.

A 1400x1000 picture. Left: the focused player's workshop (the acting player unless
``focus_seat`` is given) large: five tracks of eight spaces with the yellow level spaces and their
points, tiles with their effects as short symbols, the kokeshi as white pills carrying their
column letter, home below space 1, and the tiles gained this turn. Right: the display, the
achievement tiles left, the four animal tracks drawn upward like the workshop tracks (markers on a
space stand left to right in arrival order, so the leftmost wins a tie), and the scores. Bottom:
the other workshops, small. Every tile colour also has a shape and a letter.

Modules: ``layout`` (geometry, colours, palette), ``sprites`` (shapes, effect symbols, tiles),
``panels`` (the parts of the board), ``status`` (the headline), ``board`` (the whole picture),
``alt_text`` and ``legend`` (the ``/rules`` picture).
"""

from games.kokeshi.render.alt_text import describe
from games.kokeshi.render.board import draw, views
from games.kokeshi.render.highlights import highlights
from games.kokeshi.render.legend import rules_alt, rules_image

__all__ = ["describe", "draw", "highlights", "rules_alt", "rules_image", "views"]
