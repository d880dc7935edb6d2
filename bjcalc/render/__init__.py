"""The renderers: results into text, Markdown, CSV, JSON and HTML, one module per format
(:mod:`~bjcalc.render.text`, :mod:`~bjcalc.render.markdown`, :mod:`~bjcalc.render.csvfile`,
:mod:`~bjcalc.render.jsondoc`, :mod:`~bjcalc.render.html`), and :mod:`~bjcalc.render.common`,
what they share. Each command has one function per format, named for both
(``chart_text``, ``chart_json``). Nothing here computes a probability.
"""
