"""Self-contained HTML pages for the designer reports: :class:`Page`.

A page is a title, an introduction and a list of sections; a section holds paragraphs,
tables, figures and definition lists.  Figures are matplotlib figures embedded as base64
PNG, so the page is one file a browser opens with nothing else beside it.  Every text is
escaped; nothing from a results file reaches the page as markup.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from splash.core.errors import DocumentError
from splash.core.i18n import Message, message
from splash.sim.stats import NO_VALUE

if TYPE_CHECKING:
    from matplotlib.figure import Figure

EMPTY = NO_VALUE
"""What an empty or undefined cell shows (an en dash)."""

Cell = str | int | float | None
"""What a table cell may hold; floats are written with :func:`format_number`."""

Text = str | Message
"""A text of the page: plain, or a message rendered in the current language."""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem;
       padding: 0 1rem; color: #1b2733; line-height: 1.45; }
h1 { font-size: 1.7rem; border-bottom: 3px solid #2b7bb9; padding-bottom: .3rem; }
h2 { font-size: 1.3rem; margin-top: 2.2rem; color: #1f5f8f; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .92rem; }
th, td { border: 1px solid #c9d3dc; padding: .25rem .6rem; text-align: right; }
th { background: #eaf2f8; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1rem 0; } figure img { max-width: 100%; }
figcaption { font-size: .88rem; color: #4a5a68; }
dl dt { font-weight: 600; margin-top: .6rem; } dl dd { margin-left: 1.2rem; }
.note { font-size: .9rem; color: #4a5a68; }
.significant { font-weight: 600; color: #b03a2e; }
"""


def format_number(value: float, digits: int = 3) -> str:
    """``value`` with ``digits`` significant figures (``nan`` as an en dash)."""
    if math.isnan(value):
        return EMPTY
    if math.isinf(value):
        return "\u221e" if value > 0 else "\u2212\u221e"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    if abs(value) >= 10**digits:
        return f"{value:.0f}"
    return f"{value:.{digits}g}"


def _escape(text: Text) -> str:
    return html.escape(str(text))


def _cell(value: Cell) -> str:
    if value is None:
        return EMPTY
    if isinstance(value, float):
        return format_number(value)
    return str(value)


def figure_png(figure: Figure) -> bytes:
    """``figure`` drawn as PNG bytes (the figure is closed afterwards)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


@dataclass
class Section:
    """One section of a page: a heading and its blocks of HTML, in order."""

    heading: str
    blocks: list[str] = field(default_factory=list)
    anchor: str | None = None

    def paragraph(self, text: Text, *, note: bool = False) -> Section:
        """Add a paragraph of plain text (``note`` sets it in the smaller grey style)."""
        css = ' class="note"' if note else ""
        self.blocks.append(f"<p{css}>{_escape(text)}</p>")
        return self

    def table(
        self,
        columns: Sequence[Text],
        rows: Sequence[Sequence[Cell]],
        *,
        caption: Text | None = None,
        emphasis: Sequence[bool] | None = None,
    ) -> Section:
        """Add a table; ``emphasis[i]`` marks row ``i`` as significant."""
        head = "".join(f"<th>{_escape(c)}</th>" for c in columns)
        body = []
        for index, row in enumerate(rows):
            css = ' class="significant"' if emphasis is not None and emphasis[index] else ""
            cells = "".join(f"<td>{html.escape(_cell(v))}</td>" for v in row)
            body.append(f"<tr{css}>{cells}</tr>")
        title = f"<caption>{_escape(caption)}</caption>" if caption else ""
        self.blocks.append(
            f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        )
        return self

    def figure(self, figure: Figure, caption: Text, *, alt: Text | None = None) -> Section:
        """Add a matplotlib figure as an embedded PNG with its caption."""
        data = base64.b64encode(figure_png(figure)).decode("ascii")
        text = _escape(alt if alt is not None else caption)
        self.blocks.append(
            f'<figure><img src="data:image/png;base64,{data}" alt="{text}">'
            f"<figcaption>{_escape(caption)}</figcaption></figure>"
        )
        return self

    def items(self, texts: Sequence[Text], *, emphasis: Sequence[bool] | None = None) -> Section:
        """Add a bulleted list; ``emphasis[i]`` marks item ``i`` as significant."""
        marked = ' class="significant"'
        entries = "".join(
            f"<li{marked if emphasis is not None and emphasis[i] else ''}>{_escape(text)}</li>"
            for i, text in enumerate(texts)
        )
        self.blocks.append(f"<ul>{entries}</ul>")
        return self

    def definitions(self, items: Sequence[tuple[Text, Text]]) -> Section:
        """Add a definition list of ``(term, definition)`` pairs."""
        entries = "".join(
            f"<dt>{_escape(term)}</dt><dd>{_escape(text)}</dd>" for term, text in items
        )
        self.blocks.append(f"<dl>{entries}</dl>")
        return self


@dataclass
class Page:
    """A whole report page; :meth:`render` gives the HTML text."""

    title: str
    introduction: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    language: str = "en"

    def section(self, heading: Text, *, anchor: str | None = None) -> Section:
        """A new section at the end of the page (``anchor``: its ``id``, for links)."""
        section = Section(str(heading), anchor=anchor)
        self.sections.append(section)
        return section

    def render(self) -> str:
        """The page as one self-contained HTML document."""
        intro = "".join(f"<p>{html.escape(text)}</p>" for text in self.introduction)
        parts = [
            "<!DOCTYPE html>",
            f'<html lang="{html.escape(self.language)}"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(self.title)}</title><style>{STYLE}</style></head><body>",
            f"<h1>{html.escape(self.title)}</h1>{intro}",
        ]
        for section in self.sections:
            anchor = f' id="{html.escape(section.anchor)}"' if section.anchor else ""
            parts.append(f"<section{anchor}><h2>{html.escape(section.heading)}</h2>")
            parts.extend(section.blocks)
            parts.append("</section>")
        parts.append("</body></html>")
        return "\n".join(parts)


def write_page(path: Path, page: Page) -> None:
    """Write ``page`` to ``path`` as one HTML file; a :class:`DocumentError` naming the file
    when it cannot be written."""
    try:
        path.write_text(page.render(), encoding="utf-8")
    except OSError as error:
        raise DocumentError(
            message("cannot write {file}: {error}", file=str(path), error=str(error))
        ) from None
