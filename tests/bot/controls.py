"""Checks shared by the presenter tests: what controls reach, and Discord's limits."""

from __future__ import annotations

from bot.present.base import (
    MAX_BUTTONS_PER_ROW,
    MAX_LABEL,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Button,
    ControlRows,
    Select,
)


def reachable(rows: ControlRows) -> list[str]:
    """Every action code a player can submit through these controls."""
    found: list[str] = []
    for row in rows.rows:
        for control in row:
            if isinstance(control, Button):
                found.append(control.action)
            else:
                found += [option.action for option in control.options]
    return found


def check_limits(rows: ControlRows) -> None:
    """At most 5 rows; a row is up to 5 buttons or one select of 1-25 distinct options."""
    assert len(rows.rows) <= MAX_ROWS
    for row in rows.rows:
        assert row
        if any(isinstance(c, Select) for c in row):
            assert len(row) == 1, "a select must be alone in its row"
            (select,) = row
            assert isinstance(select, Select)
            assert 1 <= len(select.options) <= MAX_SELECT_OPTIONS
            assert select.placeholder and len(select.placeholder) <= 150
            values = [o.action for o in select.options]
            assert len(values) == len(set(values))
            for option in select.options:
                assert option.label and len(option.label) <= MAX_LABEL
                assert option.description is None or len(option.description) <= 100
        else:
            assert len(row) <= MAX_BUTTONS_PER_ROW
            assert all(b.label and len(b.label) <= MAX_LABEL for b in row)
