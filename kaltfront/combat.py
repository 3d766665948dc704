"""The damage formula (R26), counter-fire conditions (R29) and ranges (R23).

Exact integer arithmetic throughout: "gerundet" means half away from zero (D2), and floats would put
4.5 at 4.4999… . With S = attack x hp x (10 + level) (strength x 100) and D2 = twice the defence, the
share is S / (S + 50 x D2), and the damage before the random part is 9 x share.
"""

from __future__ import annotations

from .rulesdata import RULES, UnitType


def attack_value(attacker: UnitType, target: UnitType) -> int | None:
    """The attacker's value against the target's armour class, None for "–" (R25)."""
    return attacker.attack.get(target.armour)


def in_range(attacker: UnitType, distance: int) -> bool:
    return attacker.range is not None and attacker.range[0] <= distance <= attacker.range[1]


def defence_twice(target: UnitType, level: int, terrain_defence: int, on_own_building: bool) -> int:
    """Twice the defence: base + terrain bonus (+1 on an own building) + 0.5 per level (R26, R28, R30)."""
    bonus = RULES.own_building_defence if on_own_building else 0
    return 2 * (target.defence + terrain_defence + bonus) + level


def base_damage(attack: int, hp: int, level: int, defence2: int) -> int:
    """Damage without the random part: 9 x share, rounded half away from zero (R26, D2).

    Not yet clamped to [1, target hp]."""
    strength = attack * hp * (10 + level)
    den = strength + 50 * defence2
    num = 9 * strength
    return (2 * num + den) // (2 * den)


def clamp_damage(value: int, target_hp: int) -> int:
    """Every hit does at least 1 and at most the target's hp (R26)."""
    return max(1, min(target_hp, value))
