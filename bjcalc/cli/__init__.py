"""The ``bjcalc`` command. It only builds :class:`~bjcalc.rules.Rules`, calls the library and
hands the result to :mod:`bjcalc.render`.

Every bad input ends in one line, ``Error: ...``, on stderr and exit status 2. Ctrl-C
(``SIGINT``) and ``SIGTERM`` stop the run at once, worker processes included, with one line and
exit status 130 or 143 (what the store holds stays there).
"""

# each family's module registers its commands on the group
from bjcalc.cli import analysis, counting, games  # noqa: E402, F401, I001
from bjcalc.cli.common import cli, main

__all__ = ["cli", "main"]
