-- Rest days: weekdays on which a table's clocks stand still (``bot.service.rest_time``), as
-- weekday numbers ``"5,6"`` (Monday 0; NULL: no rest), and the IANA time zone whose midnights
-- bound them (the host's). A server may set both as defaults for new lobbies.
ALTER TABLE games ADD COLUMN rest_days TEXT;
ALTER TABLE games ADD COLUMN rest_timezone TEXT;
ALTER TABLE server_settings ADD COLUMN rest_days TEXT;
ALTER TABLE server_settings ADD COLUMN rest_timezone TEXT;
