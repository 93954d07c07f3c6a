"""The turn machine: setup, landing resolution, the cascade (§6.2), gains and placement (§7).

``advance`` runs everything the rules fix on their own and stops at the next player decision or
chance step, so a state between two actions is always a pure value.
"""

from __future__ import annotations

from games.kokeshi.engine import actions as ac
from games.kokeshi.engine.actions import Action
from games.kokeshi.engine.data import (
    ANY_COLUMN,
    GAIN_TILE,
    MOVE_ANIMAL,
    MOVE_ANY,
    MOVE_ANY_ANIMAL,
    MOVE_KOKESHI,
    MOVE_LEFT,
    MOVE_RIGHT,
    SAME_COLUMN,
    Effect,
    ach_colour,
    ach_level,
    ach_tile,
    is_ach,
)
from games.kokeshi.engine.state import NONE, Phase, crowded_column
from games.kokeshi.engine.todo import (
    ColumnChoice,
    EmptyGain,
    Refill,
    SideChoice,
    TileEffect,
    head,
)
from games.kokeshi.engine.work import Work

# -- effect helpers ------------------------------------------------------------------------------


def kokeshi_targets(w: Work, e: Effect, column: int) -> tuple[int, ...]:
    """Columns whose kokeshi an effect may move (§6.1)."""
    n = len(w.d.columns)
    if e.type == MOVE_KOKESHI:
        return (e.kokeshi,)
    if e.type == MOVE_ANY:
        return tuple(range(n))
    if e.type == MOVE_RIGHT:
        return tuple(range(column + 1, n))
    if e.type == MOVE_LEFT:
        return tuple(range(column))
    return ()


def open_animals(w: Work) -> tuple[int, ...]:
    """Animal tracks where the active marker can still advance (D20)."""
    top = w.d.top_index
    return tuple(a for a in range(len(w.d.animals)) if w.animal_pos(a, w.active) < top)


def room_columns(w: Work) -> tuple[int, ...]:
    return tuple(c for c in range(len(w.d.columns)) if w.has_room(c))


def can_perform(w: Work, e: Effect, column: int) -> bool:
    """D18: an effect is skipped only when it has no valid target."""
    if e.type in (MOVE_KOKESHI, MOVE_ANY, MOVE_RIGHT, MOVE_LEFT):
        return bool(kokeshi_targets(w, e, column))
    if e.type == MOVE_ANIMAL:
        return w.animal_pos(e.animal, w.active) < w.d.top_index
    if e.type == MOVE_ANY_ANIMAL:
        return bool(open_animals(w))
    if e.type == GAIN_TILE:
        if not w.display:
            return False
        return w.has_room(column) if e.where == SAME_COLUMN else bool(room_columns(w))
    raise ValueError(f"unknown effect {e.type}")


def eligible_ach(w: Work, column: int) -> tuple[int, ...]:
    """§7.2: achievement tiles the active player may take after an empty landing in ``column``."""
    if not w.has_room(column) or w.owns_ach(w.active, column):
        return ()
    reach = w.height(column) + w.pending_count(column) + 1
    return tuple(
        ach_tile(column, level)
        for level in w.d.levels
        if ach_tile(column, level) in w.ach_supply and reach >= w.d.yellow[level]
    )


def empty_gain_options(w: Work, column: int) -> tuple[int, ...]:
    display = tuple(sorted(w.display)) if w.has_room(column) else ()
    return display + eligible_ach(w, column)


# -- end trigger and animals -------------------------------------------------------------------


