"""Pure game engines: rules only, standard library only, no I/O."""
