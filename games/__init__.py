"""The built-in games, one folder each, laid out as any game kept outside the project is.

``games/<name>/`` holds everything of one game: ``engine/`` (the rules: state, actions, codec;
standard library only), ``bots.py`` (computer opponents), ``words.py`` (words the picture and the
chat both say), ``render/`` (the pictures), ``present`` (words and controls of the chat
messages), ``locales/`` (its catalogue) and ``rules.md`` (the rules it follows). Importing
``games.<name>`` registers the game, exactly as ``BOARDROOM_GAMES`` modules do (the built-in list
is ``engines.registry.BUILTIN_GAMES``); see ``docs/adding-a-game.md``.
"""
