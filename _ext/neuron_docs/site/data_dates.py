"""The "Data last updated" line: one date for the whole site, computed once.

:func:`data_last_updated` is the one answer, which every page that reads or shows data prints (the
line at the end of its first section), and the downloads print too (the data downloads' intro, the
JSON's ``data_last_updated``). It is the newest of the dates the data holds (:func:`file_dates`, per
file):

* the benchmark data's date: the date of the latest published state of the benchmark history
  (``benchmarks/history/states.csv``, :func:`~neuron_docs.data.published.history_view.benchmark_data_date`).
  The published tables' source (``neuron-sdk-benchmarks``) and the prices it publishes (the
  RI-effective rates of ``prices.yaml``) are dated by that history, never by the day they were read
  (their ``date`` and ``as_of``): the history knows when their figures last changed. Without a
  history they keep their own dates;
* the support matrices' last update (each matrix's latest revision that changed it, derived);
* the on-demand prices' ``as_of`` (``instances.yaml``), the other prices' ``as_of``;
* the other sources' dates (the document version a figure was read from: the hardware pages).

A new date (a new published state, a price, a revision) rewrites every page that prints it, and
reads none again.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from docutils import nodes

from ..data.checking.matrix_files import MATRIX_DIR
from ..data.published.history_view import benchmark_data_date
from ..state.domain import dataset, neuron_domain
from ..state.dependencies import EVERY_PAGE, READS, SHOWS

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..data import Catalog

#: Where the domain keeps the date the pages were last written with.
_WRITTEN_WITH = "data_last_updated"


def history_sources(catalog: Catalog) -> set[str]:
    """The sources the benchmark history follows (the published tables'), when it has a state."""
    if not catalog.benchmark_states:
        return set()
    return {table.source for table in catalog.published_tables.values()}


def file_dates(catalog: Catalog) -> dict[str, dt.date]:
    """The newest date in each data file that holds dates (see the module's docstring)."""
    dated_by_history = history_sources(catalog)
    found: dict[str, list[dt.date]] = {}
    if latest := catalog.revision():  # each matrix's derived last update (never typed)
        found.setdefault(MATRIX_DIR, []).extend(catalog.matrix_revisions.last_update(latest).values())
    found.setdefault(catalog.file_of("instances"), []).extend(i.price.as_of for i in catalog.instances.values()
                                                          if i.price)
    found.setdefault(catalog.file_of("sources"), []).extend(
        s.date for s in catalog.sources.values() if s.date and s.id not in dated_by_history)
    found.setdefault(catalog.file_of("prices"), []).extend(
        p.as_of for p in catalog.prices.values() if p.source not in dated_by_history)
    if benchmarks := benchmark_data_date(catalog):
        found.setdefault(catalog.file_of("benchmark_states"), []).append(benchmarks)
    return {name: max(dates) for name, dates in found.items() if dates}


def data_last_updated(catalog: Catalog) -> dt.date | None:
    """The site's "Data last updated": the newest date of :func:`file_dates`; None when the data has none."""
    return max(file_dates(catalog).values(), default=None)


def shows_data(env: BuildEnvironment, docname: str) -> bool:
    """Whether page ``docname`` reads or shows data (and so prints the line)."""
    domain = neuron_domain(env)
    return any(set(domain.dependencies(kind).get(docname, {})) - {EVERY_PAGE} for kind in (READS, SHOWS))


def pages_of_a_moved_date(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Every page that prints the date, when the date moved since the pages were written."""
    date = data_last_updated(dataset(env).catalog)
    now = date.isoformat() if date else ""
    domain = neuron_domain(env)
    before = domain.data.get(_WRITTEN_WITH)
    domain.data[_WRITTEN_WITH] = now
    if before is None or before == now:
        return []
    return sorted(doc for doc in env.found_docs if shows_data(env, doc))


def fill_data_dates(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if not shows_data(app.env, docname):
        return
    written = neuron_domain(app.env).data.get(_WRITTEN_WITH)  # computed once per build, when every page is read
    if written is None:
        date = data_last_updated(dataset(app.env).catalog)
        written = date.isoformat() if date else ""
    if not written:
        return
    line = nodes.paragraph(classes=["neuron-data-updated"])
    line += nodes.emphasis("Data last updated", "Data last updated")
    line += nodes.Text(f": {written}")
    sections = [n for n in doctree.children if isinstance(n, nodes.section)]
    (sections[0] if sections else doctree).append(line)
