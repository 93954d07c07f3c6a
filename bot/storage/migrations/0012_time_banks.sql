-- Clock kinds: a game's clock is per move (``clock_seconds`` a turn) or a time bank: each seat
-- starts with ``clock_seconds``, a turn uses what it takes and adds ``bank_increment``, never
-- above ``bank_cap`` (seconds of game time; both NULL: a per-move clock).
ALTER TABLE games ADD COLUMN bank_increment INTEGER;
ALTER TABLE games ADD COLUMN bank_cap INTEGER;
-- What a seat's bank holds at the start of its next turn (or of the turn it is playing); NULL:
-- the seat has not played a turn yet, its bank holds the start.
ALTER TABLE seats ADD COLUMN bank_left DOUBLE PRECISION;

-- A server's default clock may be a bank: ``default_clock`` is its start then, and these its
-- increment and cap in hours of game time (both NULL: the default is a per-move clock).
ALTER TABLE server_settings ADD COLUMN default_bank_increment INTEGER;
ALTER TABLE server_settings ADD COLUMN default_bank_cap INTEGER;
