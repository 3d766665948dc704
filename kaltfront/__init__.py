"""Kaltfront: the rules engine of a hex wargame on the coasts of the Baltic and the North Sea.

Public API (docs/api.md) — being built; see the README.
"""
__version__ = "0.1.0"
