"""The charts in the PDF: each chart's SVG converted to PDF with ``rsvg-convert`` and included.

HTML pages carry a chart's SVG inline (:class:`~neuron_docs.directives.charts.directive.neuron_chart`);
LaTeX cannot. For the LaTeX builder each chart's SVG is written to ``_neuron_charts/<digest>.svg``
in the output directory and converted to ``<digest>.pdf`` (librsvg's ``rsvg-convert``, Debian
``librsvg2-bin``: the same drawing, text as text), and the chart becomes an image of that file. A file is converted once per content. Without ``rsvg-convert``, or when it fails,
the chart is a warning (its data table still follows it).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging

from ..directives.charts.directive import neuron_chart

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

CHARTS_DIR = "_neuron_charts"
CONVERTER = "rsvg-convert"
#: The drawing's size in the PDF, in percent: a pixel of the SVG is a point, and its 12 px text
#: becomes 8.4 pt beside the 10 pt text (never wider than the text: Sphinx caps an image there).
SCALE = 70


def _converted(outdir: Path, svg: str) -> str:
    """The chart's PDF (its path relative to ``outdir``), converted unless it already is."""
    digest = hashlib.sha256(svg.encode("utf-8")).hexdigest()[:20]
    folder = outdir / CHARTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    pdf = folder / f"{digest}.pdf"
    if not pdf.is_file():
        source = folder / f"{digest}.svg"
        source.write_text(svg, encoding="utf-8")
        subprocess.run([CONVERTER, "--format=pdf", f"--output={pdf}", str(source)], check=True,
                       capture_output=True, timeout=60)
    return f"{CHARTS_DIR}/{digest}.pdf"


def draw_charts(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Replace each chart of the LaTeX document with its SVG converted to PDF."""
    if getattr(app.builder, "format", "") != "latex":
        return
    charts = list(doctree.findall(neuron_chart))
    if charts and shutil.which(CONVERTER) is None:
        logger.warning("the PDF's %d charts need %s (Debian: librsvg2-bin); they are left out", len(charts),
                       CONVERTER, location=charts[0], type="neuron", subtype="chart")
        return
    for chart in charts:
        try:
            uri = _converted(Path(app.outdir), chart["svg"])
        except (OSError, subprocess.SubprocessError) as error:
            logger.warning("chart not converted for the PDF: %s", error, location=chart,
                           type="neuron", subtype="chart")
            continue
        chart.replace_self(nodes.image(uri=uri, alt=chart.get("alt", ""), scale=SCALE, candidates={"*": uri}))


def setup_latex_charts(app: Sphinx) -> None:
    app.connect("doctree-resolved", draw_charts)
