"""Every cross-reference in the extension's docstrings and ``#:`` comments names something that exists.

A reference (``:mod:``, ``:func:``, ``:class:``, ``:meth:``, ``:attr:``, ``:data:``, ``:exc:``,
``:obj:``) is read as Sphinx's Python domain reads it, from the module (and class) it is written in:

- ``name`` or ``Class.member``: in the enclosing class, then in the module (what it defines or
  imports), then as a full name (``neuron_docs.data.catalog.Catalog``, ``decimal.Decimal``);
- ``.name`` or ``..room.module.name``: relative to the module's package as a relative import is
  (one dot: the package itself), or any object whose full name ends with ``.name`` (Sphinx's search).

The names are read from the code (ast), not imported: a module, what it defines at its top level,
what its classes define (methods, attributes, fields; inherited ones through bases of ours), and what
it imports. Names outside the package are imported to check them.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "_ext" / "neuron_docs"
ROLE = re.compile(r":(mod|func|class|meth|attr|data|exc|obj):`([^`]+)`")


def _module_name(path: Path) -> str:
    parts = ("neuron_docs", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@dataclass
class Index:
    """Every full name the package defines; the imports of each module; the bases of each class."""

    names: set[str] = field(default_factory=set)
    #: ``module.alias`` -> the full name it imports.
    aliases: dict[str, str] = field(default_factory=dict)
    #: ``module.Class`` -> the full names of its bases (as written, resolved later).
    bases: dict[str, list[str]] = field(default_factory=dict)
    modules: set[str] = field(default_factory=set)
    packages: set[str] = field(default_factory=set)


def _names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for element in target.elts for name in _names(element)]
    return []


def _targets(node: ast.stmt) -> list[str]:
    """The names a statement binds: ``A = ...``, ``A, B = ...``, ``A: T``, ``type A = ...``."""
    if isinstance(node, ast.Assign):
        return [name for target in node.targets for name in _names(target)]
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        return _names(node.target)
    if isinstance(node, ast.TypeAlias):
        return _names(node.name)
    return []


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    if isinstance(node, ast.Subscript):
        return _dotted(node.value)
    return None


def _add_body(index: Index, module: str, package: str, prefix: str, body: list[ast.stmt]) -> None:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            index.names.add(f"{prefix}.{node.name}")
        elif isinstance(node, ast.ClassDef):
            name = f"{prefix}.{node.name}"
            index.names.add(name)
            index.bases[name] = [b for b in map(_dotted, node.bases) if b]
            _add_body(index, module, package, name, node.body)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                index.aliases[f"{prefix}.{alias.asname or alias.name.split('.')[0]}"] = (
                    alias.name if alias.asname else alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                if f"{prefix}.{alias.asname or alias.name}" != f"{source}.{alias.name}":  # a package's own module
                    index.aliases[f"{prefix}.{alias.asname or alias.name}"] = f"{source}.{alias.name}"
        elif isinstance(node, ast.If | ast.Try | ast.With):
            for block in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", []),
                          *[h.body for h in getattr(node, "handlers", [])]):
                _add_body(index, module, package, prefix, block)
        else:
            index.names.update(f"{prefix}.{target}" for target in _targets(node))


def _index() -> tuple[Index, dict[str, ast.Module]]:
    index, trees = Index(), {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        if path.name == "__init__.py":
            index.packages.add(module)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        trees[module] = tree
        index.names.add(module)
        index.modules.add(module)
        _add_body(index, module, package, module, tree.body)
    return index, trees


INDEX, TREES = _index()


def _external(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def _resolves(name: str, seen: frozenset[str] = frozenset()) -> bool:
    """``name`` is a full name of ours, reached through the imports and bases of ours, or of a package."""
    if name in INDEX.names or name in seen or len(seen) > 20:
        return name in INDEX.names
    seen = seen | {name}
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        prefix, rest = ".".join(parts[:cut]), parts[cut:]
        if prefix in INDEX.aliases:
            return _resolves(".".join([INDEX.aliases[prefix], *rest]), seen)
        if prefix in INDEX.bases:
            module = prefix.rpartition(".")[0]
            return any(_resolves(".".join([full, *rest]), seen)
                       for base in INDEX.bases[prefix] for full in (f"{module}.{base}", base))
        if prefix in INDEX.names and prefix not in INDEX.modules:
            return False  # a function or an attribute of ours has no members to name
    if name in INDEX.aliases:
        return _resolves(INDEX.aliases[name], seen)
    # Outside the package: a dotted name (``decimal.Decimal``), never a bare word that a module happens to be.
    return not name.startswith("neuron_docs") and "." in name and _external(name)


def resolves(target: str, module: str, cls: str | None, role: str = "obj") -> bool:
    target = re.sub(r"^.*<(.+)>$", r"\1", " ".join(target.split()), flags=re.S).lstrip("~!").removesuffix("()")
    package = module if module in INDEX.packages else module.rpartition(".")[0]
    if target.startswith("."):
        rest = target.lstrip(".")
        up = len(target) - len(rest) - 1
        base = ".".join(package.split(".")[: len(package.split(".")) - up])
        return _resolves(f"{base}.{rest}") or any(n.endswith(f".{rest}") for n in INDEX.names)
    candidates = [*([f"{module}.{cls}.{target}"] if cls else []), f"{module}.{target}", target]
    return any(_resolves(c) for c in candidates) or (role == "mod" and _external(target))  # :mod:`csv`


def _comments(module: str) -> list[tuple[int, str]]:
    path = PACKAGE / Path(*module.split(".")[1:])
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    return [(n, line) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if line.lstrip().startswith("#:")]


def references() -> list[tuple[str, int, str | None, str, str]]:
    """(module, line, enclosing class, target, role) of every reference in a docstring or ``#:`` comment."""
    out = []
    for module, tree in TREES.items():
        classes: list[tuple[int, int, str]] = []

        def visit(node: ast.AST, cls: str | None) -> None:
            for child in ast.iter_child_nodes(node):
                inner = cls
                if isinstance(child, ast.ClassDef):
                    inner = f"{cls}.{child.name}" if cls else child.name
                    classes.append((child.lineno, child.end_lineno or child.lineno, inner))
                if isinstance(child, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    doc = ast.get_docstring(child, clean=False)
                    if doc:
                        line = child.body[0].lineno
                        out.extend((module, line, inner, m.group(2), m.group(1)) for m in ROLE.finditer(doc))
                visit(child, inner)

        doc = ast.get_docstring(tree, clean=False)
        if doc:
            out.extend((module, 1, None, m.group(2), m.group(1)) for m in ROLE.finditer(doc))
        visit(tree, None)
        for line, text in _comments(module):
            cls = max(((s, c) for s, e, c in classes if s <= line <= e), default=(0, None))[1]
            out.extend((module, line, cls, m.group(2), m.group(1)) for m in ROLE.finditer(text))
    return out


def test_references_are_found() -> None:
    found = references()
    assert len(found) > 300
    assert ("neuron_docs.benchmark_import.fold", 1, None, "StateFacts", "class") in found


@pytest.mark.parametrize(("target", "module", "cls", "expected"), [
    ("StateFacts", "neuron_docs.benchmark_import.fold", None, True),  # defined in the module
    ("BenchmarkHistoryIndex.judgement", "neuron_docs.data.published.history_view", None, True),  # a method
    (".judgement.RULE", "neuron_docs.data.published.history_view", None, True),  # relative
    ("..records.published.Figure", "neuron_docs.data.published.columns", None, True),  # relative, up one
    (".files.atomic.write_files", "neuron_docs.benchmark_import.export", None, True),  # Sphinx's search
    ("~neuron_docs.data.catalog.HISTORY_FILES", "neuron_docs.cli", None, True),  # absolute
    ("~decimal.Decimal", "neuron_docs.cli", None, True),  # outside the package
    ("VALUE_W", "neuron_docs.directives.charts.svg", None, True),  # WIDTH, VALUE_W = ...
    ("HeldSince", "neuron_docs.data.figures.advisor", "Best", True),  # type HeldSince = ..., from a class
    ("write <neuron_docs.benchmark_import.history_rows.History.write>", "neuron_docs.cli", None, True),  # titled
    ("..published.importer", "neuron_docs.data.records.published", None, False),  # a module gone
    (".history_files.History", "neuron_docs.benchmark_import.fold", None, False),
    ("price_in_force", "neuron_docs.benchmark_import.states", None, False),  # not here any more
    ("decimal.Nothing", "neuron_docs.cli", None, False),
    ("copy", "neuron_docs.cli", None, False),  # a module outside, but not named as one
])
def test_the_resolver(target: str, module: str, cls: str | None, expected: bool) -> None:
    assert resolves(target, module, cls) is expected


def test_a_module_outside_resolves_as_a_module() -> None:
    assert resolves("csv", "neuron_docs.cli", None, "mod")
    assert not resolves("nothing_by_this_name", "neuron_docs.cli", None, "mod")


def test_every_docstring_reference_resolves() -> None:
    broken = [f"{module}:{line}: :{role}:`{target}`" for module, line, cls, target, role in references()
              if not resolves(target, module, cls, role)]
    assert broken == []
