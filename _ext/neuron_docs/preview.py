"""Pull-request previews: mark what a change to ``data/`` changes on the pages, and list it.

A *preview build* compares the build's data with ``data/`` as committed at a base revision
(:mod:`~neuron_docs.matrix_diff`) and

* marks every place that shows a changed figure: matrix cells (badges with a ``neuron_key``),
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
"""

from __future__ import annotations

import html
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from docutils import nodes
from sphinx.util import logging

from .data.expressions import PATH_RE
from .domain import OBJECT_TYPES, anchor_for
from .matrix_diff import (CellChange, MatrixDiff, RecordChange, RevisionError, ValueChange, compare, load_revision,
                          resolve)
from .store import dataset
from .tables import FIT_TEXT, STATUS_TEXT

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

#: The page name of the generated "Changes in this preview" page.
PAGE = "preview-changes"
PAGE_TITLE = "Changes in this preview"
CHANGED = "neuron-changed"
#: Where a Read the Docs pull-request build compares with when nothing else says.
DEFAULT_RTD_BASE = "origin/main"
STATIC = Path(__file__).resolve().parent / "static"
CSS_FILE = "preview.css"

Key = tuple[str, ...]

#: Catalog collection -> object type whose anchor its table rows carry (``instance-g5-xlarge``).
_ROW_OBJTYPE: dict[str, str] = {}
for _objtype, (_label, _collection) in OBJECT_TYPES.items():
    _ROW_OBJTYPE.setdefault(_collection, _objtype)


def row_id(collection: str, record_id: str) -> str:
    """The HTML id of the table row that shows a record (``run-<id>``, ``instance-<id>``, ...)."""
    if collection == "inference_runs":
        return f"run-{nodes.make_id(record_id)}"
    objtype = _ROW_OBJTYPE.get(collection)
    return anchor_for(objtype, record_id) if objtype else ""


@dataclass(frozen=True)
class Place:
    """A marked place: the page, the id to link to, what it says, and the changes it shows."""

    docname: str
    anchor: str
    description: str
    keys: frozenset[Key]


@dataclass
class Preview:
    """The state of one preview build."""

    base: str
    base_label: str
    diff: MatrixDiff
    keys: frozenset[Key]
    #: Changes by key, for descriptions.
    by_key: dict[Key, CellChange | RecordChange | ValueChange]
    #: Row id -> the changes shown in that row (record changes and moved figures of the record).
    rows: dict[str, list[Key]]
    #: docname -> marked places, filled on ``doctree-resolved`` (in the main process).
    places: dict[str, list[Place]] = field(default_factory=dict)


_STATE: WeakKeyDictionary[Any, Preview] = WeakKeyDictionary()


def preview_of(app: Sphinx) -> Preview | None:
    """The preview of the build ``app`` runs, or None when it is not a preview build."""
    return _STATE.get(app)


# Configuration ------------------------------------------------------------------------------------

def default_base(configured: str, environ: Mapping[str, str]) -> str:
    """The base revision: the configured one, else the pull-request default on Read the Docs."""
    if configured:
        return configured
    if environ.get("READTHEDOCS_VERSION_TYPE") == "external":
        return environ.get("NEURON_PREVIEW_BASE") or DEFAULT_RTD_BASE
    return ""


def _on_config_inited(app: Sphinx, config: Config) -> None:
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

def _on_builder_inited(app: Sphinx) -> None:
    _STATE.pop(app, None)
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
    _STATE[app] = Preview(base, label, diff, diff.changed_keys(), by_key, rows)


def _on_env_get_outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                         removed: set[str]) -> list[str]:
    """A preview build resolves every page, so that the changes page finds every place."""
    if preview_of(app) is None:
        return []
    return sorted(env.found_docs - added - changed - removed)


# Describing changes -------------------------------------------------------------------------------

def _words(kind: str, value: str | None) -> str:
    if value is None:
        return "(none)"
    return (STATUS_TEXT if kind == "support" else FIT_TEXT if kind == "fit" else {}).get(value, value)


def describe(change: CellChange | RecordChange | ValueChange) -> str:
    """``old -> new`` (or what changed) of one change, in the words the pages use."""
    if isinstance(change, CellChange):
        if change.old == change.new:
            return f"{', '.join(change.fields) or 'details'} changed"
        return f"{_words(change.key[0], change.old)} -> {_words(change.key[0], change.new)}"
    if isinstance(change, RecordChange):
        if change.change == "changed":
            return f"{', '.join(change.fields)} changed"
        return change.change
    return f"{change.label}: {change.old_text or '(none)'} -> {change.new_text or '(none)'}"


def _description(preview: Preview, keys: Iterable[Key]) -> str:
    parts = [describe(preview.by_key[key]) for key in keys]
    return "changed in this preview: " + "; ".join(dict.fromkeys(parts))


# Marking pages ------------------------------------------------------------------------------------

