"""The search index of an incremental build equals a clean build's: index entries are not lost.

Sphinx keeps the search index's general-index entries (``indexentries`` of ``searchindex.js``) in the
environment, fed when a page is *written*; but the environment is pickled after reading, before
writing. A page a rebuild does not write again therefore has no entries in the environment it
loads, and ``searchindex.js`` reloaded from disk does not restore them (Sphinx reloads titles and
terms, not ``indexentries``): every rebuild lost the entries of the pages it did not write (95 on
the real site, for good). On ``html-collect-pages`` (after every page is written, before the index
is dumped) the entries of each page not written in this build are put back from the index the last
build wrote, which is still on disk then, and the index's words are put in sorted order (a rebuild
adds a new word last, a clean build where its page comes). tests/test_nothing_lost.py compares with a clean build.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable

    from docutils import nodes
    from sphinx.application import Sphinx

_WRITTEN = "_neuron_written_pages"


def _previous(path: Path) -> dict[str, Any] | None:
    """The index the last build dumped (``Search.setIndex({...})``), or None."""
    try:
        text = path.read_text(encoding="utf-8")
        frozen = json.loads(text[text.index("(") + 1:text.rindex(")")])
    except (OSError, ValueError):
        return None
    return frozen if isinstance(frozen, dict) else None


def note_indexed_pages(app: Sphinx) -> None:
    """Note the pages this build indexes: the builder's ``index_page``, called for every page written
    (in the main process, in a parallel build too), wrapped on this builder alone."""
    builder = app.builder
    index_page = getattr(builder, "index_page", None)
    if index_page is None or not hasattr(builder, "searchindex_filename"):
        return
    written: set[str] = set()

    def noting(pagename: str, doctree: nodes.document, title: str) -> None:
        written.add(pagename)
        index_page(pagename, doctree, title)

    setattr(builder, _WRITTEN, written)
    builder.index_page = noting  # type: ignore[attr-defined]


def restore_entries(app: Sphinx) -> Iterable[tuple[str, dict[str, Any], str]]:
    indexer = getattr(app.builder, "indexer", None)
    written = getattr(app.builder, _WRITTEN, None)
    if indexer is None or written is None:
        return []
    _canonical_order(indexer)
    frozen = _previous(Path(app.outdir) / app.builder.searchindex_filename)  # type: ignore[attr-defined]
    if frozen is None:
        return []
    docnames = list(frozen.get("docnames", []))
    restored: dict[str, set[tuple[str, str, str]]] = {}
    for entry, places in frozen.get("indexentries", {}).items():
        for index, anchor, main in places:
            docname = docnames[index]
            if docname not in written and docname in app.env.all_docs:
                restored.setdefault(docname, set()).add((entry, anchor, "main" if main else ""))
    for docname in app.env.all_docs:
        if docname not in written:
            indexer._index_entries[docname] = sorted(restored.get(docname, ()))
    _canonical_order(indexer)
    return []


def _canonical_order(indexer: Any) -> None:
    """The index's words and entries in sorted order, so that ``searchindex.js`` has the same bytes
    whatever order its pages were fed in (a clean build feeds them all, a rebuild adds a word last)."""
    indexer._mapping = dict(sorted(indexer._mapping.items()))
    indexer._title_mapping = dict(sorted(indexer._title_mapping.items()))
    indexer._index_entries = dict(sorted(indexer._index_entries.items()))
