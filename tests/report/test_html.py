"""The HTML page: numbers, escaping, messages and anchors."""

from __future__ import annotations

import math

from splash.core.i18n import message
from splash.report.html import Page, format_number


def test_numbers_keep_three_significant_figures_without_exponents_for_large_ones() -> None:
    assert format_number(0.123456) == "0.123"
    assert format_number(1069.7) == "1070"
    assert format_number(12.0) == "12"
    assert format_number(math.nan) == "\u2013"
    assert format_number(math.inf) == "\u221e"


def test_sections_take_messages_and_anchors_and_escape_everything() -> None:
    page = Page("<Report>")
    section = page.section(message("Who {verb}", verb="wins"), anchor="wins")
    section.paragraph(message("a < b for {name}", name="<script>"))
    section.table([message("who")], [["A & B"]], caption=message("caption"))
    section.definitions([(message("term"), "x > y")])
    html = page.render()
    assert '<section id="wins"><h2>Who wins</h2>' in html
    assert "<p>a &lt; b for &lt;script&gt;</p>" in html
    assert "<td>A &amp; B</td>" in html
    assert "<dt>term</dt><dd>x &gt; y</dd>" in html
    assert "<title>&lt;Report&gt;</title>" in html
    assert "<script>" not in html
