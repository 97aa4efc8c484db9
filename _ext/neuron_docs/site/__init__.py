"""What a built site adds around the pages: the static assets (:mod:`..render.assets`), CSV and JSON downloads
(:mod:`.downloads`), unique ids (:mod:`.ids`), the "Data last updated" line (:mod:`.data_dates`),
sphinx-sitemap without a server process (:mod:`.sitemap`), the device pages generated from the
data (:mod:`.device_pages`) with the overview's table (:mod:`.device_overview`) and the checks that
every device's specifications and matrix are shown (:mod:`.device_checks`), the performance page of
each instance generation the published tables hold (:mod:`.performance_pages`), the generated page
of each revision of the support matrices (:mod:`.revision_pages`), and every page written again when
the navigation they all show changes (:mod:`.navigation`), and for the PDF a LaTeX label for every id a link
can point at (:mod:`.latex_labels`), wide tables split (:mod:`.latex_tables`), for the PDF and the
ePub charts drawn from files (:mod:`.chart_files`); outside HTML, a figure's tooltip is not printed after it
(:mod:`.tooltips`); an ePub's pages well-formed XHTML (:mod:`.epub`), and one anchor per link of the single HTML page
(:mod:`.single_page`); outside the web pages, the content written as HTML from templates (the benchmark
history, What's new's changes) as docutils nodes (:mod:`.html_only`), the advisor's static table a block per family
(:mod:`.advisor_blocks`), the landing page's cards a list and the toctrees' captions the PDF's parts
(:mod:`.front_matter`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import device_overview
from . import device_pages
from . import downloads
from . import ids
from . import performance_pages
from . import revision_pages

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup_site(app: Sphinx) -> None:
    """The site's directives, nodes and settings (its event handlers: :mod:`neuron_docs.lifecycle`)."""
    downloads.setup_downloads(app)
    ids.setup_ids(app)
    device_pages.setup_device_pages(app)
    device_overview.setup_device_overview(app)
    performance_pages.setup_performance_pages(app)
    revision_pages.setup_revision_pages(app)