def _changed_keys_of(preview: Preview, node: nodes.Element) -> list[Key]:
    """The changes ``node`` shows, in the order of the diff."""
    keys: list[Key] = []
    if neuron_key := node.get("neuron_key"):
        key = tuple(neuron_key.split("/"))
        if key in preview.keys:
            keys.append(key)
    if isinstance(node, nodes.abbreviation) and (expression := node.get("neuron_expression")):
        for path in dict.fromkeys(":".join(match) for match in PATH_RE.findall(expression)):
            if ("value", path) in preview.keys:
                keys.append(("value", path))
    if isinstance(node, nodes.row):
        for anchor in node["ids"]:
            keys.extend(preview.rows.get(anchor, ()))
    return keys


def _note(description: str) -> nodes.inline:
    return nodes.inline(description, description, classes=["neuron-changed-note"])


def _unique_id(wanted: str, taken: set[str]) -> str:
    anchor, number = wanted, 1
    while anchor in taken:
        number += 1
        anchor = f"{wanted}-{number}"
    taken.add(anchor)
    return anchor


def mark(preview: Preview, doctree: nodes.document, docname: str, tooltips: bool = True) -> list[Place]:
    """Mark every place of ``doctree`` that shows a change; return the places. ``tooltips``: also
    describe the change in a tooltip (HTML), besides the visible note."""
    taken = {anchor for node in doctree.findall(nodes.Element) for anchor in node["ids"]}
    found = [(node, keys) for node in doctree.findall(nodes.Element)
             if (keys := _changed_keys_of(preview, node))]
    places = []
    for node, keys in found:
        description = _description(preview, keys)
        node["classes"].append(CHANGED)
        if isinstance(node, nodes.row):
            anchor = node["ids"][0]
            entry = next(iter(node.findall(nodes.entry)), None)
            if entry is not None:
                paragraph = next(iter(entry.findall(nodes.paragraph)), None)
                if paragraph is None:
                    paragraph = nodes.paragraph()
                    entry += paragraph
                paragraph += nodes.Text(" ")
                paragraph += _note(description)
        else:
            if not node["ids"]:
                node["ids"].append(_unique_id(nodes.make_id("changed-" + "-".join(keys[0][1:])), taken))
            anchor = node["ids"][0]
            if not tooltips:
                holder = node
            elif isinstance(node, nodes.abbreviation):
                node["explanation"] = f"{node.get('explanation', '')} ({description})".strip()
                holder = node
            else:
                # A badge: the tooltip comes from an <abbr> around it.
                holder = nodes.abbreviation("", "", explanation=description, classes=["neuron-changed-tooltip"])
                parent = node.parent
                parent[parent.index(node)] = holder  # not replace_self(): it would copy ids and classes
                holder += node
            parent = holder.parent
            parent.insert(parent.index(holder) + 1, _note(description))
        places.append(Place(docname, anchor, description, frozenset(keys)))
    return places


def _banner(app: Sphinx, preview: Preview, docname: str, count: int) -> nodes.Element:
    banner = nodes.admonition(classes=["note", "neuron-preview-banner"])
    banner += nodes.title("Preview build", "Preview build")
    paragraph = nodes.paragraph()
    here = f" {count} place(s) on this page show a change and are outlined." if count else ""
    text = f"This is a preview compared with {preview.base_label}.{here} See "
    paragraph += nodes.Text(text)
    uri = app.builder.get_relative_uri(docname, PAGE)
    paragraph += nodes.reference(PAGE_TITLE, PAGE_TITLE, refuri=uri, internal=True)
    paragraph += nodes.Text(".")
    banner += paragraph
    return banner


def _insert_banner(doctree: nodes.document, banner: nodes.Element) -> None:
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None and section.children and isinstance(section[0], nodes.title):
        section.insert(1, banner)
    else:
        doctree.insert(0, banner)


def _on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    preview = preview_of(app)
    if preview is None:
        return
    places = mark(preview, doctree, docname, tooltips=_is_html(app))
    preview.places[docname] = places
    if _has_pages(app) and (places or docname == app.config.root_doc):
        _insert_banner(doctree, _banner(app, preview, docname, len(places)))


# The changes page ---------------------------------------------------------------------------------

def _is_html(app: Sphinx) -> bool:
    return getattr(app.builder, "format", "") == "html"


def _has_pages(app: Sphinx) -> bool:
    """HTML builders that write a file per page (html, dirhtml), and so the changes page."""
    return _is_html(app) and app.builder.name != "singlehtml"


def _code(text: str) -> str:
    return f"<code>{html.escape(text)}</code>"


def places_by_key(preview: Preview) -> dict[Key, list[Place]]:
    """Where each change appears. A changed family record appears where its matrix cells do."""
    places: dict[Key, list[Place]] = {}
    for docname in sorted(preview.places):
        for place in preview.places[docname]:
            for key in sorted(place.keys):
                places.setdefault(key, []).append(place)
    for change in preview.diff.records:
        if change.key[1] == "families" and change.key not in places:
            cells = [p for key, found in sorted(places.items()) if key[0] in ("support", "fit")
                     and key[1] == change.key[2] for p in found]
            if cells:
                places[change.key] = list(dict.fromkeys(cells))
    return places


