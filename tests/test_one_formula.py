"""One formula per figure: the cost per 1M is written once (``data/figures/runs.py``), and every
cost the site shows, its words included, comes from it.

The scan reads the extension's code (ast): the hour's seconds (3600) that turn an hourly price into
a cost appear in no other module, as a number or in a text a page prints, and no caller folds a
training run's nodes into the price itself (:func:`cost_per_million` takes them). The printed
words of the formula (:func:`cost_formula`) are evaluated against the function, so the words
cannot drift from the arithmetic either.
"""

from __future__ import annotations

import ast
import operator
import re
from pathlib import Path

import pytest

from neuron_docs.data.figures.derived import Derived
from neuron_docs.data.figures.runs import cost_formula, cost_per_million
from neuron_docs.data.published.history_view import historical_cost, throughput_of

PACKAGE = Path(__file__).resolve().parent.parent / "_ext" / "neuron_docs"
#: The formula's one home.
HOME = PACKAGE / "data" / "figures" / "runs.py"
#: The hour's seconds, however written (``3600``, ``3600.0``, ``60 * 60``: evaluated below).
SECONDS = 3600


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of ``tree`` (prose about the formula, never printed)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.Pow: operator.pow}


def _number(node: ast.AST) -> float | None:
    """The value of a constant arithmetic expression (``3600``, ``60 * 60``, ``60.0 ** 2``), else None."""
    if isinstance(node, ast.Constant):
        value = node.value
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None:
            return None
        try:
            return float(_OPERATORS[type(node.op)](left, right))
        except (ArithmeticError, ValueError):
            return None
    return None


def second_copies(path: Path, root: Path = PACKAGE) -> list[str]:
    """Where ``path`` writes the cost formula again: the hour's seconds as a number (alone or as a
    constant product) or in a printed text, and a cost whose price is multiplied before the call."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found = []
    relative = path.relative_to(root)
    for node in ast.walk(tree):
        where = f"{relative}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if re.search(rf"(?<![\d.]){SECONDS}(?![\d])", node.value):
                found.append(f"{where}: the hour's seconds in a text: {node.value!r}")
        elif isinstance(node, ast.Constant | ast.BinOp) and _number(node) == SECONDS:
            found.append(f"{where}: the hour's seconds as a number")
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.BinOp)
              and getattr(node.func, "id", getattr(node.func, "attr", None)) == "cost_per_million"):
            found.append(f"{where}: a price multiplied before cost_per_million (pass the instances instead)")
    return sorted(found, key=lambda line: int(line.split(":")[1]))


def test_the_cost_formula_is_written_once() -> None:
    copies = [found for path in sorted(PACKAGE.rglob("*.py")) if path != HOME for found in second_copies(path)]
    assert copies == []


def test_the_scan_finds_a_second_copy(tmp_path: Path) -> None:
    """What the scan is for: each way of writing the formula again is found."""
    copy = tmp_path / "copy.py"
    copy.write_text('"""Cost = price / (throughput x 3600) x 10^6: prose is fine."""\n'
                    "def cost(price, throughput, nodes):\n"
                    "    a = price / (throughput * 3600.0) * 1e6\n"
                    "    b = price / (throughput * (60 * 60)) * 1e6\n"
                    "    c = cost_per_million(price * nodes, throughput)\n"
                    "    return f'Cost = 10^6 / throughput x hourly price / 3600: {a}'\n", encoding="utf-8")
    found = second_copies(copy, tmp_path)
    assert [line.split(":")[1] for line in found] == ["3", "4", "5", "6"], found


@pytest.mark.parametrize("nodes", [False, True])
def test_the_printed_formula_is_the_function(nodes: bool) -> None:
    """The words a table's price note prints, read as arithmetic, give the function's cost."""
    words = cost_formula(nodes=nodes)
    assert words.startswith("Cost per 1M = ")
    expression = words.removeprefix("Cost per 1M = ").replace("10^6", "1e6").replace(" x ", " * ")
    expression = expression.replace("throughput", "t").replace("hourly price", "p").replace("nodes", "n")
    for price, throughput, count in ((0.76, 512.5, 1), (21.5, 3.25, 4), (1.0, 1.0, 16)):
        n = count if nodes else 1
        shown = eval(expression, {"__builtins__": {}}, {"t": throughput, "p": price, "n": n})  # noqa: S307
        assert shown == pytest.approx(cost_per_million(price, throughput, n))


def test_a_cost_is_one_record() -> None:
    """Every cost derived from an hourly price (a published run's, a history release's) is one record,
    :class:`CostFigure`: no other class of the extension holds a cost in USD beside the price it used."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                fields = {item.target.id for item in node.body
                          if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
                if {"usd", "price"} <= fields:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.name}")
    assert found == ["data/figures/runs.py:CostFigure"]


def test_every_cost_of_the_data_is_the_function(catalog) -> None:  # noqa: ANN001
    """Each published run's costs (every price basis) and each release's cost in the benchmark
    history equal the one function of the price it used, the run's throughput and its nodes."""
    derived = Derived(catalog)
    checked = 0
    for runs in (catalog.published_inference_runs, catalog.published_training_runs):
        for run in runs.values():
            for cost in derived.published_costs(run).values():
                found = run.throughput()
                assert found is not None
                assert cost.usd == cost_per_million(cost.price.usd_per_hour, float(found[1]), cost.instances)
                checked += 1
    for config in catalog.benchmark_configurations.values():
        figures = {o.metric: o.value for o in catalog.benchmark_observations.values()
                   if o.configuration == config.id and o.status != "corrected"}
        state = catalog.benchmark_states.get(config.first_state)
        cost = historical_cost(catalog, config, figures, state.date) if state else None
        if cost is not None:
            throughput = throughput_of(figures)
            assert throughput is not None
            assert cost.usd == cost_per_million(float(cost.price.usd_per_hour), float(throughput[1]), cost.instances)
            checked += 1
    assert checked > 100


def test_since_when_a_cell_holds_is_one_rule(catalog) -> None:  # noqa: ANN001
    """The advisor says since when a support cell holds as the device's matrix does
    (:meth:`MatrixRevisions.cell_since`): never before the device was first listed, though its matrix
    (shared with a device listed earlier) held the cell before."""
    from neuron_docs.data.figures.advisor import support_cell  # noqa: PLC0415

    history, revision, checked = catalog.matrix_revisions, catalog.revision(), 0
    for device in catalog.matrix_devices():
        first = history.first_listing(device)
        matrix = catalog.matrix(device)
        for family in catalog.families:
            cell = support_cell(catalog, family, device)
            for key, since in (cell.held_since if cell else {}).items():
                assert since == history.cell_since(revision, (matrix.id, family, key), device).isoformat()
                assert first is None or since >= first.isoformat(), (device, family, key)
                checked += 1
    assert checked > 50


def test_only_the_matrix_history_clamps_a_cell_to_its_device() -> None:
    """Nothing but :mod:`neuron_docs.data.matrix.revisions` works out since when a cell holds from the
    revisions' raw dates and the device's first listing (a second copy once forgot the clamp)."""
    home = PACKAGE / "data" / "matrix" / "history.py"
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == home:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute) or "history" not in ast.unparse(node.value):
                continue
            if node.attr in ("since", "first_listing", "held_since", "first_listed"):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []
