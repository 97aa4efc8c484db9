"""One name per thing in the extension's code (issue 33), read from the source's syntax trees:

- every class defined under ``_ext/`` has a name no other class there has, so a name in a traceback,
  a docstring or a search says which class it is (``Cell`` was four things, ``Row`` three). The
  records of a support-matrix revision keep theirs (``Cell``, ``Row``, ``Column`` of
  :mod:`neuron_docs.data.records.matrix`): the data set's JSON schema, a download of the site,
  names its definitions after the record models;
- no function or method under ``_ext/`` is longer than :data:`MAX_FUNCTION_LINES` lines, so each
  reads in one sitting (the longest are split into named steps).

Each rule is also run on a planted offence, to show that it fails on one.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

EXT = Path(__file__).resolve().parents[1] / "_ext"

#: The longest a function or method may be, decorators and docstring included.
MAX_FUNCTION_LINES = 100


def _trees(root: Path) -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(root)), ast.parse(path.read_text(encoding="utf-8"), str(path)))
            for path in sorted(root.rglob("*.py"))]


def duplicate_class_names(root: Path) -> dict[str, list[str]]:
    """Every class name defined more than once under ``root``, with where (``path:line``)."""
    where: dict[str, list[str]] = defaultdict(list)
    for path, tree in _trees(root):
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(f"{path}:{node.lineno}")
    return {name: places for name, places in where.items() if len(places) > 1}


def long_functions(root: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """Every function or method under ``root`` longer than ``limit`` lines (``path:line name (lines)``)."""
    found = []
    for path, tree in _trees(root):
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = (node.end_lineno or node.lineno) - start + 1
                if length > limit:
                    found.append(f"{path}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_every_class_name_is_defined_once() -> None:
    assert duplicate_class_names(EXT) == {}


def test_a_second_class_of_the_same_name_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class Cell:\n    pass\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    class Cell:\n        pass\n\n\nclass Row:\n    pass\n")
    assert duplicate_class_names(tmp_path) == {"Cell": ["a.py:1", "pkg/b.py:2"]}


def test_no_function_is_longer_than_the_limit() -> None:
    assert long_functions(EXT) == []


def test_a_function_over_the_limit_is_found(tmp_path: Path) -> None:
    def body(indent: str, lines: int) -> str:
        return "".join(f"{indent}x{i} = {i}\n" for i in range(lines))
    limit = MAX_FUNCTION_LINES  # a decorated function of the limit's length, then a method one line over it
    (tmp_path / "m.py").write_text(f"@staticmethod\ndef fits():\n{body('    ', limit - 2)}\n\n"
                                   f"class C:\n    def over(self):\n{body('        ', limit)}")
    assert long_functions(tmp_path) == [f"m.py:{limit + 4} over ({limit + 1} lines)"]
