"""One lifecycle: the extension's event handlers are the table of :mod:`neuron_docs.lifecycle`, in
build order, and Sphinx runs them in the table's order; no other module connects a handler."""

from __future__ import annotations

import ast
import io

import pytest

from helpers.paths import REPO
from neuron_docs import lifecycle
from neuron_docs.site.device_checks import MatrixCollector

PACKAGE = REPO / "_ext" / "neuron_docs"
#: The registration helpers that give each build what features registered (as ``app.add_directive``
#: does): they connect one handler per registration, at builder-inited 400.
REGISTRATIONS = {"render/placeholder.py": "add_renderers", "state/hosted.py": "add_hosted_type"}


def _function(handler: object) -> object:
    """A handler as a function (a bound method of a collector: its function)."""
    return getattr(handler, "__func__", handler)


def _registration(handler: object) -> bool:
    """Whether ``handler`` was connected by a registration helper (a renderer's or a hosted type's)."""
    function = getattr(handler, "func", handler)  # a functools.partial: its function
    return getattr(function, "__module__", "") in ("neuron_docs.render.placeholder", "neuron_docs.state.hosted")\
        and getattr(function, "__qualname__", "").startswith(("_give", "add_hosted_type.<locals>"))


@pytest.fixture(scope="module")
def listeners(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[int, object]]]:
    """The extension's handlers of each event as the site's Sphinx application runs them (made, not built)."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    out = tmp_path_factory.mktemp("lifecycle")
    with patch_docutils(REPO), docutils_namespace():
        app = Sphinx(REPO / "source", REPO, out / "html", out / "doctrees", "html", status=io.StringIO(),
                     warning=io.StringIO(), freshenv=True)
    found: dict[str, list[tuple[int, object]]] = {}
    for event, connected in app.events.listeners.items():
        for listener in sorted(connected, key=lambda listener: listener.priority):  # as Sphinx runs them
            handler = listener.handler
            ours = getattr(_function(handler), "__module__", "").startswith("neuron_docs") or isinstance(
                getattr(handler, "__self__", None), MatrixCollector)
            if ours and not _registration(handler):
                found.setdefault(event, []).append((listener.priority, _function(handler)))
    return found


def test_sphinx_runs_the_extensions_handlers_in_the_order_of_the_table(listeners) -> None:  # noqa: ANN001
    table: dict[str, list[tuple[int, object]]] = {}
    for row in lifecycle.HANDLERS:
        table.setdefault(row.phase, []).append((row.priority, _function(row.handler)))
    assert listeners == table


def test_the_table_is_in_build_order() -> None:
    """Phases in the order a build emits them; within a phase, priorities in the order Sphinx runs them."""
    rows = lifecycle.HANDLERS
    order = [(lifecycle.PHASES.index(row.phase), row.priority) for row in rows]
    assert order == sorted(order), [f"{row.phase} {row.priority} {row.handler.__name__}" for row in rows]
    assert len({_function(row.handler) for row in rows}) == len(rows)  # each handler once


def test_only_the_lifecycle_connects_handlers() -> None:
    """No feature connects an event handler of its own (``app.connect``, ``add_env_collector``), but the
    registration helpers of renderers and hosted types."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name == "lifecycle.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        enclosing = {child: node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                     for child in ast.walk(node)}  # innermost last: ast.walk goes outside in
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("connect", "add_env_collector")
                    and enclosing.get(node) != REGISTRATIONS.get(name)):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node.func)}")
    assert found == []


#: Module-level state that is the process's, not a build's (a lock is held by a process).
PROCESS_STATE = {"data/files/atomic.py": {"_held"}, "state/build_lock.py": {"_held"},
                 "site/downloads/json_stream.py": {"MADE_FILES"}, "site/compiled_templates.py": {"COMPILED_TEMPLATES"}}


def _empty_container(node: ast.expr | None) -> bool:
    """``{}``, ``[]``, ``set()``, ``dict()``, ``list()`` or ``None``."""
    if isinstance(node, ast.Dict | ast.List | ast.Set):
        return not getattr(node, "keys", None) and not getattr(node, "elts", None)
    if isinstance(node, ast.Constant):
        return node.value is None
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "dict", "list")
            and not node.args and not node.keywords)


def test_no_module_level_cache_of_build_data() -> None:
    """What a build derives lives on its domain's state or with its catalog (``Catalog.made_once``),
    never in a module variable that the next build in the process would inherit: no ``global``
    statement, and no module-level name bound to an empty container (or None) to be filled later, but
    the process's own state of :data:`PROCESS_STATE`."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{name}:{node.lineno}: global" for node in ast.walk(tree) if isinstance(node, ast.Global)]
        for node in tree.body:
            target, value = ((node.target, node.value) if isinstance(node, ast.AnnAssign)
                             else (node.targets[0], node.value) if isinstance(node, ast.Assign) else (None, None))
            if (isinstance(target, ast.Name) and _empty_container(value)
                    and target.id not in PROCESS_STATE.get(name, ())):
                found.append(f"{name}:{node.lineno}: {target.id}")
    assert found == []


def test_what_is_made_from_a_catalog_stays_with_it(catalog) -> None:  # noqa: ANN001
    """Made once per catalog, never pickled with it, never shared with another catalog."""
    import dataclasses
    import pickle

    from neuron_docs.data.figures.identity import identities
    from neuron_docs.data.published.history_view import BenchmarkHistoryIndex

    index, known = BenchmarkHistoryIndex.of(catalog), identities(catalog)
    assert BenchmarkHistoryIndex.of(catalog) is index and identities(catalog) is known
    other = dataclasses.replace(catalog)
    assert BenchmarkHistoryIndex.of(other) is not index and identities(other) is not known
    assert BenchmarkHistoryIndex.of(catalog) is index  # the first catalog's is still its own
    assert pickle.loads(pickle.dumps(catalog))._made == {}  # noqa: S301 - our own bytes
