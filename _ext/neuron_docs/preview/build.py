"""Pull-request previews: mark what a change to ``data/`` changes on the pages, and list it.

A *preview build* compares the build's data with ``data/`` as committed at a base revision
(read by :mod:`~neuron_docs.data.revisions`, compared by :mod:`~neuron_docs.data.figures.compare`) and

* marks every place that shows a changed figure: matrix cells (badges with a ``neuron_key``, in a
  cell's paragraph or the paragraph itself),
  table rows of a changed record or of a record whose figures moved (benchmark runs whose cost
  moved with an instance's price, for instance), and ``:neuron:value:`` figures whose expression
  reads a changed figure. A marked node gets the class ``neuron-changed``, a tooltip (an
  ``<abbr title>``) and a visible text note "changed in this preview: old -> new", so that the
  mark never rests on colour alone;
* adds a page ``preview-changes.html``, "Changes in this preview", that lists every change with
  links to each place it appears, and a banner linking to it on the root page and on every page
  with a mark.

Configuration:

``neuron_preview_base`` (default ``""``: no preview)
    The git revision to compare with. Like a pull request's diff, the comparison is with the merge
    base of ``HEAD`` and that revision when they have one (so that later commits on the base
    branch do not show up as reverted), else with the revision itself.
``neuron_preview_repo`` (default ``""``: the repository that holds ``neuron_data_dir``)
    The git repository the base revision is read from.

On Read the Docs a pull-request build has ``READTHEDOCS_VERSION_TYPE=external``; when the
configuration leaves ``neuron_preview_base`` empty, such a build compares with
``$NEURON_PREVIEW_BASE`` if set, else ``origin/main``. Read the Docs does not tell a build the
pull request's base branch, so a project whose pull requests target another branch sets
``NEURON_PREVIEW_BASE`` in its dashboard; its clone is shallow and holds only the pull request's
ref, so ``.readthedocs.yaml`` must fetch the base (``git fetch origin main:refs/remotes/origin/main``
in a ``post_checkout`` job) or the build warns that the base cannot be read (``neuron.preview``).

Why a generated page rather than a source page: the list of places is only complete once every
page has been resolved, which is the end of the write phase (``html-collect-pages``); a generated
page also exists only in preview builds, so the published site never shows an empty "changes"
page nor needs a toctree entry. Marks are made on the resolved doctree (``doctree-resolved``, in
the main process even in parallel builds) and never reach the pickled environment, and a preview
build re-reads every page so that the list covers every page of the site.

This module holds the configuration, the comparison with the base (the :class:`Preview` of a
build, kept by the build's :class:`~neuron_docs.state.build.BuildState`) and the event wiring;
marking the pages is :mod:`.marks`, the changes page :mod:`.page` (its sections :mod:`.report`).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util import logging

from ..state.build import is_html
from ..state.domain import dataset, state
from ..data.figures.compare import compare
from ..data.published.history_view import changes_since
from ..data.revisions import RevisionError, load_revision, resolve
from ..state.domain import OBJECT_TYPES, anchor_for
from ..render.assets import add_stylesheet
from .marks import mark_page
from ..state.preview import Key, Preview
from .page import changes_page

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment



logger = logging.getLogger(__name__)

#: Where a Read the Docs pull-request build compares with when nothing else says.
DEFAULT_RTD_BASE = "origin/main"
CSS_FILE = "preview.css"

#: Catalog collection -> object type whose anchor its table rows carry (``instance-g5-xlarge``; of two
#: types of one collection, the first).
_ROW_OBJTYPE: dict[str, str] = {collection: objtype for objtype, (_, collection) in reversed(OBJECT_TYPES.items())}


def row_id(collection: str, record_id: str) -> str:
    """The HTML id of the table row that shows a record (``run-<id>``, ``instance-<id>``, ...)."""
    if collection == "inference_runs":
        return f"run-{nodes.make_id(record_id)}"
    objtype = _ROW_OBJTYPE.get(collection)
    return anchor_for(objtype, record_id) if objtype else ""


def preview_of(app: Sphinx) -> Preview | None:
    """The preview of the build ``app`` runs, or None when it is not a preview build."""
    return state(app.env).preview


# Configuration ------------------------------------------------------------------------------------

def default_base(configured: str, environ: Mapping[str, str]) -> str:
    """The base revision: the configured one, else the pull-request default on Read the Docs."""
    if configured:
        return configured
    if environ.get("READTHEDOCS_VERSION_TYPE") == "external":
        return environ.get("NEURON_PREVIEW_BASE") or DEFAULT_RTD_BASE
    return ""


def default_preview_base(app: Sphinx, config: Config) -> None:
    # Set the value itself, so that turning a preview on or off rewrites every page (rebuild "html").
    config.neuron_preview_base = default_base(config.neuron_preview_base.strip(), os.environ)


def _comparison_commit(rev: str, repo: Path) -> tuple[str, str]:
    """The commit to read the base data from (the merge base of HEAD and ``rev`` if any, else
    ``rev``) and a label for it."""
    commit = resolve(rev, repo)
    found = subprocess.run(["git", "-C", str(repo), "merge-base", "HEAD", commit], capture_output=True,
                           text=True, check=False)
    merge_base = found.stdout.strip() if found.returncode == 0 and found.stdout.strip() else commit
    if merge_base != commit:
        return merge_base, f"the merge base of HEAD and {rev} ({merge_base[:12]})"
    return commit, commit[:12] if commit.startswith(rev.lower()) else f"{rev} ({commit[:12]})"


def _config_location(app: Sphinx) -> str | None:
    """``conf.py:<line>`` of the ``neuron_preview_base`` setting (line 1 when it is set elsewhere:
    by ``-D``, or by default in a Read the Docs pull-request build)."""
    if not app.confdir or not (conf := Path(app.confdir, "conf.py")).is_file():
        return None
    lines = conf.read_text(encoding="utf-8", errors="replace").splitlines()
    line = next((n for n, text in enumerate(lines, 1) if re.match(r"\s*neuron_preview_base\s*[:=]", text)), 1)
    return f"{conf}:{line}"  # with a line number: Sphinx reads a bare string as a document name


# Computing the diff -------------------------------------------------------------------------------

def make_preview(app: Sphinx) -> None:
    state(app.env).preview = None
    base = app.config.neuron_preview_base
    if not base:
        return
    data_dir = Path(app.config.neuron_data_dir)
    repo = Path(app.confdir, app.config.neuron_preview_repo) if app.config.neuron_preview_repo else data_dir
    try:
        commit, label = _comparison_commit(base, repo)
        base_catalog = load_revision(commit, repo)
    except RevisionError as exc:
        logger.warning("neuron_preview_base: cannot read the data at %r, so changes are not marked "
                       "(fetch that revision, or set neuron_preview_base / NEURON_PREVIEW_BASE): %s",
                       base, exc, location=_config_location(app), type="neuron", subtype="preview")
        return
    head = dataset(app.env).catalog
    diff = compare(base_catalog, head, label, "this build")
    by_key = {change.key: change for change in diff.changes()}
    rows: dict[str, list[Key]] = {}
    for change in diff.records:
        if anchor := row_id(change.key[1], change.key[2]):
            rows.setdefault(anchor, []).append(change.key)
    for value in diff.values:
        if anchor := row_id(value.collection, value.record):
            rows.setdefault(anchor, []).append(value.key)
    state(app.env).preview = Preview(base, label, diff, diff.changed_keys(), by_key, rows,
                                     benchmarks=changes_since(base_catalog, head))


def preview_reads_every_page(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                             removed: set[str]) -> list[str]:
    """A preview build resolves every page, so that the changes page finds every place."""
    if preview_of(app) is None:
        return []
    return sorted(env.found_docs - added - changed - removed)


# Events -------------------------------------------------------------------------------------------

def mark_preview_changes(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    preview = preview_of(app)
    if preview is not None:
        mark_page(app, preview, doctree, docname)


def collect_changes_page(app: Sphinx) -> Iterable[tuple[str, dict[str, Any], str]]:
    preview = preview_of(app)
    return [] if preview is None else changes_page(app, preview)


def add_preview_css(app: Sphinx) -> None:
    """Link ``static/preview.css`` from the pages of an HTML preview build."""
    if is_html(app) and app.config.neuron_preview_base:
        add_stylesheet(app, CSS_FILE)


def setup_preview(app: Sphinx) -> None:
    app.add_config_value("neuron_preview_base", "", "html", types=frozenset({str}),
                         description="Git revision to compare the data with in a preview build ('' = no preview).")
    app.add_config_value("neuron_preview_repo", "", "html", types=frozenset({str}),
                         description="Git repository of the base revision ('' = the one holding neuron_data_dir).")
