"""HTML pages (bjcalc.render.html): structure, every chart cell, legend, escaping, self-containment, and a
real render in a headless browser when one is installed."""

from __future__ import annotations

import copy
import json
import os
import pathlib
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from bjcalc.errors import BjcalcError
from bjcalc.render.html import ASSUMED_FLAG, CODES, PALETTE, TEXT_COLOUR, chart_page, report_page

CHART_FILE = pathlib.Path(__file__).resolve().parent.parent / "tables" / "atlantic-city-gold.json"
UP_CARDS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
TABLE_TAGS = {"table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td"}
# Where each table tag may sit: its parent must be one of these.
PARENTS = {
    "caption": {"table"},
    "thead": {"table"},
    "tbody": {"table"},
    "tfoot": {"table"},
    "colgroup": {"table"},
    "tr": {"thead", "tbody", "tfoot"},
    "th": {"tr"},
    "td": {"tr"},
}
VOID = {"meta", "br", "col", "img", "hr", "input", "link", "wbr", "source"}

RULES = [("shoe", "8 decks"), ("dealer soft 17", "stands (S17)"), ("surrender", "late")]
FIGURES = [("house edge, basic strategy", "0.3557 %")]


class Page(HTMLParser):
    """Collects every element (tag, attributes, parent chain) and checks that tags nest."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict]] = []
        self.elements: list[tuple[str, dict, list[str]]] = []  # tag, attributes, enclosing tags
        self.ancestors: list[set[int]] = []  # indices of the enclosing elements
        self.errors: list[str] = []
        self.text_of: dict[int, list[str]] = {}
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"unclosed: {[t for t, _ in self.stack]}")

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        parents = [t for t, _ in self.stack]
        if tag in PARENTS and (not parents or parents[-1] not in PARENTS[tag]):
            self.errors.append(f"<{tag}> inside <{parents[-1] if parents else None}>")
        self.elements.append((tag, attrs, parents))
        self.ancestors.append({a["_index"] for _, a in self.stack})
        if tag not in VOID:
            attrs["_index"] = len(self.elements) - 1
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1][0] if self.stack else None}>")
            return
        self.stack.pop()

    def handle_data(self, data):
        for _, attrs in self.stack:
            self.text_of.setdefault(attrs["_index"], []).append(data)

    def text(self, index: int) -> str:
        return "".join(self.text_of.get(index, [])).strip()

    def find(self, tag: str, inside: int | None = None, **attrs) -> list[int]:
        """Indices of the ``tag`` elements with these attributes (``data_table``: data-table)."""
        return [
            i
            for i, (t, a, _) in enumerate(self.elements)
            if t == tag
            and (inside is None or inside in self.ancestors[i])
            and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())
        ]


@pytest.fixture(scope="module")
def chart() -> dict:
    return json.loads(CHART_FILE.read_text())


def chart_codes(chart: dict) -> list[str]:
    return [
        chart[kind][row][up]
        for kind in ("hard", "soft", "pairs")
        for row in chart[kind]
        for up in UP_CARDS
    ]


def cells(page: Page) -> list[dict]:
    return [a for t, a, _ in page.elements if t == "td" and "data-code" in a]


def assert_self_contained(text: str) -> None:
    lowered = text.lower()
    for needle in ("<script", "<link", "src=", "href=", "url(", "@import", "http"):
        assert needle not in lowered, f"page is not self-contained: contains {needle!r}"


def test_chart_page_structure_and_every_cell(chart):
    text = chart_page(chart, title="Atlantic City Blackjack Gold", rules=RULES, figures=FIGURES)
    assert text.startswith("<!DOCTYPE html>")
    page = Page(text)
    assert page.errors == []
    assert page.find("meta", charset="utf-8")
    found = cells(page)
    assert len(chart_codes(chart)) == 380
    assert [c["data-code"] for c in found] == chart_codes(chart)
    assert all(c["title"] for c in found)
    for kind, caption, label, rows in (
        ("hard", "Hard totals", "Hard", list(map(str, range(4, 22)))),
        ("soft", "Soft totals", "Soft", list(map(str, range(12, 22)))),
        ("pairs", "Pairs", "Pair", ["A,A"] + [f"{r},{r}" for r in "23456789T"]),
    ):
        (table,) = page.find("table", data_table=kind)
        (cap,) = page.find("caption", inside=table)
        assert page.text(cap) == caption
        assert [page.text(i) for i in page.find("th", inside=table, scope="col")] == [
            label
        ] + UP_CARDS
        assert [page.text(i) for i in page.find("th", inside=table, scope="row")] == rows
        assert len(
            [i for i in page.find("td", inside=table) if "data-code" in page.elements[i][1]]
        ) == 10 * len(rows)


def test_cells_carry_the_play_in_words(chart):
    page = Page(chart_page(chart, title="t", rules=RULES))
    by_title = {c["title"]: c["data-code"] for c in cells(page)}
    # atlantic-city-gold: hard 16 v T is Rh/S (a two-card 16 hits when it cannot surrender, a
    # longer one stands), soft 18 v 3 is Ds, 9,9 v 7 is S, A,A v A is P
    assert by_title["hard 16 v a ten: two cards: surrender if allowed, otherwise hit; "
                    "three or more cards: stand"] == "Rh/S"
    assert by_title["soft 18 v a 3: double if allowed, otherwise stand"] == "Ds"
    assert by_title["pair 9,9 v a 7: stand"] == "S"
    assert by_title["pair A,A v an ace: split"] == "P"
    for c in cells(page):
        assert c["class"] == PALETTE[c["data-code"][0]][0]


def test_legend_lists_every_code_that_appears(chart):
    every = copy.deepcopy(chart)
    every["pairs"]["2"]["2"], every["pairs"]["3"]["3"], every["pairs"]["4"]["5"] = "Ph", "Ps", "Pd"
    every["pairs"]["8"]["A"] = "Rp"
    present = {code for table in ("hard", "soft", "pairs") for row in chart[table].values() for code in row.values()}
    longer = sorted(code for code in present if "/" in code)  # two-card play / three or more cards
    in_every = present | {"Ph", "Ps", "Pd", "Rp"}
    for data, expected in (
        (chart, [code for code in CODES if code in present] + longer),
        (every, [code for code in CODES if code in in_every] + longer),
    ):
        page = Page(chart_page(data, title="t", rules=RULES))
        (legend,) = page.find("ul", **{"class": "legend"})
        items = page.find("li", inside=legend)
        assert [page.elements[i][1]["data-code"] for i in items] == expected
        for i in items:
            code = page.elements[i][1]["data-code"]
            assert CODES[code.partition("/")[0]] in page.text(i)
            if "/" in code:
                assert "three or more cards: " + {"H": "hit", "S": "stand"}[code[-1]] in page.text(i)


def test_rules_and_figures_tables(chart):
    page = Page(chart_page(chart, title="t", rules=RULES, figures=FIGURES, notes=["a note"]))
    for css, caption, rows in (("rules", "Rules", RULES), ("figures", "Figures", FIGURES)):
        (table,) = page.find("table", **{"class": css})
        assert [page.text(i) for i in page.find("caption", inside=table)] == [caption]
        assert [page.text(i) for i in page.find("th", inside=table, scope="row")] == [
            n for n, _ in rows
        ]
        assert [page.text(i) for i in page.find("td", inside=table)] == [v for _, v in rows]
    assert "a note" in [page.text(i) for i in page.find("li")]


def test_pages_are_self_contained(chart):
    assert_self_contained(chart_page(chart, title="t", rules=RULES, figures=FIGURES))
    assert_self_contained(
        report_page(
            title="t", rules=RULES, assumed=["6 decks"], figures=FIGURES, chart=chart, exceptions=[]
        )
    )


def test_all_text_is_escaped(chart):
    evil = "<script>alert('x')</script> & \"q\""
    text = report_page(
        title=evil,
        rules=[(evil, evil)],
        assumed=[evil],
        figures=[(evil, evil)],
        chart=chart,
        exceptions=[{"hand": evil, "up": "T", "chart": evil, "best": evil, "gain": evil}],
        sections=[(evil, [[evil, evil], [evil, evil]], [evil])],
    )
    assert "<script" not in text
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;q&quot;" in text
    page = Page(text)
    assert page.errors == []
    assert page.text(page.find("title")[0]) == evil


def test_report_page(chart):
    exceptions = [
        {"hand": "8,8", "up": "T", "chart": "split", "best": "surrender", "gain": 0.0012345}
    ]
    sections = [
        ("EV by up card", [["up", "EV"], ["A", "-0.340032"], ["T", "-0.171037"]], ["unconditional"])
    ]
    text = report_page(
        title="US casino shoe game",
        rules=RULES,
        assumed=["6 decks: the text says only 'a shoe'"],
        figures=FIGURES,
        chart=chart,
        exceptions=exceptions,
        sections=sections,
    )
    page = Page(text)
    assert page.errors == []
    assert [c["data-code"] for c in cells(page)] == chart_codes(chart)
    (rules_table,) = page.find("table", **{"class": "rules"})
    (assumed_row,) = page.find("tr", inside=rules_table, **{"class": "assumed"})
    assert page.text(assumed_row) == f"assumed{ASSUMED_FLAG}6 decks: the text says only 'a shoe'"
    assert page.find("span", inside=assumed_row, **{"class": "flag"})
    tds = [page.text(i) for i in page.find("td")]
    assert ["T", "split", "surrender", "0.001234"] == tds[tds.index("T") : tds.index("T") + 4]
    assert "-0.171037" in tds
    assert [page.text(i) for i in page.find("h2")] == [
        "Strategy chart",
        "Exceptions",
        "EV by up card",
    ]


def test_report_without_exceptions_says_so(chart):
    text = report_page(
        title="t", rules=RULES, assumed=[], figures=FIGURES, chart=chart, exceptions=[]
    )
    assert "No two-card hand has a composition-dependent play that beats the chart." in text
    assert 'class="assumed"' not in text


def test_bad_chart_is_refused(chart):
    missing = copy.deepcopy(chart)
    del missing["soft"]["17"]["A"]
    with pytest.raises(BjcalcError, match="soft row '17' has no cell for up card 'A'"):
        chart_page(missing, title="t", rules=RULES)
    unknown = copy.deepcopy(chart)
    unknown["hard"]["12"]["2"] = "X"
    with pytest.raises(BjcalcError, match="unknown chart code 'X'"):
        chart_page(unknown, title="t", rules=RULES)


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


@pytest.mark.parametrize("letter", sorted(PALETTE))
def test_cell_colours_keep_the_code_readable(letter):
    """WCAG 2 contrast of the printed code on its cell: AAA (7:1) for normal text."""
    light, dark = sorted((_luminance(PALETTE[letter][1]), _luminance(TEXT_COLOUR)), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 7


def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


# In CI (which installs Debian's chromium, .ci/run) a missing browser is a failure, not a skip.
_NEEDS_BROWSER = pytest.mark.skipif(
    _browser() is None and not os.environ.get("CI"),
    reason="no headless browser installed: apt-get install chromium",
)


def _headless(tmp_path):
    """The browser in headless mode, as this machine's closed network needs it, with a fresh
    profile."""
    return [
        _browser(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]


@_NEEDS_BROWSER
def test_headless_browser_renders_the_chart(chart, tmp_path):
    page_file = tmp_path / "page.html"
    page_file.write_text(
        report_page(
            title="Atlantic City Blackjack Gold",
            rules=RULES,
            assumed=["a note"],
            figures=FIGURES,
            chart=chart,
            exceptions=[],
        ),
        encoding="utf-8",
    )
    common = _headless(tmp_path)
    png = tmp_path / "page.png"
    subprocess.run(
        common + [f"--screenshot={png}", "--window-size=1200,1600", page_file.as_uri()],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert png.exists(), "the browser wrote no screenshot"
    assert png.read_bytes().startswith(b"\x89PNG")
    assert png.stat().st_size > 10_000, "the screenshot is (nearly) blank"
    dom = subprocess.run(
        common + ["--dump-dom", page_file.as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    ).stdout
    rendered = Page(dom)
    assert [c["data-code"] for c in cells(rendered)] == chart_codes(chart)


@_NEEDS_BROWSER
@pytest.mark.parametrize("paper", ["Letter", "A4"])
def test_printed_chart_fits_one_page(chart, tmp_path, paper):
    text = chart_page(
        chart,
        title="Basic strategy: Atlantic City Blackjack Gold (Microgaming, online RNG)",
        rules=RULES * 5,
        figures=FIGURES * 3,
        notes=["EVs per initial bet."],
    )
    assert "@page { size: auto;" in text
    page_file = tmp_path / "page.html"
    page_file.write_text(
        text.replace("@page { size: auto;", f"@page {{ size: {paper};"), encoding="utf-8"
    )
    pdf = tmp_path / "page.pdf"
    subprocess.run(
        _headless(tmp_path)
        + [
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page_file.as_uri(),
        ],
        capture_output=True,
        timeout=60,
        check=False,
    )
    # Chromium writes each page as an uncompressed "/Type /Page" dictionary.
    pages = re.findall(rb"/Type\s*/Page\b(?!s)", pdf.read_bytes())
    assert len(pages) == 1, f"the chart prints on {len(pages)} {paper} pages"


# What a phone shows: the page in a frame of a phone's width (a headless window is at least 500 px
# wide, so the page is framed), one frame per width in one browser run. Reports, per width, the
# frame's scroll and client widths, every element whose right edge lies beyond the client width,
# and every element whose content spills out of its own box (a legend swatch narrower than its
# code), screen-reader-only captions aside.
PHONE_WIDTHS = (420, 400)
_PHONE_FRAME = """<iframe class="phone" data-width="{width}" style="display:block;border:0;width:{width}px;
height:3000px" srcdoc="{page}"></iframe>"""
_PHONE_PROBE = """<!doctype html><html><body style="margin:0">{frames}<script>
const frames = [...document.querySelectorAll("iframe.phone")], found = {{}};
frames.forEach(frame => frame.addEventListener("load", () => {{
  const doc = frame.contentDocument, root = doc.documentElement;
  const all = [...doc.querySelectorAll("body *")];
  const beyond = all
    .filter(el => el.getBoundingClientRect().right > root.clientWidth + 0.5)
    .map(el => el.tagName.toLowerCase() + ": " + (el.textContent || "").trim().slice(0, 30));
  const spills = all
    .filter(el => !el.classList.contains("sr-only") && el.clientWidth > 0
                  && el.scrollWidth > el.clientWidth + 0.5 && getComputedStyle(el).overflowX === "visible")
    .map(el => el.tagName.toLowerCase() + "." + el.className + ": " + (el.textContent || "").trim().slice(0, 30));
  found[frame.dataset.width] = [root.scrollWidth, root.clientWidth, beyond, spills];
  if (Object.keys(found).length === frames.length) {{
    document.body.setAttribute("data-phone", JSON.stringify(found));
  }}
}}));
</script></body></html>"""


