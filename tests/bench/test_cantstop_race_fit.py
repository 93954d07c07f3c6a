"""The Can't Stop race table's fitting script: least squares, collection, a table the bot reads."""

from __future__ import annotations

import json
from pathlib import Path

from bench import cantstop_race
from games.cantstop.bots.race import RaceModel


def test_solve_recovers_known_coefficients() -> None:
    xs = [[1.0, x, x * x] for x in (0.0, 0.5, 1.0, 2.0, 3.5, 5.0)]
    ys = [2.0 + 3.0 * x - 0.5 * x2 for _, x, x2 in xs]
    coef = cantstop_race.solve(xs, ys)
    assert [round(c, 6) for c in coef] == [2.0, 3.0, -0.5]


def test_collect_and_fit_give_a_table_the_bot_reads(tmp_path: Path) -> None:
    samples = tmp_path / "samples.jsonl"
    cantstop_race.collect(games=2, seed=5, procs=1, out=samples)
    rows = cantstop_race.load_samples(samples)
    assert len(rows) > 10
    for row, mine, closed, turns in rows:
        assert len(row) == 11 and 1 <= turns <= cantstop_race.MAX_TURNS
        assert not set(mine) & set(closed)
    assert any(row == (0,) * 11 and turns >= 1 for row, _, _, turns in rows)  # the opening
    table = tmp_path / "table.json"
    assert cantstop_race.main(["fit", "--samples", str(samples), "--out", str(table)]) == 0
    model = RaceModel.from_table(json.loads(table.read_text()))
    assert model.power > 0 and model.claim > 0
    assert model.turns_left(0.0, 0) >= 1.0
