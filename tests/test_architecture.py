"""The layout's rules, read from the code's imports (ast): the wings that must run without Sphinx
do, and no module imports itself through others."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
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


# The layers: import-linter's contracts in pyproject.toml, run as `lint-imports` would run them.
PYPROJECT = PACKAGE.parent.parent / "pyproject.toml"


def _lint_imports(ext_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ext_dir)}
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
                           " sys.exit(lint_imports_command())", "--config", str(PYPROJECT), "--no-cache"],
                          env=env, capture_output=True, text=True, check=False)


def test_each_wing_and_each_room_of_data_imports_only_those_below_it() -> None:
    result = _lint_imports(PACKAGE.parent)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(("module", "upward"), [
    ("render/light_rows.py", "from ..directives import tables"),  # render -> directives
    ("data/checking/references.py", "from ..figures.values import instance_metric"),  # checking -> figures
    ("data/files/loader.py", "    from ..records import models"),  # inside a function counts too
])
def test_a_planted_upward_import_breaks_the_layers(tmp_path: Path, module: str, upward: str) -> None:
    copy = tmp_path / "ext" / "neuron_docs"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / module
    text = target.read_text(encoding="utf-8")
    if upward.startswith(" "):
        text += f"\n\ndef _planted() -> None:\n{upward}\n"
    else:
        text += f"\n{upward}\n"
    target.write_text(text, encoding="utf-8")
    result = _lint_imports(copy.parent)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout or "broken" in result.stdout
