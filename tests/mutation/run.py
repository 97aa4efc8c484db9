"""``make mutation``: cosmic-ray over the core rules, one module at a time, each with its fastest tests.

The modules and the tests that stand for each are in :data:`MODULES`. The run mutates a copy of the
tree (``build/mutation/tree``), never the working tree, at the lowest CPU priority, one mutant at a
time; per module it writes cosmic-ray's session and report under ``build/mutation/`` and prints
the score (killed / all, a timeout counting as killed). ``tests/MUTATION.md`` records the scores
and what each survivor is. Not part of ``make test``.

    python tests/mutation/run.py [MODULE_SUBSTRING ...]   # all of MODULES, or those matching
    python tests/mutation/run.py --again MODULE_SUBSTRING  # the survivors again, with today's tests
    python tests/mutation/run.py --redo MODULE_SUBSTRING   # every mutant of the session again
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "build" / "mutation"
PY = REPO / ".venv" / "bin"

#: Module (under _ext/neuron_docs/) -> the fastest tests that pin its rules.
MODULES: dict[str, list[str]] = {
    "data/matrix/revisions.py": ["tests/test_matrix_revisions_rules.py", "tests/test_seeded_bugs.py", "-k", "since or cell or history or matrix_revisions or mutation_kills", "tests/test_mutation_kills.py",
                               "tests/test_matrix_revisions.py"],
    "data/checking/identities.py": ["tests/test_identity.py", "tests/test_mutation_kills.py",
                                    "tests/test_seeded_bugs.py::test_a_models_name_is_its_own_records_not_an_alias_or_a_spelling",
                                    "tests/test_seeded_bugs.py::test_any_order_of_records_names_each_identity_after_its_own_record"],
    # Light test files run without the shared fixtures (--noconftest): no catalog is loaded per mutant.
    "drift/verdicts.py": ["--noconftest", "tests/test_verdicts.py"],
    "data/checking/references.py": ["--noconftest", "tests/test_reference_rules.py"],
    "data/figures/formatting.py": ["--noconftest", "tests/test_formatting.py"],
    "data/matrix/changes.py": ["--noconftest", "tests/test_matrix_changes.py"],
    "data/figures/advisor.py": ["--noconftest", "tests/test_advisor_rules.py"],
    "data/figures/runs.py": ["--noconftest", "tests/test_runs_rules.py"],
    "data/published/history_view.py": ["--noconftest", "tests/test_history_view_rules.py"],
    # data/figures and judgement
    "data/published/judgement.py": ["--noconftest", "tests/test_judgement.py", "tests/test_judgement_rules.py"],
    "data/figures/units.py": ["--noconftest", "tests/test_units_rules.py"],
    "data/figures/describe.py": ["--noconftest", "tests/test_describe_rules.py"],
    "data/figures/comparative_words.py": ["--noconftest", "tests/test_comparative_words_rules.py"],
    "data/figures/shown.py": ["--noconftest", "tests/test_shown_rules.py"],
    "data/figures/derived.py": ["--noconftest", "tests/test_derived_cost_rules.py"],
    "data/figures/prices.py": ["--noconftest", "tests/test_price_rules.py"],
    "data/figures/identity.py": ["--noconftest", "tests/test_identity_rules.py"],
    "data/figures/expressions.py": ["--noconftest", "tests/test_expressions.py",
                                    "--deselect", "tests/test_expressions.py::test_real_claims_evaluate"],
    "data/figures/compare.py": ["--noconftest", "tests/test_compare_rules.py"],
    "data/figures/values.py": ["--noconftest", "tests/test_values_rules.py"],
    # (end of data/figures and judgement)
    "data/checking/latest_state.py": ["--noconftest", "tests/test_latest_state_rules.py"],
    "data/checking/history_conflicts.py": ["--noconftest", "tests/test_history_conflicts_rules.py"],
    "data/checking/model_sizes.py": ["--noconftest", "tests/test_model_size_rules.py"],
    "data/checking/published_references.py": ["--noconftest", "tests/test_published_reference_rules.py"],
    "state/dependencies.py": ["--noconftest", "tests/test_dependency_rules.py"],
    "site/downloads/csv_index.py": ["--noconftest", "tests/test_csv_index_rules.py"],
    # data/checking and drift matching
    "data/checking/every_file.py": ["--noconftest", "tests/test_every_file_rules.py"],
    "data/checking/errors.py": ["--noconftest", "tests/test_located_error_rules.py"],
    "data/checking/touching.py": ["--noconftest", "tests/test_touching_rules.py"],
    "data/checking/matrix_files.py": ["--noconftest", "tests/test_matrix_file_rules.py"],
    "data/checking/validation.py": ["--noconftest", "tests/test_validation_rules.py"],
    "data/checking/file_records.py": ["--noconftest", "tests/test_validation_rules.py"],
    "drift/names.py": ["--noconftest", "tests/test_name_rules.py"],
    "drift/literal_figures.py": ["--noconftest", "tests/test_literal_figure_rules.py"],
    "drift/figure_index.py": ["--noconftest", "tests/test_figure_index_rules.py"],
    # site/downloads
    "site/downloads/table_csv.py": ["--noconftest", "tests/test_table_csv_rules.py"],
    "site/downloads/json_stream.py": ["--noconftest", "tests/test_json_stream_rules.py"],
    "site/downloads/data_json.py": ["--noconftest", "tests/test_data_json_rules.py"],
    "site/downloads/history_csv.py": ["--noconftest", "tests/test_history_csv_rules.py"],
    "site/downloads/links.py": ["--noconftest", "tests/test_download_link_rules.py"],
    "site/downloads/table_files.py": ["--noconftest", "tests/test_table_file_rules.py"],
    "site/downloads/data_schema.py": ["--noconftest", "tests/test_data_schema_rules.py"],
    "site/downloads/data_download.py": ["--noconftest", "tests/test_data_download_rules.py"],
    # fit, free text and the history's columns
    "data/figures/fit.py": ["--noconftest", "tests/test_fit_rules.py"],
    "data/files/free_text.py": ["--noconftest", "tests/test_free_text_rules.py"],
    "data/published/columns.py": ["--noconftest", "tests/test_columns_rules.py"],
    # drift matching (stop 43)
    "drift/quantities.py": ["--noconftest", "tests/test_quantity_rules.py"],
    "drift/units.py": ["--noconftest", "tests/test_quantity_rules.py"],
    "drift/comparatives.py": ["--noconftest", "tests/test_drift_comparison_rules.py"],
    "drift/passages.py": ["--noconftest", "tests/test_passage_rules.py"],
    "drift/aspects.py": ["--noconftest", "tests/test_aspect_rules.py"],
    "drift/keywords.py": ["--noconftest", "tests/test_keyword_rules.py"],
    "drift/engine.py": ["--noconftest", "tests/test_engine_rules.py"],
    "drift/tables.py": ["--noconftest", "tests/test_table_rules.py"],
    "drift/fit_claims.py": ["--noconftest", "tests/test_fit_claim_rules.py"],
    "drift/sources.py": ["--noconftest", "tests/test_other_source_rules.py"],
    "drift/history.py": ["--noconftest", "tests/test_history_quote_rules.py"],
    "drift/data_text.py": ["--noconftest", "tests/test_data_text_rules.py"],
    "drift/page_text.py": ["--noconftest", "tests/test_page_text_rules.py"],
    "drift/audit.py": ["--noconftest", "tests/test_audit_rules.py"],
    # the benchmark importer
    "benchmark_import/history_rows.py": ["--noconftest", "tests/test_history_rows_rules.py"],
    "benchmark_import/tables.py": ["--noconftest", "tests/test_import_tables_rules.py"],
    "benchmark_import/read.py": ["--noconftest", "tests/test_import_read_rules.py", "tests/test_import_tables_rules.py"],
    "benchmark_import/fold.py": ["--noconftest", "tests/test_import_fold_rules.py"],
    "benchmark_import/export.py": ["--noconftest", "tests/test_import_export_rules.py"],
    "benchmark_import/command.py": ["--noconftest", "tests/test_import_command_rules.py"],
    "benchmark_import/states.py": ["--noconftest", "tests/test_import_states_rules.py"],
}

#: A module's timeout per mutant, where 120 s is too long: its selection runs in about 2 s, and
#: mutants that loop for ever (judgement.py's merging of levels) would each take the full 120 s.
TIMEOUTS: dict[str, float] = {"data/published/judgement.py": 30.0,
                               # page_text.py: a loop's step made 0 reads the same line for ever
                               "drift/page_text.py": 30.0}

#: Operators left out: bitwise and shift replacements of arithmetic (the rules do no bit arithmetic:
#: each such mutant is an error any test catches, so they only pad the score) and the random
#: variable inserter/replacer.
EXCLUDED = [r"core/ReplaceBinaryOperator_.*_(BitOr|BitAnd|BitXor|LShift|RShift|Pow|FloorDiv|Mod)$",
            r"core/Variable(Inserter|Replacer)"]


def _annotation_spans(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where ``path``'s annotations and type aliases are: never evaluated at run time (every module
    has ``from __future__ import annotations``; a ``type`` alias is lazy), so a mutant there (the
    ``|`` of ``str | None`` made ``+``) is equivalent by construction."""
    import ast

    spans = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node.returns)
        elif isinstance(node, ast.arg | ast.AnnAssign):
            found.append(node.annotation)
        elif isinstance(node, ast.TypeAlias):
            found.append(node.value)
        spans += [((n.lineno, n.col_offset), (n.end_lineno or n.lineno, n.end_col_offset or 0))
                  for n in found if n is not None]
    return spans


