"""The Discord-free game service: ints and strings in, dataclasses out."""