@_NEEDS_BROWSER
@pytest.mark.parametrize("page", sorted(p.name for p in CHART_FILE.parent.glob("*.html")) + ["chart page",
                                                                                           "truecount page"])
def test_pages_need_no_sideways_scrolling_on_a_phone(chart, tmp_path, page):
    """Issue 12: readable on a phone, no sideways scrolling at 420 px (every generated report, and
    a chart page with long rules and figures); issue 19: at 400 px the legend's Rh/S swatch spilled
    out of its box. Both widths in one browser run."""
    import html as html_module

    if page == "truecount page":  # issue 21: its plots (inline SVG) and tables
        from fractions import Fraction

        from bjcalc import Rules, Spread, truecount_analysis
        from bjcalc.render.html import truecount_html

        rules = Rules(decks=1, split_hands=2, surrender="late")
        result = truecount_analysis(rules, "hi-lo", (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), penetration=Fraction(6, 52),
                                    placement="spaced", indices="published", spread=Spread.parse("<=0:1,>=1:4"),
                                    workers=1, optimal_spread=4, bankroll=100)
        text = truecount_html(result, rules)
        assert text.count("<svg") == 2  # one penetration: no plot against it (issue 45 item 17)
    elif page == "chart page":
        text = chart_page(chart, title="Basic strategy: Atlantic City Blackjack Gold (Microgaming, online RNG)",
                          rules=RULES * 3, figures=FIGURES * 2, notes=["EVs per initial bet."])
    else:
        text = (CHART_FILE.parent / page).read_text(encoding="utf-8")
    probe = tmp_path / "phone.html"
    frames = "".join(_PHONE_FRAME.format(page=html_module.escape(text, quote=True), width=width)
                     for width in PHONE_WIDTHS)
    probe.write_text(_PHONE_PROBE.format(frames=frames), encoding="utf-8")
    dom = subprocess.run(
        _headless(tmp_path) + ["--window-size=800,1000", "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
        capture_output=True, text=True, timeout=60, check=False,
    ).stdout
    found = re.search(r'data-phone="([^"]*)"', dom)
    assert found, "the browser did not run the probe"
    measured = json.loads(html_module.unescape(found.group(1)))
    assert sorted(measured) == sorted(str(width) for width in PHONE_WIDTHS)
    for width in PHONE_WIDTHS:
        scroll_width, client_width, beyond, spills = measured[str(width)]
        assert client_width >= width - 20  # the frame, less a scroll bar
        assert scroll_width <= client_width, f"{page} scrolls sideways at {width} px: {scroll_width} > {client_width}"
        assert beyond == [], f"{page}: elements beyond the right edge at {width} px: {beyond}"
        assert spills == [], f"{page}: content wider than its box at {width} px: {spills}"
