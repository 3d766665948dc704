"""The seeded random generator kept in the game state (D2).

SplitMix64 on plain integers: its whole state is one number, so a save holds it, a loaded game goes on
exactly as the original would, and CPython and Pyodide give identical sequences.
"""

MASK64 = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return seed & MASK64


def next_value(state: int) -> tuple[int, int]:
    """Advance the state; returns (new_state, 64-bit random value)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def damage_roll(state: int) -> tuple[int, int]:
    """The random part of a hit: -1, 0 or +1 with equal chance (D2). Returns (new_state, roll)."""
    state, value = next_value(state)
    return state, value % 3 - 1
