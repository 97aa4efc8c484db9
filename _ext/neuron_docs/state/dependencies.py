"""What each page depends on in the data, and what a change to it does: re-read, or only rewrite.

A page records, while it is read, the data keys (:mod:`.data.record_keys`) of

* what it **reads**: what its doctree is made of when it is read (objects it registers with their
  titles, section titles, prose checked against the data...). When one of their digests changes,
  ``env-get-outdated`` has the page read again. :func:`uses` declares whole files so.
* what it **shows**: the records its placeholders render when the page is written
  (:mod:`.render`). When one changes, the page is not read again: ``env-updated`` returns it to be
  written again, from the same doctree and the new data. :func:`shows` declares them.

A digest is compared, never a modification time: touching a file, or rewriting it with the same
content, rebuilds nothing. The keys and digests live in the ``neuron`` domain's data (kept with the
environment, cleared and merged per page like the rest of it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .domain import neuron_domain, state
from ..data.record_keys import file_key

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.docutils import SphinxDirective, SphinxRole

READS, SHOWS = "reads", "shows"


def note(env: BuildEnvironment, kind: str, keys: list[str], docname: str | None = None) -> None:
    """Record that page ``docname`` (default: the page being read) ``kind`` (reads or shows) ``keys``."""
    digests = state(env).digests().of(keys)
    neuron_domain(env).note_dependencies(kind, docname or env.docname, digests)


def note_reads(env: BuildEnvironment, *files: str) -> None:
    """The page being read is made of ``files`` (names relative to the data directory; a folder
    ends with ``/``): it is read again when one of them changes."""
    note(env, READS, [file_key(name) for name in files])


def uses(directive: SphinxDirective | SphinxRole, *files: str) -> None:
    """A directive or role builds its nodes from ``files`` when the page is read (see :func:`note_reads`)."""
    note_reads(directive.env, *files)


def shows(env: BuildEnvironment, *keys: str) -> None:
    """The page being read shows ``keys`` when it is written: it is rewritten when one changes."""
    note(env, SHOWS, list(keys))


#: The key of a page that lists what every other page shows (the index of CSV downloads).
EVERY_PAGE = "pages:*"


def shows_every_page(env: BuildEnvironment) -> None:
    """The page being read lists what the other pages show: it is rewritten whenever another page
    is read or rewritten."""
    neuron_domain(env).note_dependencies(SHOWS, env.docname, {EVERY_PAGE: ""})


def files_of(env: BuildEnvironment, docname: str) -> set[str]:
    """The data files page ``docname`` reads or shows (a record's or a collection's file for theirs,
    those a role's output is computed from for its)."""
    digests = state(env).digests()
    found: set[str] = set()
    for kind in (READS, SHOWS):
        for key in neuron_domain(env).dependencies(kind).get(docname, {}):
            found |= digests.files(key)
    return found


def _changed(env: BuildEnvironment, kind: str) -> dict[str, dict[str, str]]:
    """Pages whose ``kind`` keys changed since they were recorded, with the current digests."""
    digests = state(env).digests()
    changed = {}
    for doc, recorded in neuron_domain(env).dependencies(kind).items():
        if doc in env.all_docs:
            now = digests.of(k for k in recorded if k != EVERY_PAGE) | ({EVERY_PAGE: ""} if EVERY_PAGE in recorded else {})
            if now != recorded:
                changed[doc] = now
    return changed


def pages_to_read_again(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                        removed: set[str]) -> list[str]:
    """Pages whose doctree was made of data that changed: read them again."""
    return sorted(_changed(env, READS))


def note_pages_read(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    state(env).pages_read = set(docnames)


def pages_to_write_again(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Pages that show data that changed, read or not this build: write them again, and remember
    the digests they are written with. Pages that list every page follow any other page."""
    rewrite = _changed(env, SHOWS)
    for doc, digests in rewrite.items():
        neuron_domain(env).note_dependencies(SHOWS, doc, digests)
    listing = {doc for doc, keys in neuron_domain(env).dependencies(SHOWS).items() if EVERY_PAGE in keys}
    if (set(rewrite) | state(env).pages_read) - listing:
        rewrite.update(dict.fromkeys(listing & set(env.all_docs), {}))
    return sorted(rewrite)
