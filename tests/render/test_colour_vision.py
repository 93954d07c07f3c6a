"""Player colours stay apart in normal vision and under simulated dichromacy.

The threshold: a CIEDE2000 difference of about 2 is just noticeable between two large patches laid
side by side; markers a few millimetres wide, spread over a board and never side by side, must be
told apart at a glance, by name ("the blue player"). Twenty, ten times the just-noticeable
difference, is about the gap between neighbouring colours of Okabe and Ito's colour-blind-safe
set under simulation; the palette before this test (red and green) fell to 7.6 under deuteranopia.
"""

from __future__ import annotations

import colorsys

import pytest

from render.canvas import (
    BACKGROUND,
    CHANGED,
    INK,
    PLAYER_COLOURS,
    WHITE,
    contrast,
    text_on,
)
from tests.render.colour_vision import VISIONS, ciede2000, closest_pair, lab, simulate

MIN_DELTA_E = 20.0


@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_players_differ_enough(vision: str) -> None:
    delta, a, b = closest_pair(PLAYER_COLOURS, vision)
    assert delta >= MIN_DELTA_E, f"{vision}: players {a} and {b} are only ΔE00 {delta:.1f} apart"


def test_the_old_red_and_green_fail_under_deuteranopia() -> None:
    """The check catches what the issue saw: red A and green C became the same olive."""
    old = ((200, 60, 50), (40, 110, 200), (40, 150, 80), (220, 150, 20))
    assert closest_pair(old, "deuteranopia")[0] < MIN_DELTA_E
    assert closest_pair(old, "normal")[0] >= MIN_DELTA_E


def test_the_seat_letter_reads_on_its_colour() -> None:
    for colour in PLAYER_COLOURS:
        assert contrast(text_on(colour), colour) >= 4.5  # WCAG AA for text


def test_the_simulation_and_difference_match_published_values() -> None:
    """CIEDE2000 pairs 1, 2 and 7 of Sharma et al. 2005, Table 1; Machado's matrices keep white
    white and grey grey (their rows sum to 1), and turn pure red and green alike for a deuteranope."""
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 3.1571, -77.2803), (50, 0, -82.7485)) == pytest.approx(2.8615, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    for deficiency in ("protanopia", "deuteranopia", "tritanopia"):
        assert simulate(WHITE, deficiency) == pytest.approx((255, 255, 255), abs=0.5)
        assert simulate((128, 128, 128), deficiency) == pytest.approx((128, 128, 128), abs=0.5)
    red, green = simulate((200, 0, 0), "deuteranopia"), simulate((0, 140, 0), "deuteranopia")
    assert ciede2000(lab(red), lab(green)) < ciede2000(lab((200, 0, 0)), lab((0, 140, 0))) / 3
    assert INK not in PLAYER_COLOURS


def test_the_change_highlight_is_a_hue_of_its_own() -> None:
    """The ring round what changed in the last turn is far in hue and colour from every player
    colour (the orange it replaced was 10 degrees from vermilion A) and shows on the
    background (3:1, WCAG's contrast for graphics)."""
    hue = colorsys.rgb_to_hsv(*(v / 255 for v in CHANGED))[0] * 360
    for colour in PLAYER_COLOURS:
        other = colorsys.rgb_to_hsv(*(v / 255 for v in colour))[0] * 360
        assert min(abs(hue - other), 360 - abs(hue - other)) >= 45, colour
        assert ciede2000(lab(CHANGED), lab(colour)) >= 1.5 * MIN_DELTA_E, colour
    assert contrast(CHANGED, BACKGROUND) >= 3
    old = (235, 120, 0)
    assert ciede2000(lab(old), lab(PLAYER_COLOURS[0])) < MIN_DELTA_E  # what the check catches
