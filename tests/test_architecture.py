"""The layout's rules, read from the code's imports (ast): the wings that must run without Sphinx
do, and no module imports itself through others."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "_ext" / "neuron_docs"
#: Wings that run without a build (the data layer, the drift engine and the command-line tools).
SPHINX_FREE = ("data", "drift", "cli", "preview.report", "preview.matrix_diff", "directives.charts.svg")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path, *, typing_only: bool) -> set[str]:
    """Modules ``path`` imports when it is imported (imports inside functions are left out):
    package-internal ones by their dotted name (relative to the package), others by their
    top-level name prefixed with ``ext:``."""
    module = _module_name(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node):
                if typing_only:
                    visit(node.body)
                continue
            if isinstance(node, ast.Import):
                out.update(f"ext:{alias.name.split('.')[0]}" for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    out.add(f"ext:{(node.module or '').split('.')[0]}")
                    continue
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
                if node.module is None:  # from . import a, b
                    out.update(f"{target}.{alias.name}".strip(".") for alias in node.names)
                else:
                    out.add(target)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue  # runs when called, not when the module is imported
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return out


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _internal(name: str) -> str | None:
    """The module or package ``name`` refers to, if it is one of ours."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _graph(*, typing_only: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = {_internal(i) for i in _imports(path, typing_only=typing_only) if not i.startswith("ext:")}
        graph[name] = {t for t in targets if t and t != name}
    return graph


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


@pytest.mark.parametrize("wing", SPHINX_FREE)
def test_wing_imports_neither_sphinx_nor_docutils(wing: str) -> None:
    """Nor does any module of ours that it imports, however indirectly."""
    graph = _graph(typing_only=False)
    members = [m for m in MODULES if m == wing or m.startswith(f"{wing}.")]
    assert members, wing
    for member in members:
        for module in {member, *_reachable(graph, member)}:
            if module == "":
                continue  # the package's __init__ imports nothing at import time
            external = {i for i in _imports(MODULES[module], typing_only=False) if i.startswith("ext:")}
            assert not external & {"ext:sphinx", "ext:docutils"}, f"{member} reaches {module}, which imports Sphinx"


def test_no_import_circles() -> None:
    """Not even through imports made for type checking only."""
    graph = _graph(typing_only=True)
    circles = sorted(m for m in graph if m in _reachable(graph, m))
    assert circles == []


def test_the_package_imports_nothing_at_import_time() -> None:
    """``python -m neuron_docs.drift.audit`` must not load the Sphinx-facing wings."""
    assert _graph(typing_only=False)[""] == set()