def render_changes(preview: Preview, uri: Any, families: Mapping[str, Any] | None = None,
                   titles: Mapping[str, str] | None = None) -> str:
    """The body of the changes page; ``uri(docname, anchor)`` makes a link to a place, ``titles``
    names the pages."""
    diff = preview.diff
    places = places_by_key(preview)

    def where(key: Key) -> str:
        found = places.get(key, [])
        if not found:
            return "<em>not marked on any page</em>"
        items = "".join(f'<li><a class="reference internal" href="{html.escape(uri(p.docname, p.anchor))}">'
                        f"{html.escape((titles or {}).get(p.docname, p.docname))}</a> "
                        f"{_code('#' + p.anchor)}</li>" for p in found)
        return f'<ul class="simple">{items}</ul>'

    def family(family_id: str) -> str:
        record = (families or {}).get(family_id)
        return f"{html.escape(record.name)} ({_code(family_id)})" if record else _code(family_id)

    def table(anchor: str, title: str, header: list[str], rows: list[tuple[Key, list[str]]]) -> str:
        if not rows:
            return ""
        head = "".join(f'<th class="head">{h}</th>' for h in [*header, "Where it appears"])
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + f"<td>{where(key)}</td></tr>"
                       for key, cells in rows)
        return (f'<section id="{anchor}"><h2>{html.escape(title)}</h2>'
                f'<table class="docutils align-default neuron-table neuron-preview-changes">'
                f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></section>")

    counts = {"support cells": len(diff.support), "fits": len(diff.fit), "header fields": len(diff.header),
              "records": len(diff.records), "figures": len(diff.values), "new data errors": len(diff.errors)}
    summary = ", ".join(f"{what} {n}" for what, n in counts.items() if n) or "no changes"
    out = [f'<section id="{PAGE}"><h1>{PAGE_TITLE}</h1>',
           f"<p>This preview compares the data of this build with {_code(preview.base_label)}: "
           f"{html.escape(summary)}. Changed places are outlined on the pages and carry a "
           f"&#8220;changed in this preview&#8221; note.</p>"]
    if diff.errors:
        items = "".join(f"<li>{_code(e)}</li>" for e in diff.errors)
        out.append(f'<section id="data-errors"><h2>Data errors in this build</h2><ul>{items}</ul></section>')
    out.append(table("support-status", "Support status", ["Family", "Device", "Framework", "Change"], [
        (c.key, [family(c.key[1]), _code(c.key[2]), _code(c.key[3]), html.escape(describe(c))])
        for c in diff.support]))
    out.append(table("architecture-fit", "Architecture fit", ["Family", "Device", "Change"], [
        (c.key, [family(c.key[1]), _code(c.key[2]), html.escape(describe(c))]) for c in diff.fit]))
    out.append(table("matrix-header", "Matrix header", ["Field", "Change"], [
        (c.key, [_code(".".join(c.key[1:])), html.escape(describe(c))]) for c in diff.header]))
    out.append(table("records", "Records", ["Collection", "Id", "Change"], [
        (c.key, [html.escape(c.key[1]), _code(c.key[2]), html.escape(describe(c))]) for c in diff.records]))
    for anchor, title, derived in (("figures", "Figures (prices, specifications, benchmarks)", False),
                                   ("derived-figures", "Derived figures (costs, ratios, counts)", True)):
        out.append(table(anchor, title, ["Figure", "Path", "Change"], [
            (c.key, [html.escape(c.label), _code(c.key[1]),
                     html.escape(f"{c.old_text or '(none)'} -> {c.new_text or '(none)'}"
                                 + ("" if c.change == "changed" else f" ({c.change})"))])
            for c in diff.values if c.derived == derived]))
    out.append("</section>")
    return "\n".join(part for part in out if part)


def _on_html_collect_pages(app: Sphinx) -> Iterable[tuple[str, dict[str, Any], str]]:
    preview = preview_of(app)
    if preview is None or not _has_pages(app):
        return []

    def uri(docname: str, anchor: str) -> str:
        return f"{app.builder.get_relative_uri(PAGE, docname)}#{anchor}"

    titles = {docname: title.astext() for docname, title in app.env.titles.items()}
    body = render_changes(preview, uri, dataset(app.env).catalog.families, titles)
    return [(PAGE, {"title": PAGE_TITLE, "body": body}, "page.html")]


def _add_css(app: Sphinx) -> None:
    """Link ``static/preview.css`` from the pages of an HTML preview build."""
    if not _is_html(app) or not app.config.neuron_preview_base:
        return
    if str(STATIC) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC))
    app.add_css_file(CSS_FILE)


def setup_preview(app: Sphinx) -> None:
    app.add_config_value("neuron_preview_base", "", "html", types=frozenset({str}),
                         description="Git revision to compare the data with in a preview build ('' = no preview).")
    app.add_config_value("neuron_preview_repo", "", "html", types=frozenset({str}),
                         description="Git repository of the base revision ('' = the one holding neuron_data_dir).")
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _add_css)
    app.connect("builder-inited", _on_builder_inited, priority=600)  # after the store loaded the data
    app.connect("env-get-outdated", _on_env_get_outdated)
    app.connect("doctree-resolved", _on_doctree_resolved)
    app.connect("html-collect-pages", _on_html_collect_pages)
