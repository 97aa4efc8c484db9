"""The one owner of per-build state, and one warning per cause of the data's problems.

:class:`BuildState` holds what a build computes once and every page shares: the validated data
set, the drift engine over it, the preview of a pull-request build, the CSV files written and the
renderers of generated content (:mod:`..render.placeholder`: given by the extension's setup) and the
object types pages make from the data when written (:mod:`.hosted`). It
belongs to the build's ``neuron`` domain instance (:attr:`NeuronDomain.build
<neuron_docs.state.domain.NeuronDomain.build>`), which Sphinx makes afresh for each build and never
pickles, so nothing leaks from one build to the next and parallel readers inherit it by fork.

The one way to a build's state is :func:`.domain.state` (:func:`.domain.neuron_domain`, typed).
The data set is loaded on ``builder-inited`` (before any page is read, :mod:`.loading`), and every
data problem becomes a located warning (``neuron.data``), one per cause (:func:`one_warning_per_cause`).
What each page depends on in it is :mod:`.dependencies`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..data.catalog import Broken
from ..data.dataset import DataSet, load_dataset
from ..data.files.loader import DataError
from ..data.record_keys import RecordDigests
from ..drift.engine import DriftEngine

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.builders import Builder

    from .preview import Preview


@dataclass
class BuildState:
    """What one build computes once: its data set, drift engine, preview and written CSV files."""

    data_dir: Path
    loaded: DataSet | None = None
    drift: DriftEngine | None = None
    #: The preview of a pull-request build (None when the build is not one).
    preview: Preview | None = None
    #: Page-relative CSV name -> (digest, writer docname) of each CSV download written by this build.
    csv_written: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: Docnames of generated pages (devices, matrix revisions) this build deleted (their old HTML goes too).
    generated_pages_removed: list[str] = field(default_factory=list)
    record_digests: RecordDigests | None = None
    #: The pages this build reads (:mod:`.dependencies`).
    pages_read: set[str] = field(default_factory=set)
    #: The titles of the pages this build reads, as they were before (:mod:`.site.navigation`).
    titles_before: dict[str, str | None] = field(default_factory=dict)
    #: Whether this build adds or removes a page (:mod:`.site.navigation`).
    navigation_changed: bool = False
    #: The navigation HTML of pages that are no document, by folder and arguments (:mod:`.site.navigation`).
    navigation_html: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = field(default_factory=dict)
    #: The builder of this build (what generated links are resolved for, :mod:`.render.expand`).
    builder: Builder | None = None
    #: The renderers of generated content this build knows, by name (:func:`..render.placeholder.add_renderers`).
    renderers: dict[str, Callable[[Any, Any], list[nodes.Node]]] = field(default_factory=dict)
    #: Docname -> the page's placeholders rendered ahead of its writing (:class:`..render.expand.RenderedAhead`),
    #: while the build writes its pages (``writing``), and the pages it has written so far.
    rendered_ahead: dict[str, Any] = field(default_factory=dict)
    writing: bool = False
    pages_written: set[str] = field(default_factory=set)
    #: The object types whose places pages make when written, by type (:func:`.hosted.add_hosted_type`).
    hosted: dict[str, Any] = field(default_factory=dict)
    #: (docname, table name) -> the model of a generated table that a later step writes another way
    #: than as a table (a :class:`..render.table_model.TableModel` with nodes of its own: the advisor's
    #: static table as a block per family outside the web builders, :mod:`..site.advisor_blocks`).
    table_models: dict[tuple[str, str], Any] = field(default_factory=dict)

    @property
    def dataset(self) -> DataSet:
        """The data set (loaded on first use when ``builder-inited`` has not loaded it)."""
        if self.loaded is None:
            self.loaded = load_dataset(self.data_dir)
        return self.loaded

    def digests(self) -> RecordDigests:
        """The digest of each data key (:mod:`.data.record_keys`) over this build's data set."""
        if self.record_digests is None or self.record_digests.catalog is not self.dataset.catalog:
            self.record_digests = RecordDigests(self.dataset.catalog, self.dataset.values)
        return self.record_digests

    def drift_engine(self) -> DriftEngine:
        """The drift engine over this build's data set (built once)."""
        if self.drift is None:
            self.drift = DriftEngine(self.dataset.catalog, self.dataset.values)
        return self.drift


#: The builders that write the web pages: the node's HTML as it is (the others get other forms of
#: some content: :mod:`..site.html_only`, :mod:`..site.advisor_blocks`).
WEB_BUILDERS = ("html", "dirhtml", "singlehtml")


def writes_web_pages(builder: Builder) -> bool:
    """Whether ``builder`` writes the web pages (not the ePub, the PDF or text)."""
    return builder.name in WEB_BUILDERS


def is_html(app: Sphinx) -> bool:
    """Whether the build writes HTML (stylesheets, scripts, tooltips, downloads)."""
    return getattr(app.builder, "format", "") == "html"


_CASCADE = re.compile(r"could not be loaded \(see (?P<see>[^:)]+)(?::(?P<line>\d*))?\)"
                      r"|\((?P<read>[^()]+) could not be read\)")


def one_warning_per_cause(errors: list[DataError], broken: Iterable[Broken] = ()
                          ) -> tuple[list[DataError], dict[DataError, str]]:
    """One cause, one warning: the errors that are causes, and for each cause, what it set aside
    elsewhere ("; because of it, N records of M files are set aside: ..."). A cascade (a record
    naming one that could not be loaded or read) is not a warning of its own: it is counted with its
    root cause, followed record by record through the records it names (``broken``: the records set
    aside, by file and line), else through the files it names (the first cause of the file); one
    without a cause is kept."""
    causes = [e for e in errors if not _CASCADE.search(e.message)]
    first_of_file: dict[str, DataError] = {}
    for cause in causes:
        first_of_file.setdefault(cause.file, cause)
    records = {(b.file, b.line): b for b in broken if b.line}
    named: dict[str, set[str]] = {}  # file -> the files its cascades name
    for error in errors:
        match = _CASCADE.search(error.message)
        if match:
            named.setdefault(error.file, set()).add(match.group("see") or match.group("read"))

    def file_roots(file: str, seen: frozenset[str] = frozenset()) -> set[str]:
        if file in first_of_file:
            return {file}
        out: set[str] = set()
        for other in named.get(file, ()):
            if other not in seen:
                out |= file_roots(other, seen | {file})
        return out

    def root(error: DataError, seen: frozenset[tuple[str, int]] = frozenset()) -> DataError | None:
        match = _CASCADE.search(error.message)
        if match is None:
            return error
        target = match.group("see") or match.group("read")
        line = int(match.group("line")) if match.group("line") else None
        record = records.get((target, line)) if line is not None else None
        if record is not None and line is not None and (target, line) not in seen:
            for reason in record.errors:
                found = root(reason, seen | {(target, line)})
                if found is not None:
                    return found
        files = sorted(file_roots(target))
        return first_of_file[files[0]] if files else None

    counted: dict[DataError, list[DataError]] = {}
    for error in errors:
        if not _CASCADE.search(error.message):
            continue
        found = root(error)
        if found is None:
            causes.append(error)
            continue
        counted.setdefault(found, []).append(error)
    affected = {}
    for cause, cascaded in counted.items():
        files = sorted({e.file for e in cascaded})
        shown = ", ".join(files[:4]) + (f" and {len(files) - 4} more" if len(files) > 4 else "")
        affected[cause] = (f"; because of it, {len(cascaded)} record{'s' if len(cascaded) != 1 else ''} of "
                           f"{len(files)} other file{'s' if len(files) != 1 else ''} set aside ({shown})")
    return causes, affected
