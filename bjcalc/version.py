"""bjcalc's version: in every stored result's key (:func:`bjcalc.counting.tasks.task_key`) and
``bjcalc --version``; a module of its own, so that nothing inside imports the package door."""

__version__ = "0.1.0"
