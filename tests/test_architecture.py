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
#: The offline tools' wing (importing published states, reading the published layout, exporting it).
TOOLS = "benchmark_import"
#: Wings that run without a build (the data layer, the drift engine and the command-line tools).
SPHINX_FREE = ("data", "drift", "cli", "benchmark_import", "preview.report", "preview.matrix_diff",
               "directives.charts.svg")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path, *, typing_only: bool, in_functions: bool = False) -> set[str]:
    """Modules ``path`` imports when it is imported (imports inside functions are left out unless
    ``in_functions``): package-internal ones by their dotted name (relative to the package), others
    by their top-level name prefixed with ``ext:``."""
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
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not in_functions:
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


def _graph(*, typing_only: bool, in_functions: bool = False) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = {_internal(i) for i in _imports(path, typing_only=typing_only, in_functions=in_functions)
                   if not i.startswith("ext:")}
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


def test_no_import_circle_among_the_offline_tools_even_through_imports_in_functions() -> None:
    """The importer's modules (``make import-benchmarks``) import one another one way only: an import
    made inside a function (to break a circle at import time) counts too."""
    graph = _graph(typing_only=True, in_functions=True)
    tools = [m for m in graph if m == TOOLS or m.startswith(f"{TOOLS}.")]
    assert tools
    assert sorted(m for m in tools if m in _reachable(graph, m)) == []


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
    assert "3 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(("module", "upward"), [
    ("render/light_rows.py", "from ..directives import tables"),  # render -> directives
    ("render/placeholder.py", "    from .. import renderers"),  # render -> the table of renderers
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


def _planted(tmp_path: Path, module: str, line: str) -> Path:
    """A copy of the package with ``line`` added to ``module`` (inside a function when indented)."""
    copy = tmp_path / "ext" / "neuron_docs"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / module
    text = target.read_text(encoding="utf-8")
    text += f"\n\ndef _planted() -> None:\n{line}\n" if line.startswith(" ") else f"\n{line}\n"
    target.write_text(text, encoding="utf-8")
    return copy.parent


@pytest.mark.parametrize(("module", "planted"), [
    ("site/data_dates.py", "    from ..benchmark_import.history_rows import History"),  # the build -> the tools
    ("drift/units.py", "    import pandas"),  # the build -> pandas, inside a function
    ("data/published/judgement.py", "import pandas as pd"),  # a room the tools share -> pandas
])
def test_the_build_importing_the_tools_or_pandas_breaks_the_contract(tmp_path: Path, module: str,
                                                                     planted: str) -> None:
    result = _lint_imports(_planted(tmp_path, module, planted))
    assert result.returncode != 0
    assert "A build imports neither the offline tools nor pandas BROKEN" in result.stdout, result.stdout


#: A build of a few pages that read the benchmark history (the wing the tools write), the performance
#: tables and What's new, in a child Python: then the modules it loaded.
_BUILD = """
import json, sys
from sphinx.cmd.build import build_main
status = build_main(["-b", "html", "-q", "-E", "-D", "neuron_data_dir=" + sys.argv[3], sys.argv[1], sys.argv[2]])
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def test_a_build_loads_no_pandas_and_none_of_the_offline_tools(tmp_path: Path) -> None:
    """What the contract says of the code, seen in a process: a build (the benchmark history's pages,
    What's new's benchmark changes) loads neither pandas nor the tools' wing; the tools do."""
    source = tmp_path / "source"
    shutil.copytree(PACKAGE.parent.parent / "tests" / "roots" / "test-history", source)
    env = {**os.environ, "PYTHONPATH": str(PACKAGE.parent)}
    run = subprocess.run([sys.executable, "-c", _BUILD, str(source), str(tmp_path / "html"),
                          str(PACKAGE.parent.parent / "data")],
                         env=env, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    import json  # noqa: PLC0415

    loaded = json.loads(run.stdout.strip().splitlines()[-1])
    assert loaded["status"] == 0, run.stderr
    assert "neuron_docs.data.published.history_view" in loaded["modules"]  # the build did read the history
    assert not [m for m in loaded["modules"] if m == "pandas" or m.startswith(("pandas.", f"neuron_docs.{TOOLS}"))]
    tools = subprocess.run([sys.executable, "-c", "import sys, neuron_docs.benchmark_import.command;"
                            " print('pandas' in sys.modules)"], env=env, capture_output=True, text=True, check=True)
    assert tools.stdout.strip() == "True"  # the check can see pandas where it is loaded
