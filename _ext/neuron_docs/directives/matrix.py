"""The support matrices, from the revisions in ``data/matrix/`` (the latest unless one is named).

``.. neuron:support-matrix:: trainium`` renders the matrix that lists a device, with options
``:revision: 2023-02-26`` (default: the latest), ``:category: nlp, cv`` and
``:frameworks: torch-neuronx`` to filter. ``.. neuron:support-matrices::`` renders every matrix
of a revision (``:revision:``), each in a section titled as published; with ``:revision:`` it is
that revision's canonical place (the target of ``neuron:revision`` links), unless ``:no-index:``.
Family names link to their guideline section, roadmap cells to the roadmap item; notes become
numbered footnotes under the table; every cell says since which revision it holds its value; the
"Last update" line is derived from the revisions.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..build_state import dataset, uses
from ..data.matrix_loading import MATRIX_DIR
from ..domain import anchor_for, xref
from .base import DataDirective
from .matrix_table import MatrixView
from .tables import broken_notice, comma_list

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
    from ..data.matrix_schema import Revision

MATRIX_FILES = ("families.yaml", "frameworks.yaml", "devices.yaml", "issues.yaml", MATRIX_DIR)
BROKEN = ("families", "frameworks", "categories", "revisions")


class _RevisionDirective(DataDirective):
    def revision(self, catalog: Catalog) -> Revision | None:
        wanted = self.options.get("revision")
        rev = catalog.revision(wanted)
        if rev is None:
            known = ", ".join(r.name for r in catalog.history.revisions) or "(none: data/matrix/ holds no valid revision)"
            self.warn(f"no revision {wanted!r} of the support matrices; expected one of: {known}"
                      if wanted else f"no support matrix revision; expected one in {MATRIX_DIR}")
        return rev


class SupportMatrix(_RevisionDirective):
    """The support matrix that lists one device, in one revision."""

    required_arguments = 1
    option_spec: ClassVar = {
        "revision": directives.unchanged,
        "category": directives.unchanged,
        "frameworks": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        uses(self, *MATRIX_FILES)
        device_id = self.arguments[0]
        rev = self.revision(catalog)
        if rev is None:
            return broken_notice(catalog.broken_in(*BROKEN))
        matrix = rev.matrix_of(device_id)
        if matrix is None:
            listed = [d for m in rev.matrices for d in m.devices]
            self.warn(f"no support matrix for device {device_id!r} in the revision of {rev.name}; "
                      f"expected one of: {', '.join(listed)}")
            return []
        wanted = comma_list(self.options.get("frameworks"))
        frameworks = list(dict.fromkeys(c.framework for c in matrix.columns))
        for unknown in [w for w in wanted if w not in frameworks]:
            self.warn(f"framework {unknown!r} has no column in the matrix of {device_id!r}; expected "
                      f"one of: {', '.join(frameworks)}")
        columns = [c for c in matrix.columns if not wanted or c.framework in wanted]
        categories = self.pick("category", catalog.categories)
        # The table's id and CSV name: one per device, and per filter and revision when given.
        name = nodes.make_id("-".join(["support-matrix", device_id, *categories, *wanted,
                                       *([rev.name] if "revision" in self.options else [])]))
        view = MatrixView(catalog, rev, matrix, device=device_id, columns=columns, categories=categories, name=name)
        result = view.render()
        if caption := self.options.get("caption"):
            table = next(n for n in result if isinstance(n, nodes.table))
            table.insert(0, nodes.title(caption, caption))
        return [*result, *broken_notice(catalog.broken_in(*BROKEN))]


class SupportMatrices(_RevisionDirective):
    """Every matrix of a revision, each in its own section (the revision as it was published)."""

    option_spec: ClassVar = {"revision": directives.unchanged, "no-index": directives.flag}

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        uses(self, *MATRIX_FILES)
        rev = self.revision(catalog)
        if rev is None:
            return broken_notice(catalog.broken_in(*BROKEN))
        canonical = "revision" in self.options
        result: list[nodes.Node] = []
        if canonical:
            anchor = self.register("revision", rev.name, f"Support matrices as of {rev.name}")
            result += self.index_nodes()
            result.append(nodes.target("", "", ids=[anchor]))
            result.append(self._about(catalog, rev))
        for matrix in rev.matrices:
            section = nodes.section(ids=[anchor_for("matrix", f"{rev.name}-{matrix.id}" if canonical else matrix.id)])
            section += nodes.title(matrix.title, matrix.title)
            name = nodes.make_id("-".join(["support-matrix", *([rev.name] if canonical else []), matrix.id]))
            section += MatrixView(catalog, rev, matrix, columns=list(matrix.columns), name=name,
                                  anchors=canonical).render()
            result.append(section)
        return [*result, *broken_notice(catalog.broken_in(*BROKEN))]


    @staticmethod
    def _about(catalog: Catalog, rev: Revision) -> nodes.paragraph:
        """When and where the revision was published, and what it changed."""
        about = nodes.paragraph(classes=["neuron-revision-about"])
        about += nodes.Text(f"Published on {rev.name} (commit {rev.commit} of {rev.page}). ")
        source = catalog.sources.get(rev.source)
        if source and source.url:
            about += nodes.Text("Source: ")
            about += nodes.reference(source.title, source.title, refuri=source.url)
            about += nodes.Text(". ")
        if rev.unchanged_because:
            about += nodes.Text(f"Its matrices are those of the revision before ({rev.unchanged_because}). ")
        if rev is catalog.revision():
            about += nodes.Text("This is the latest revision, the one the architecture-fit page shows. ")
        about += whats_new_link(rev.date, "What this revision changed")
        about += nodes.Text(".")
        return about


def whats_new_link(date: dt.date, text: str) -> nodes.Node:
    """A link to the What's new entry of the revision of ``date``."""
    return xref("changes", date.isoformat(), text)


def setup_matrix(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "support-matrix", SupportMatrix)
    app.add_directive_to_domain("neuron", "support-matrices", SupportMatrices)
