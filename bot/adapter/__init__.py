"""The thin discord.py adapter: commands and components in, service calls, turn messages out."""
