"""Benchmarks: strength and speed figures that tests do not assert."""