def skip_annotations(session: Path) -> int:
    """Mark the session's mutants inside annotations as skipped; how many."""
    from cosmic_ray.work_db import use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    skipped = 0
    with use_db(str(session)) as db:
        spans: dict[str, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
        for item in db.work_items:
            for mutation in item.mutations:
                key = str(mutation.module_path)
                if key not in spans:
                    spans[key] = _annotation_spans(Path(mutation.module_path))
                start = tuple(mutation.start_pos)
                if any(low <= start < high for low, high in spans[key]):
                    db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
                    skipped += 1
                    break
    return skipped


def _tree() -> Path:
    """A copy of the tree to mutate (the working tree is never changed), without bytecode caches."""
    tree = OUT / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(REPO, tree, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", "build", "__pycache__", ".mypy_cache", ".hypothesis"))
    return tree


def _present(tests: list[str], tree: Path) -> list[str]:
    """``tests`` without the test files (or ``file::test`` ids) the tree does not have."""
    return [t for t in tests if not t.startswith("tests/") or (tree / t.partition("::")[0]).exists()]


def _command(tests: list[str]) -> str:
    """The test command of a module's mutants: its tests, stopping at the first failure. A light file
    (``--noconftest``) runs without hypothesis's pytest plugin too: importing it is 1.5 to 3 s of a
    mutant's 4 (the light files do not use hypothesis; a file that does still runs its tests)."""
    light = ["-p", "no:hypothesispytest"] if "--noconftest" in tests else []
    return f"{PY / 'python'} -m pytest -x -q -n0 {' '.join(shlex.quote(t) for t in [*light, *tests])}"


def run(module: str, tests: list[str], tree: Path) -> tuple[int, int]:
    name = module.replace("/", ".").removesuffix(".py")
    session, config = OUT / f"{name}.sqlite", OUT / f"{name}.toml"
    command = _command(tests)
    config.write_text(textwrap.dedent(f"""\
        [cosmic-ray]
        module-path = "_ext/neuron_docs/{module}"
        timeout = {TIMEOUTS.get(module, 120.0)}
        excluded-modules = []
        test-command = "{command}"

        [cosmic-ray.distributor]
        name = "local"

        [cosmic-ray.filters.operators-filter]
        exclude-operators = {json.dumps(EXCLUDED)}
        """), encoding="utf-8")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    session.unlink(missing_ok=True)
    subprocess.run([PY / "cosmic-ray", "init", config, session], cwd=tree, check=True, env=env)
    subprocess.run([PY / "cr-filter-operators", session, config], cwd=tree, check=True, env=env)
    cwd = Path.cwd()
    os.chdir(tree)  # the session's module paths are relative to the tree
    try:
        skip_annotations(session)
    finally:
        os.chdir(cwd)
    subprocess.run(["nice", "-n", "19", PY / "cosmic-ray", "exec", config, session], cwd=tree, check=True, env=env)
    return score(session, name)


def again(module: str, tree: Path, redo: bool = False) -> tuple[int, int]:
    """Run the survivors of ``module``'s session again (every mutant with ``redo``), with the tests as
    they are now (the tests written for them copied into the tree)."""
    name = module.replace("/", ".").removesuffix(".py")
    session, config = OUT / f"{name}.sqlite", OUT / f"{name}.toml"
    shutil.copytree(REPO / "tests", tree / "tests", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
    command = _command(_present(MODULES[module], tree))
    config.write_text("\n".join(f"test-command = {json.dumps(command)}" if line.startswith("test-command") else line
                                for line in config.read_text(encoding="utf-8").splitlines()) + "\n", encoding="utf-8")
    # A run stopped mid-mutant leaves that mutant in the tree's copy: start from the code as it is.
    shutil.copytree(REPO / "_ext", tree / "_ext", dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    with sqlite3.connect(session) as db:
        db.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'" if not redo else
                   "DELETE FROM work_results WHERE worker_outcome != 'SKIPPED'")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run(["nice", "-n", "19", PY / "cosmic-ray", "exec", config, session], cwd=tree, check=True, env=env)
    return score(session, name)


def score(session: Path, name: str) -> tuple[int, int]:
    report = subprocess.run([PY / "cr-report", "--show-output", session], capture_output=True, text=True).stdout
    (OUT / f"{name}.report.txt").write_text(report, encoding="utf-8")
    with sqlite3.connect(session) as db:
        outcomes = [row[0] for row in db.execute(
            "SELECT test_outcome FROM work_results WHERE worker_outcome != 'SKIPPED'")]
    return sum(o != "SURVIVED" for o in outcomes), len(outcomes)  # KILLED, or INCOMPETENT (a timeout, an error)


def main(wanted: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    retry, redo = "--again" in wanted, "--redo" in wanted
    retry = retry or redo
    wanted = [w for w in wanted if w not in ("--again", "--redo")]
    tree = OUT / "tree" if retry else _tree()
    chosen = {m: t for m, t in MODULES.items() if not wanted or any(w in m for w in wanted)}
    for module, tests in chosen.items():
        if retry:
            killed, total = again(module, tree, redo)
        else:
            killed, total = run(module, _present(tests, tree), tree)
        line = f"{module}: {killed}/{total} killed ({100 * killed / max(total, 1):.1f}%)"
        print(line, flush=True)
        with (OUT / "scores.txt").open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
