"""Inline roles that print data in prose.

- ``:neuron:value:`run:vit-inf1-b3:throughput``` prints a figure with its unit; an expression over
  figures with a declared format prints a derived claim:
  ``:neuron:value:`pct_less(run:vit-inf1-b3:cost_per_1m, run:vit-g5-b128:cost_per_1m) | .0f```.
- ``:neuron:fit:`decoder/inferentia``` prints "a good fit" or "not a good fit".
- ``:neuron:status:`encoder/trainium/torch-neuronx``` prints the support status in words.
Each output carries a tooltip naming the data it came from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from ..build_state import DataSet, dataset
from ..dependencies import uses
from ..data.catalog import FILE_NAMES
from ..data.describe import describe
from ..data.expressions import evaluate
from ..data.formatting import NumberFormat, format_number
from ..data.labels import FIT_WORDS, STATUS_WORDS
from ..data.matrix_loading import MATRIX_DIR
from ..data.values import collections_read

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator

logger = logging.getLogger(__name__)

#: Decimals used for a derived figure whose page did not declare a format, by unit.
DEFAULT_DECIMALS = {"USD": 2, "%": 0, "pp": 2, "x": 1}


class _DataRole(SphinxRole):
    def problem(self, message: str, subtype: str) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        logger.warning(message, location=self.get_location(), type="neuron", subtype=subtype)
        node = nodes.problematic(self.rawtext, self.rawtext)
        return [node], []

    def output(self, text: str, explanation: str, classes: list[str]) -> list[nodes.Node]:
        return [nodes.abbreviation(text, text, explanation=explanation, classes=classes)]


def value_node(data: DataSet, expression: str, spec: str, *, require_format: bool = True
               ) -> tuple[nodes.abbreviation, list[str]]:
    """The rendered figure of ``expression`` and the data files it read.

    A derived figure (computed, or an expression) needs a declared format unless it is an exact
    count; with ``require_format=False`` it falls back to :data:`DEFAULT_DECIMALS`. Raises
    ``ValueError`` (including :class:`ExpressionError`) with a message for the page's writer.
    """
    number_format = NumberFormat.parse(spec)
    result = evaluate(expression, data.values)
    single = result.paths[0] if len(result.paths) == 1 and expression.strip() == result.paths[0] else None
    derived = single is None or data.values[single].derived
    exact_count = result.unit == "" and float(result.number).is_integer()
    if derived and not exact_count and number_format.decimals is None:
        decimals = DEFAULT_DECIMALS.get(result.unit, 2)
        if require_format:
            msg = f"a derived figure needs a declared format, e.g. `{expression.strip()} | .{decimals}f`"
            raise ValueError(msg)
        number_format = NumberFormat(decimals, number_format.sign)
    text = format_number(result.number, result.unit, number_format)
    explanation = describe(data.catalog, data.values, result.paths, derived)  # words, not paths
    node = nodes.abbreviation(text, text, explanation=explanation,
                              classes=["neuron-value", *(["neuron-derived"] if derived else [])])
    node["neuron_expression"] = expression.strip()
    node["neuron_format"] = spec.strip() if spec.strip() or not derived or exact_count else (
        f".{number_format.decimals}f")
    files = sorted({data.catalog.file_of(collection) for p in result.paths
                    for collection in collections_read(p, data.values[p])})
    return node, files


class ValueRole(_DataRole):
    """A figure or a derived claim from the data, formatted with its unit."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        expression, _, spec = self.text.partition("|")
        try:
            node, files = value_node(dataset(self.env), expression, spec)
        except ValueError as exc:
            # Any data file may hold the missing value: re-read this page when one changes.
            uses(self, *FILE_NAMES)
            return self.problem(f"neuron:value: {exc}", "value")
        uses(self, *files)
        return [node], []


class FitRole(_DataRole):
    """``family/device`` -> "a good fit" / "not a good fit" (the latest revision of the matrices)."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        parts = [p.strip() for p in self.text.split("/")]
        catalog = dataset(self.env).catalog
        uses(self, "families.yaml", MATRIX_DIR)
        if len(parts) != 2:
            return self.problem(f"neuron:fit: expected 'family/device', got {self.text!r}", "value")
        family, device = parts
        fit = catalog.fit(family, device)
        rev = catalog.revision()
        if fit is None or rev is None:
            return self.problem(f"neuron:fit: no fit recorded for family {family!r} on device {device!r}", "value")
        name = catalog.families[family].name if family in catalog.families else family
        return self.output(FIT_WORDS[fit], f"Architecture fit of {name} on {device} (support matrices of {rev.name})",
                           ["neuron-fit-word", f"neuron-fit-{fit}"]), []


class StatusRole(_DataRole):
    """``family/device/framework[/workload]`` -> the support status in words (the latest revision).
    Without a workload: the framework's column for the device's purpose (training on Trainium)."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        parts = [p.strip() for p in self.text.split("/")]
        catalog = dataset(self.env).catalog
        uses(self, "families.yaml", MATRIX_DIR)
        if len(parts) not in (3, 4):
            return self.problem(f"neuron:status: expected 'family/device/framework[/workload]', got {self.text!r}",
                                "value")
        family, device, framework = parts[:3]
        found = catalog.support_cell(family, device, framework, parts[3] if len(parts) == 4 else None)
        rev = catalog.revision()
        if found is None or rev is None:
            return self.problem(f"neuron:status: no support status for {family!r} on {device!r} with "
                                f"{'/'.join(parts[2:])!r}", "value")
        key, support = found
        name = catalog.families[family].name if family in catalog.families else family
        return self.output(STATUS_WORDS[support.status],
                           f"Support of {name} on {device} with {key} (support matrices of {rev.name})",
                           ["neuron-status-word", f"neuron-status-{support.status}"]), []


def _visit_abbreviation(self: HTML5Translator, node: nodes.abbreviation) -> None:
    """``<abbr>`` as Sphinx writes it, plus the figure's expression in ``data-neuron-figure`` (for
    scripts and tests: the words of the tooltip are for readers)."""
    attrs = {"title": node["explanation"]} if node.hasattr("explanation") else {}
    if node.get("neuron_expression"):
        attrs["data-neuron-figure"] = node["neuron_expression"]
    self.body.append(self.starttag(node, "abbr", "", **attrs))


def _depart_abbreviation(self: HTML5Translator, node: nodes.abbreviation) -> None:
    self.body.append("</abbr>")


def setup_roles(app: Sphinx) -> None:
    app.add_node(nodes.abbreviation, override=True, html=(_visit_abbreviation, _depart_abbreviation))
    app.add_role_to_domain("neuron", "value", ValueRole())
    app.add_role_to_domain("neuron", "fit", FitRole())
    app.add_role_to_domain("neuron", "status", StatusRole())
