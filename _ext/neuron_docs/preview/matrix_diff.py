"""``make matrix-diff``: what a change to ``data/`` does to the site, as Markdown or JSON (no Sphinx).

Compares the working tree's ``data/`` (or ``--head REV`` or ``--data-dir DIR``) with ``--base REV``
(:mod:`neuron_docs.data.revisions` reads data at a git revision, :mod:`neuron_docs.data.figures.compare`
compares, :mod:`.report` renders)::

    python -m neuron_docs.preview.matrix_diff --base REV [--head REV | --data-dir DIR] [--format markdown|json]
    python -m neuron_docs.preview.matrix_diff --from DATE --to DATE [--data-dir DIR] [--format markdown|json]

The second form compares two revisions of the support matrices (``data/matrix/<date>.yaml``):
every cell changed (old -> new), every family, device, column, matrix and instance added or
removed, status definitions and labels; ``--format json`` prints ``{"old", "new", "items"}``.

``--format json`` prints ``{"schema_version": 2, "base", "head", "changed", "summary", "support",
"fit", "header", "records", "values", "errors", "keys", "benchmarks"}``; lists are sorted by key,
``errors`` holds the data errors found at head that base did not have, and ``benchmarks`` what the
published states that head's benchmark history adds changed, grouped as What's new groups them: by
the Neuron release each change belongs to (``release``, ``release_first_published``), newest first,
then regressed, suspect points, unstable series, improved, corrected, new, withdrawn (judged by
:data:`~neuron_docs.data.published.judgement.RULE`)
(:func:`~neuron_docs.data.published.history_view.changes_since`); the Markdown has a section per
release after the matrices'. Exit status: 0 with or without
changes ("no changes" when the data is the same), 2 for a bad revision, directory or option.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..cli import emit
from ..data.figures.compare import compare
from ..data.matrix.changes import changes
from ..data.published.history_view import changes_since
from ..data.revisions import DATA_DIR, RevisionError, load_revision, repo_root, resolve
from ..data.checking.validation import load_catalog
from .report import render_json, render_markdown, render_revisions_json, render_revisions_markdown


def _label(rev: str, repo: Path) -> str:
    """``rev (commit)``, or the short commit alone when ``rev`` is a commit id."""
    commit = resolve(rev, repo)
    return commit[:12] if commit.startswith(rev.lower()) else f"{rev} ({commit[:12]})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m neuron_docs.preview.matrix_diff",
                                     description="Summarise what a change to data/ does to the site.")
    parser.add_argument("--base", help="git revision to compare against (e.g. origin/main)")
    parser.add_argument("--from", dest="old", help="revision date of the support matrices to compare from")
    parser.add_argument("--to", dest="new", help="revision date of the support matrices to compare (default: the latest)")
    head = parser.add_mutually_exclusive_group()
    head.add_argument("--head", help="git revision to compare (default: the working tree's data/)")
    head.add_argument("--data-dir", type=Path, help="data directory to compare (default: <repo>/data)")
    parser.add_argument("--repo", type=Path, default=Path("."), help="the git repository (default: .)")
    parser.add_argument("--format", choices=("markdown", "json"), default="markdown")
    args = parser.parse_args(argv)
    if args.old or args.new:
        return _revisions(args)
    if not args.base:
        parser.print_usage(sys.stderr)
        print("matrix-diff: error: give --base REV (git) or --from DATE [--to DATE] (matrix revisions)", file=sys.stderr)
        return 2
    try:
        root = repo_root(args.repo)
        base, base_label = load_revision(args.base, root), _label(args.base, root)
        if args.head:
            head_catalog, head_label = load_revision(args.head, root), _label(args.head, root)
        else:
            data_dir = args.data_dir or root / DATA_DIR
            if not data_dir.is_dir():
                raise RevisionError(f"data directory {data_dir} does not exist")
            head_catalog = load_catalog(data_dir)
            head_label = str(args.data_dir) if args.data_dir else "working tree"
    except RevisionError as exc:
        print(f"matrix-diff: error: {exc}", file=sys.stderr)
        return 2
    diff = compare(base, head_catalog, base_label, head_label)
    benchmarks = changes_since(base, head_catalog)
    names = {family_id: family.name for family_id, family in head_catalog.families.items()}
    emit(render_json(diff, benchmarks) if args.format == "json" else render_markdown(diff, names, benchmarks))
    return 0


def _revisions(args: argparse.Namespace) -> int:
    """Compare two revisions of the support matrices held in one data directory."""
    try:
        data_dir = args.data_dir or repo_root(args.repo) / DATA_DIR
    except RevisionError as exc:
        print(f"matrix-diff: error: {exc}", file=sys.stderr)
        return 2
    catalog = load_catalog(data_dir)
    revisions = catalog.matrix_revisions
    old, new = revisions.at(args.old) if args.old else None, revisions.at(args.new)
    for wanted, found in ((args.old, old), (args.new, new)):
        if wanted and found is None or (found is None and wanted is None):
            known = ", ".join(r.name for r in revisions.revisions) or "(none)"
            print(f"matrix-diff: error: no revision {wanted!r} in {data_dir / 'matrix'}; expected one of: {known}",
                  file=sys.stderr)
            return 2
    assert new is not None
    diff = changes(old, new)
    names = {family_id: family.name for family_id, family in catalog.families.items()}
    emit(render_revisions_json(diff) if args.format == "json" else render_revisions_markdown(diff, names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
