"""The "Data last updated" line: every page that reads dated data says how fresh it is.

The date is the newest among the data files the page declared with
:func:`~neuron_docs.dependencies.uses` or shows (the matrices' derived last update, instance prices, source dates).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from docutils import nodes

from ..state.build import dataset
from ..state.dependencies import files_of
from ..data.checking.matrix_files import MATRIX_DIR

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog


def file_dates(catalog: Catalog) -> dict[str, dt.date]:
    """The newest date in each data file that holds dates."""
    found: dict[str, list[dt.date]] = {}
    if latest := catalog.revision():  # each matrix's derived last update (never typed)
        found.setdefault(MATRIX_DIR, []).extend(catalog.history.last_update(latest).values())
    found.setdefault(catalog.file_of("instances"), []).extend(i.price.as_of for i in catalog.instances.values()
                                                          if i.price)
    found.setdefault(catalog.file_of("sources"), []).extend(s.date for s in catalog.sources.values() if s.date)
    found.setdefault(catalog.file_of("prices"), []).extend(p.as_of for p in catalog.prices.values())
    return {name: max(dates) for name, dates in found.items() if dates}


def page_data_date(app: Sphinx, docname: str) -> dt.date | None:
    """The newest date among the data files page ``docname`` reads."""
    used = files_of(app.env, docname)
    dates = file_dates(dataset(app.env).catalog)
    return max((dates[name] for name in used if name in dates), default=None)


def _on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    date = page_data_date(app, docname)
    if date is None:
        return
    line = nodes.paragraph(classes=["neuron-data-updated"])
    line += nodes.emphasis("Data last updated", "Data last updated")
    line += nodes.Text(f": {date.isoformat()}")
    sections = [n for n in doctree.children if isinstance(n, nodes.section)]
    (sections[0] if sections else doctree).append(line)


def setup_data_dates(app: Sphinx) -> None:
    app.connect("doctree-resolved", _on_doctree_resolved)
