"""The one code for a play in the engine's arrays (and the charts' decision arrays).

Arrays hold plain integers; :class:`Code` names them. The public :class:`bjcalc.Action` is the
same set of plays as chart letters; :data:`ACTION` and :data:`CODE` translate.
"""

from __future__ import annotations

import enum

from bjcalc.actions import Action


class Code(enum.IntEnum):
    """A play as an array entry. ``NONE``: no special first play (a chart cell that neither
    doubles nor surrenders; a pair played as its total)."""

    NONE = -1
    STAND = 0
    HIT = 1
    DOUBLE = 2
    SURRENDER = 3
    SPLIT = 4


ACTION = {Code.STAND: Action.STAND, Code.HIT: Action.HIT, Code.DOUBLE: Action.DOUBLE,
          Code.SURRENDER: Action.SURRENDER, Code.SPLIT: Action.SPLIT}
CODE = {action: code for code, action in ACTION.items()}
