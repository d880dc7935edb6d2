"""Small self-contained SVG plots for the HTML pages: bars and lines with labelled axes.

No JavaScript and no external file: each plot is an ``<svg>`` element with a ``viewBox``, so it
scales to the page's width (a phone included) and prints; its numbers are also in a table on
the same page. Colours come from the page's stylesheet variables where it has them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

# text FONT_SIZE units high in a WIDTH-unit-wide plot: 11.25 px when the page shows the plot
# 400 px wide (a phone; at least 11), 18 px at its full width
WIDTH, HEIGHT = 640, 320
FONT_SIZE = 18
LEFT, RIGHT, TOP, BOTTOM = 84, 16, 30, 58
COLOURS = ("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d4820f")


def _ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values covering ``low .. high``."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    step = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * step:
            step *= factor
            break
    first = math.floor(low / step) * step
    out = [round(first, 10)]
    while out[-1] < high - step * 1e-9:  # the last tick at or beyond ``high``
        out.append(round(out[-1] + step, 10))
    return out


def _label(value: float) -> str:
    return f"{value:g}"


class _Frame:
    """The plot area and its scales."""

    def __init__(self, xs: Sequence[float], ys: Sequence[float], zero: bool = True) -> None:
        self.xticks = _ticks(min(xs), max(xs))
        low, high = min(ys), max(ys)
        if zero:
            low, high = min(low, 0.0), max(high, 0.0)
        self.yticks = _ticks(low, high)
        self.x0, self.x1 = self.xticks[0], self.xticks[-1]
        self.y0, self.y1 = self.yticks[0], self.yticks[-1]

    def x(self, value: float) -> float:
        return LEFT + (value - self.x0) / ((self.x1 - self.x0) or 1) * (WIDTH - LEFT - RIGHT)

    def y(self, value: float) -> float:
        return HEIGHT - BOTTOM - (value - self.y0) / ((self.y1 - self.y0) or 1) * (HEIGHT - TOP - BOTTOM)

    def axes(self, xlabel: str, ylabel: str) -> list[str]:
        out = []
        for t in self.yticks:
            y = self.y(t)
            out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{LEFT - 6}" y="{y + 6:.1f}" text-anchor="end">{_label(t)}</text>')
        for t in self.xticks:
            x = self.x(t)
            out.append(f'<line x1="{x:.1f}" y1="{HEIGHT - BOTTOM}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM + 4}" '
                       'stroke="#444"/>')
            out.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 22}" text-anchor="middle">{_label(t)}</text>')
        if self.y0 < 0 < self.y1:
            out.append(f'<line x1="{LEFT}" y1="{self.y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{self.y(0):.1f}" '
                       'stroke="#444"/>')
        out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#444"/>')
        out.append(f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" '
                   'stroke="#444"/>')
        out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 10}" text-anchor="middle">'
                   f'{escape(xlabel)}</text>')
        out.append(f'<text x="16" y="{(TOP + HEIGHT - BOTTOM) / 2:.0f}" text-anchor="middle" '
                   f'transform="rotate(-90 16 {(TOP + HEIGHT - BOTTOM) / 2:.0f})">{escape(ylabel)}</text>')
        return out


def _svg(title: str, parts: list[str]) -> str:
    return (f'<figure class="plot"><svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
            f'xmlns="http://www.w3.org/2000/svg" font-size="{FONT_SIZE}" font-family="sans-serif">'
            f'<title>{escape(title)}</title>{"".join(parts)}</svg>'
            f'<figcaption>{escape(title)}</figcaption></figure>')


def bars(title: str, points: Sequence[tuple[float, float]], xlabel: str, ylabel: str) -> str:
    """A bar per ``(x, y)``, x whole numbers (a bar is one unit wide)."""
    xs = [x for x, _ in points]
    frame = _Frame([min(xs) - 0.5, max(xs) + 0.5], [y for _, y in points])
    width = max(1.0, 0.8 * (frame.x(1) - frame.x(0)))
    parts = frame.axes(xlabel, ylabel)
    for x, y in points:
        top, base = frame.y(max(y, 0)), frame.y(min(y, 0))
        parts.append(f'<rect x="{frame.x(x) - width / 2:.1f}" y="{top:.1f}" width="{width:.1f}" '
                     f'height="{max(0.5, base - top):.1f}" fill="{COLOURS[0]}"><title>{_label(x)}: {y:.4g}</title>'
                     '</rect>')
    return _svg(title, parts)


def lines(title: str, series: Mapping[str, Sequence[tuple[float, float]]], xlabel: str, ylabel: str) -> str:
    """One line with dots per named series, and a legend."""
    xs = [x for points in series.values() for x, _ in points]
    ys = [y for points in series.values() for _, y in points]
    frame = _Frame(xs, ys)
    parts = frame.axes(xlabel, ylabel)
    for i, (name, points) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in points:
            parts.append(f'<circle cx="{frame.x(x):.1f}" cy="{frame.y(y):.1f}" r="2.5" fill="{colour}">'
                         f'<title>{escape(name)} {_label(x)}: {y:.4g}</title></circle>')
        parts.append(f'<rect x="{LEFT + 10}" y="{TOP + 4 + 22 * i}" width="14" height="4" fill="{colour}"/>')
        parts.append(f'<text x="{LEFT + 30}" y="{TOP + 11 + 22 * i}">{escape(name)}</text>')
    return _svg(title, parts)
