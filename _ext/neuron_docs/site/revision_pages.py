"""One generated page per revision of the support matrices, and a page listing them.

With ``neuron_revision_pages = "matrix"`` in ``conf.py``, on ``builder-inited`` (after the data
set is loaded), as Sphinx's ``autosummary`` writes its stub
pages, ``<source>/<neuron_revision_pages>/<date>.rst`` is written for every valid revision (the
revision as it was published: ``.. neuron:support-matrices::`` with ``:revision:``) and
``index.rst`` lists them, newest first. The pages come from the data alone: a new revision file
gives a new page, a removed one takes its page away. A file is rewritten only when its text
changes, so unchanged pages are not read again; the HTML of a removed page is deleted at the end
of the build. The folder is generated (kept out of git).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..state.domain import dataset, state
from .device_pages import write

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog

#: The first line of every generated page: only files that start with it are ever removed.
MARKER = ".. Generated from data/matrix/ by neuron_docs.site.revision_pages; do not edit."


def _title(text: str) -> list[str]:
    return [text, "=" * len(text)]


def pages(catalog: Catalog) -> dict[str, str]:
    """File name -> text of every generated page."""
    out: dict[str, str] = {}
    names = [rev.name for rev in reversed(catalog.matrix_revisions.revisions)]  # ISO dates: safe in markup
    for name in names:
        # Only the date goes into the markup; the directive renders the revision's own text as nodes.
        body = [MARKER, "", *_title(f"Support matrices as of {name}"), "",
                ".. neuron:support-matrices::", f"   :revision: {name}", ""]
        out[f"{name}.rst"] = "\n".join(body)
    index = [MARKER, "", *_title("Earlier revisions of the support matrices"), "",
             "Every published revision of the support matrices, newest first, each as it was published.", "",
             ".. toctree::", "   :maxdepth: 1", "", *(f"   {name}" for name in names), ""]
    out["index.rst"] = "\n".join(index)
    return out


def generate_revision_pages(app: Sphinx) -> None:
    if not app.config.neuron_revision_pages:
        return
    folder = app.config.neuron_revision_pages
    _, removed = write(Path(app.srcdir) / folder, pages(dataset(app.env).catalog), MARKER)
    # Their old HTML is deleted at the end of the build (device_pages' build-finished handler).
    state(app.env).generated_pages_removed.extend(f"{folder}/{Path(name).stem}" for name in removed)


def setup_revision_pages(app: Sphinx) -> None:
    app.add_config_value("neuron_revision_pages", "", "env", types=frozenset({str}),
                         description="Folder (relative to the source directory) of the generated page of each "
                                     "revision of the support matrices; empty: no such pages.")
