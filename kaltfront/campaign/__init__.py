"""Feldzug, the campaign mode (FELDZUG.md C1–C12; docs/campaign.md): regions of the western Baltic won
and lost in linked Kaltfront battles.

Public API, in the battle engine's style: `new_campaign`, `Campaign` (`legal_orders(side)`,
`apply(order)`, `observe(side)`, `to_json()`, `Campaign.from_json(text)`, `battle_game`),
`IllegalOrder` (German message, nothing changed), `SaveError`, `CampaignAI` (the computer's strategic
step at leicht, normal or schwer) and `load_campaign_map`.
"""

from __future__ import annotations

from ..save import SaveError
from .ai import CampaignAI
from .feldzug import STRENGTHS, Campaign, IllegalOrder, new_campaign, taktikpunkte
from .mapdata import CampaignMap, Region, load_campaign_map

__all__ = ["Campaign", "CampaignAI", "CampaignMap", "IllegalOrder", "Region", "STRENGTHS", "SaveError",
           "load_campaign_map", "new_campaign", "taktikpunkte"]
