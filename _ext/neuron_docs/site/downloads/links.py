"""Where a download is, from any page of any builder, and the ``neuron:download`` role.

The HTML builders (``html``, ``dirhtml``, ``singlehtml``) write the downloads beside the pages and
link to them relatively, from the page's own URL (``downloads/`` under ``dirhtml``). An ePub cannot
hold them (a CSV or JSON file is not a content document a reader may open) and the other builders
(LaTeX, text) write no files: their links go to the published site (``html_baseurl``).

``:neuron:download:`neuron-data.json``` links to ``_downloads/neuron-data.json`` from a page
written by hand, resolved per builder when the page is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole
from sphinx.util.osutil import relative_uri

from ...state.build import is_html
from ...node_data import DOWNLOAD

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

logger = logging.getLogger(__name__)

DOWNLOADS_DIR = "_downloads"


def writes_downloads(app: Sphinx) -> bool:
    """Whether the build writes the download files beside its pages (HTML, not an ePub)."""
    return is_html(app) and not getattr(app.builder, "name", "").startswith("epub")


def links_downloads(app: Sphinx) -> bool:
    """Whether the pages link to their tables' downloads: HTML, ePub and PDF readers can follow a link;
    plain text cannot."""
    return getattr(app.builder, "format", "") in ("html", "latex")


def site_uri(config: Config, path: str) -> str:
    """The download at ``path`` on the published site (``html_baseurl``)."""
    return config.html_baseurl.rstrip("/") + "/" + path


def download_uri(app: Sphinx, docname: str, path: str) -> str:
    """The link from page ``docname`` to the download at ``path`` (``_downloads/...``)."""
    if writes_downloads(app):
        return relative_uri(app.builder.get_target_uri(docname), path)
    return site_uri(app.config, path)


class DownloadRole(SphinxRole):
    """``:neuron:download:`neuron-data.json``` or ``:neuron:download:`title <tables/roadmap.csv>```."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        title, _, target = self.text.partition(" <")
        target = target.removesuffix(">") if target else title
        path = f"{DOWNLOADS_DIR}/{target}"
        # The site's address until the page is written (linkcheck reads links before that)
        reference = nodes.reference(self.rawtext, title, refuri=site_uri(self.config, path),
                                    **DOWNLOAD.attribute(path), classes=["neuron-download-link"])
        return [reference], []


def resolve_download_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Point each ``neuron:download`` link at its file for this builder."""
    for reference in doctree.findall(nodes.reference):
        if path := DOWNLOAD.get(reference):
            reference["refuri"] = download_uri(app, docname, path)
