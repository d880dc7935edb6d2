"""Games: the preset rule sets (:mod:`~bjcalc.games.presets`) and the side bets beside the
round (:mod:`~bjcalc.games.sidebets`), built on the core's rules."""