def trigger(w: Work, reason: str) -> None:
    """D23: noted at once; the game ends after this round and one more (§8)."""
    if w.end_after != NONE:
        return
    w.end_after = (w.turns // w.seats + 2) * w.seats
    w.events.append(("trigger", reason))


def check_achievements(w: Work) -> None:
    if w.achievements(w.active) >= w.d.trigger[w.seats]:
        trigger(w, "achievements")


def advance_animal(w: Work, animal: int) -> None:
    """§6.3: the marker goes one up and on top of the stack there."""
    seat = w.active
    old = w.animal_pos(animal, seat)
    if old >= w.d.top_index:  # D20
        return
    new = old + 1
    track = [entry for entry in w.animals[animal] if entry[0] != seat]
    track.append((seat, new))
    w.animals[animal] = track
    w.events.append(("animal", animal, new))
    if new == w.d.bonus_index and w.bonus[animal] != NONE:
        tile = w.bonus[animal]
        w.bonus[animal] = NONE
        w.free.append(tile)
        w.events.append(("bonus", animal, tile))
    if new == w.d.midline:
        check_achievements(w)


def take_ach(w: Work, column: int, tile: int) -> None:
    """Take an achievement tile; apply the colour cap (D7)."""
    w.ach_supply.remove(tile)
    w.pending.append((column, tile))
    w.events.append(("gain", column, tile))
    colour = ach_colour(tile)
    owners = sum(1 for seat in range(w.seats) if w.owns_ach(seat, colour))
    if owners >= w.d.max_owners[w.seats]:
        rest = [t for t in w.ach_supply if ach_colour(t) == colour]
        for t in rest:
            w.ach_supply.remove(t)
            w.removed.append(t)
    check_achievements(w)


# -- the cascade -------------------------------------------------------------------------------


def resolve_move(w: Work, column: int, steps: int) -> None:
    """§6.2 ``resolve_move``: the move and its landing (achievement steps included, D15)."""
    seat = w.active
    start = w.pos[seat][column]
    target = start + steps
    w.events.append(("move", column, start, target))
    while True:
        if target > w.d.spaces:  # §5.4, D16
            w.happiness[seat] += w.d.pass_top
            w.pos[seat][column] = 0
            w.events.append(("top", column, w.d.pass_top))
            return
        w.pos[seat][column] = target
        board = w.boards[seat][column]
        if target > len(board):  # §5.3
            w.pos[seat][column] = 0
            w.events.append(("empty", column, target))
            w.todo.append(EmptyGain(column))
            return
        tile = board[target - 1]
        if is_ach(tile):  # §5.2
            w.events.append(("extra", column, target))
            w.events.append(("move", column, target, target + w.d.ach_extra_steps))
            target += w.d.ach_extra_steps
            continue
        kind = w.d.tiles[tile]
        w.events.append(("fire", column, target, tile))
        if kind.mode == "choice":
            w.todo.append(SideChoice(tile, column))
        else:  # single or both, in data order (D17)
            w.todo.extend(TileEffect(tile, i, column) for i in range(len(kind.effects)))
        return


def choice_sides(w: Work, tile: int, column: int) -> tuple[int, ...]:
    effects = w.d.tiles[tile].effects
    return tuple(i for i, e in enumerate(effects) if can_perform(w, e, column))


def _step_todo(w: Work) -> bool:
    """Handle ``todo[0]``; True when a decision or chance step is now needed."""
    match w.todo[0]:
        case Refill():
            if len(w.display) >= w.d.display_size:
                w.todo.pop(0)
                return False
            if not w.bag:  # §7.4
                w.todo.pop(0)
                trigger(w, "display")
                return False
            w.phase = Phase.DRAW
            return True
        case ColumnChoice():
            w.phase = Phase.COL
            return True
        case EmptyGain(column):
            if empty_gain_options(w, column):
                w.phase = Phase.GAIN
                return True
            w.todo.pop(0)
            w.events.append(("skip", NONE, column))
            return False
        case SideChoice(tile, column):
            if choice_sides(w, tile, column):
                w.phase = Phase.SIDE
                return True
            w.todo.pop(0)
            w.events.append(("skip", tile, NONE))
            return False
        case TileEffect() as item:
            return _step_effect(w, item)
    raise TypeError(f"not a todo item: {w.todo[0]!r}")


def _step_effect(w: Work, item: TileEffect) -> bool:
    """Resolve one printed effect, or stop at the decision it asks for."""
    e = item.effect(w.d)
    if not can_perform(w, e, item.column):
        w.todo.pop(0)
        w.events.append(("skip", item.tile, item.index))
        return False
    if e.type == MOVE_KOKESHI:
        w.todo.pop(0)
        w.queue.append((e.kokeshi, e.steps))
        w.events.append(("queue", e.kokeshi, e.steps))
        return False
    if e.type == MOVE_ANIMAL:
        w.todo.pop(0)
        advance_animal(w, e.animal)
        return False
    if e.type == MOVE_ANY_ANIMAL:
        w.phase = Phase.ANIMAL
    elif e.type == GAIN_TILE:
        w.phase = Phase.GAIN
    else:  # any / right / left: the player picks the kokeshi
        w.phase = Phase.PICK
    return True


# -- placement (§7.3) --------------------------------------------------------------------------


def place_tile(w: Work, column: int, tile: int, *, pending: bool = True) -> None:
    if pending:
        w.pending.remove((column, tile))
    board = w.boards[w.active][column]
    board.append(tile)
    w.events.append(("place", column, len(board), tile))


def place_options(w: Work) -> tuple[int, ...]:
    """Tiles that may go in next in the first column holding several pending tiles (D22)."""
    column = crowded_column(w.pending)
    if column is None:
        return ()
    space = w.height(column) + 1
    tiles = (t for col, t in w.pending if col == column)
    return tuple(sorted(t for t in tiles if not is_ach(t) or space >= w.d.yellow[ach_level(t)]))


def free_columns(w: Work) -> tuple[int, ...]:
    return tuple(c for c in range(len(w.d.columns)) if w.height(c) < w.d.spaces)


def _placement(w: Work) -> bool:
    """Place what needs no decision; True when a decision is needed."""
    for column in range(len(w.d.columns)):
        tiles = [t for col, t in w.pending if col == column]
        if len(tiles) == 1:
            place_tile(w, column, tiles[0])
    if w.pending:
        w.phase = Phase.PLACE
        return True
    while w.free:
        if free_columns(w):
            w.phase = Phase.COL
            return True
        tile = w.free.pop(0)
        w.removed.append(tile)
        w.events.append(("discard", tile))
    return False


# -- driving the state ---------------------------------------------------------------------------


def _setup(w: Work) -> bool:
    """Setup steps 3-7; False once setup is over."""
    if w.first == NONE:
        w.phase = Phase.FIRST
        return True
    if len(w.bonus) < len(w.d.animals):
        w.phase = Phase.DRAW
        return True
    while w.setup_done < w.seats:
        w.active = (w.first + w.setup_done) % w.seats
        placed = sum(1 for col in w.boards[w.active] if col)
        if placed + len(w.hand) < w.d.setup_tiles:
            w.phase = Phase.DRAW
            return True
        if w.hand:
            w.phase = Phase.START
            return True
        w.setup_done += 1
        w.turn += 1  # the next seat places its setup tiles (or the first turn begins)
    if len(w.display) < w.d.display_size and w.bag:
        w.phase = Phase.DRAW
        return True
    w.in_setup = False
    w.active = w.first
    w.phase = Phase.MOVE
    return False


def advance(w: Work) -> None:
    """Run the fixed steps up to the next decision, chance step or the end."""
    if w.in_setup:
        _setup(w)  # ends with a chance step, a setup decision or the first turn's move
        return
    while True:
        if w.todo:
            if _step_todo(w):
                return
            continue
        if w.queue:
            column, steps = w.queue.pop(0)
            resolve_move(w, column, steps)
            continue
        if _placement(w):
            return
        w.turns += 1
        w.turn += 1
        if w.end_after != NONE and w.turns >= w.end_after:
            w.phase = Phase.OVER
            return
        w.active = (w.first + w.turns) % w.seats
        w.phase = Phase.MOVE
        return


def legal(w: Work) -> tuple[Action, ...]:
    """The legal set of the current phase, sorted."""
    phase = w.phase
    found: list[Action] = []
    if phase == Phase.FIRST:
        found = [ac.act(ac.FIRST, seat) for seat in range(w.seats)]
    elif phase == Phase.DRAW:
        found = [ac.act(ac.DRAW, t) for t in w.bag]
    elif phase == Phase.START:
        tile = min(w.hand)
        board = w.boards[w.active]
        found = [ac.act(ac.START, tile, c) for c in range(len(board)) if not board[c]]
    elif phase == Phase.MOVE:
        found = [ac.act(ac.MOVE, c) for c in range(len(w.d.columns))]
    elif phase == Phase.SIDE:
        side = head(w.todo, SideChoice)
        found = [ac.act(ac.SIDE, i) for i in choice_sides(w, side.tile, side.column)]
    elif phase == Phase.PICK:
        item = head(w.todo, TileEffect)
        targets = kokeshi_targets(w, item.effect(w.d), item.column)
        found = [ac.act(ac.PICK, c) for c in targets]
    elif phase == Phase.ANIMAL:
        found = [ac.act(ac.ANIMAL, a) for a in open_animals(w)]
    elif phase == Phase.GAIN:
        gain = w.todo[0]
        options = (
            empty_gain_options(w, gain.column)
            if isinstance(gain, EmptyGain)
            else tuple(sorted(w.display))
        )
        found = [ac.act(ac.GAIN, t) for t in options]
    elif phase == Phase.COL:
        columns = room_columns(w) if w.todo else free_columns(w)  # any-column gain or free tile
        found = [ac.act(ac.COL, c) for c in columns]
    elif phase == Phase.PLACE:
        found = [ac.act(ac.PLACE, t) for t in place_options(w)]
    return tuple(sorted(found))


def _draw(w: Work, tile: int) -> None:
    w.bag.remove(tile)
    if not w.in_setup:
        w.display.append(tile)
        w.events.append(("draw", tile))
    elif len(w.bonus) < len(w.d.animals):
        w.bonus.append(tile)
    elif w.setup_done < w.seats:
        w.hand.append(tile)
    else:
        w.display.append(tile)


def _gain(w: Work, tile: int) -> None:
    source = w.todo.pop(0)
    if isinstance(source, EmptyGain) and is_ach(tile):
        take_ach(w, source.column, tile)
        return
    if not isinstance(source, EmptyGain | TileEffect):
        raise TypeError(f"no gain pending: {source!r}")
    w.display.remove(tile)
    if isinstance(source, TileEffect) and source.effect(w.d).where == ANY_COLUMN:  # D21
        w.todo[0:0] = [ColumnChoice(tile), Refill()]
        return
    w.pending.append((source.column, tile))
    w.events.append(("gain", source.column, tile))
    w.todo.insert(0, Refill())


def perform(w: Work, a: Action) -> None:
    """Apply an action already known to be legal, then run to the next stop."""
    kind, v = a.kind, a.values
    if kind == ac.FIRST:
        w.first = v[0]
    elif kind == ac.DRAW:
        _draw(w, v[0])
    elif kind == ac.START:
        w.hand.remove(v[0])
        w.boards[w.active][v[1]].append(v[0])
    elif kind == ac.MOVE:
        w.events = []
        w.queue.append((v[0], 1))
    elif kind == ac.SIDE:
        side = head(w.todo, SideChoice)
        w.todo[0] = TileEffect(side.tile, v[0], side.column)
        w.events.append(("side", side.tile, v[0]))
    elif kind == ac.PICK:
        steps = head(w.todo, TileEffect).effect(w.d).steps
        w.todo.pop(0)
        w.queue.append((v[0], steps))
        w.events.append(("queue", v[0], steps))
    elif kind == ac.ANIMAL:
        w.todo.pop(0)
        advance_animal(w, v[0])
    elif kind == ac.GAIN:
        _gain(w, v[0])
    elif kind == ac.COL:
        if w.todo:
            tile = head(w.todo, ColumnChoice).tile
            w.todo.pop(0)
            w.pending.append((v[0], tile))
            w.events.append(("gain", v[0], tile))
        else:
            place_tile(w, v[0], w.free.pop(0), pending=False)
    elif kind == ac.PLACE:
        column = next(col for col, t in w.pending if t == v[0])
        place_tile(w, column, v[0])
    advance(w)
