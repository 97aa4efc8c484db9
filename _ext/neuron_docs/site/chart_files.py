"""Charts as files, for the builders that cannot hold a chart's SVG inline: the PDF and the ePub.

HTML pages carry a chart's SVG inline (:class:`~neuron_docs.directives.charts.directive.neuron_chart`).
LaTeX cannot, and in an ePub a page with inline SVG must be declared so in the package (Sphinx does
not: epubcheck's OPF-014). So for these builders each chart's SVG is written to
``_neuron_charts/<digest>.svg`` in the output directory, and the chart becomes an image of it: for the
ePub the SVG itself (a core media type of EPUB 3), for LaTeX that SVG converted to ``<digest>.pdf`` by
librsvg's ``rsvg-convert`` (Debian ``librsvg2-bin``: the same drawing, text as text). A file is
written and converted once per content. Without ``rsvg-convert``, or when it fails, a chart of the
PDF is a warning (its data table still follows it).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging
from sphinx.util.osutil import relative_uri

from ..directives.charts.directive import neuron_chart

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

CHARTS_DIR = "_neuron_charts"
CONVERTER = "rsvg-convert"
#: The drawing's size in the PDF, in percent: a pixel of the SVG is a point, and its 12 px text
#: becomes 8.4 pt beside the 10 pt text (never wider than the text: Sphinx caps an image there).
SCALE = 70


def _svg_file(outdir: Path, svg: str) -> Path:
    """The chart's SVG file in ``outdir`` (named by its content), written unless it already is."""
    digest = hashlib.sha256(svg.encode("utf-8")).hexdigest()[:20]
    path = outdir / CHARTS_DIR / f"{digest}.svg"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    return path


def _converted(svg: Path) -> Path:
    """The chart's PDF beside its SVG, converted unless it already is."""
    pdf = svg.with_suffix(".pdf")
    if not pdf.is_file():
        subprocess.run([CONVERTER, "--format=pdf", f"--output={pdf}", str(svg)], check=True,
                       capture_output=True, timeout=60)
    return pdf


def _pdf_charts(app: Sphinx, charts: list[neuron_chart]) -> None:
    if charts and shutil.which(CONVERTER) is None:
        logger.warning("the PDF's %d charts need %s (Debian: librsvg2-bin); they are left out", len(charts),
                       CONVERTER, location=charts[0], type="neuron", subtype="chart")
        return
    for chart in charts:
        try:
            pdf = _converted(_svg_file(Path(app.outdir), chart["svg"]))
        except (OSError, subprocess.SubprocessError) as error:
            logger.warning("chart not converted for the PDF: %s", error, location=chart,
                           type="neuron", subtype="chart")
            continue
        uri = f"{CHARTS_DIR}/{pdf.name}"
        chart.replace_self(nodes.image(uri=uri, alt=chart.get("alt", ""), scale=SCALE, candidates={"*": uri}))


def _epub_charts(app: Sphinx, charts: list[neuron_chart], docname: str) -> None:
    for chart in charts:
        svg = _svg_file(Path(app.outdir), chart["svg"])
        uri = relative_uri(app.builder.get_target_uri(docname), f"{CHARTS_DIR}/{svg.name}")
        chart.replace_self(nodes.image(uri=uri, alt=chart.get("alt", ""), candidates={"*": uri},
                                       classes=["neuron-chart-image"]))


def chart_files(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Replace each chart of a PDF or ePub page with an image of its file."""
    charts = list(doctree.findall(neuron_chart))
    if getattr(app.builder, "format", "") == "latex":
        _pdf_charts(app, charts)
    elif app.builder.name.startswith("epub"):
        _epub_charts(app, charts, docname)
