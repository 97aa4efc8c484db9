"""Issue 32, "Nothing lost, whatever happens": a command that writes ``data/`` writes all of its files or
none, one writer at a time, and a rerun after an interruption anywhere ends where an uninterrupted run
ends (:mod:`neuron_docs.data.files.atomic`)."""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

import pytest

from neuron_docs.data import load_catalog
from neuron_docs.data.files import atomic
from neuron_docs.benchmark_import.command import main

from helpers.paths import DATA
from test_benchmark_history import encoder, row, state


class Killed(BaseException):
    """The process dying at this instant (not an ``Exception``: nothing may catch it)."""


def snapshot(data: Path) -> dict[str, bytes]:
    return {p.relative_to(data).as_posix(): p.read_bytes() for p in sorted(data.rglob("*"))
            if p.is_file() and p.name != atomic.LOCK}


@pytest.fixture
def states(tmp_path: Path) -> Path:
    src = tmp_path / "states"
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row())})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row(), row(model="gpt2"))})
    return src


def fresh(tmp_path: Path, name: str) -> Path:
    """The data without its history: the import starts from an empty one (the worst case of the issue)."""
    data = tmp_path / name
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("history"))
    return data


def interrupt(monkeypatch: pytest.MonkeyPatch, at: int, *, cleanup: bool) -> list[int]:
    """Kill the writer at its ``at``-th write step (a file opened for writing, or a rename); without
    ``cleanup``, as a SIGKILL does, nothing it would have undone is undone."""
    calls = [0]
    real_open, real_replace, real_unlink = open, os.replace, Path.unlink

    def step() -> None:
        calls[0] += 1
        if calls[0] == at:
            if not cleanup:
                monkeypatch.setattr(Path, "unlink", lambda self, missing_ok=False: None)
            raise Killed

    def fake_open(file, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+"):
            step()
        return real_open(file, mode, *args, **kwargs)

    def fake_replace(src, dst):
        step()
        return real_replace(src, dst)

    monkeypatch.setattr(atomic, "open", fake_open, raising=False)
    monkeypatch.setattr(atomic.os, "replace", fake_replace)
    del real_unlink
    return calls


@pytest.mark.parametrize("cleanup", [True], ids=["exception"])
def test_an_import_killed_at_any_write_is_repaired_by_its_rerun(tmp_path, states, monkeypatch, capsys, cleanup):
    reference = fresh(tmp_path, "reference")
    assert main([str(states), "--data", str(reference)]) == 0
    expected = snapshot(reference)
    assert "observations.csv" in " ".join(expected)
    at = 1
    while True:
        data = fresh(tmp_path, f"data-{at}")
        before = snapshot(data)
        with monkeypatch.context() as patch:
            calls = interrupt(patch, at, cleanup=cleanup)
            try:
                main([str(states), "--data", str(data)])
            except Killed:
                pass
            else:
                break  # fewer write steps than ``at``: every one has been killed once
        middle = snapshot(data)
        visible = {k: v for k, v in middle.items() if not Path(k).name.startswith(".")}
        # all or none: the files a reader sees are the old ones or the new ones, never a mix
        # (once committed, the journal says so and the reader refuses to go on: see below)
        if atomic.JOURNAL not in middle:
            assert visible == before, f"killed at step {at}: a file changed before the commit"
        else:
            assert any(e.message.startswith("an import was interrupted") for e in load_catalog(data).errors)
        assert main([str(states), "--data", str(data)]) == 0
        assert snapshot(data) == expected, f"killed at step {at}: the rerun did not converge"
        at += 1
    assert at > 5, calls


def _killed_at(at: int, data: Path, argv: list[str]) -> int | None:
    """Run the importer's ``main(argv)`` in a child process that SIGKILLs itself at its ``at``-th write
    step under ``data``: a file opened for writing (by any code: an audit hook sees every ``open``) or
    a rename. Nothing runs after the kill (no ``finally``, no cleanup). Return the child's exit code,
    or None when it was killed."""
    import signal
    import sys

    root = os.fsdecode(data.resolve())
    pid = os.fork()  # the workers of make test run one thread: fork is safe there
    if pid == 0:
        code = 70
        try:
            steps = [0]

            def hook(event: str, args: tuple) -> None:
                if event == "open" and isinstance(args[0], str | bytes | os.PathLike):
                    flags = args[2] if isinstance(args[2], int) else 0
                    writing = bool(flags & (os.O_WRONLY | os.O_RDWR)) or (isinstance(args[1], str) and any(
                        c in args[1] for c in "wax+"))
                    hit = writing and os.path.abspath(os.fsdecode(args[0])).startswith(root)
                elif event == "os.rename":
                    hit = os.path.abspath(os.fsdecode(args[0])).startswith(root)
                else:
                    return
                if hit:
                    steps[0] += 1
                    if steps[0] == at:
                        os.kill(os.getpid(), signal.SIGKILL)

            sys.addaudithook(hook)
            code = main(argv)
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return None if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def test_a_snapshot_import_killed_at_each_file_it_writes_is_repaired_by_its_rerun(tmp_path, capsys):
    """A published snapshot that is the latest state writes the history's files, the tables' layouts
    and the prices: one write (all or none). Killed for real (SIGKILL) at each file it opens for
    writing and each rename, then run again: data/ ends byte for byte as after an uninterrupted run,
    and a reader never sees the new history beside the old prices."""
    from test_benchmark_history import encoder, row

    snap = tmp_path / "snap" / "inf2"
    snap.mkdir(parents=True)
    (snap / "throughput_data_encoder.csv").write_text(encoder(row(), row(model="gpt2")), encoding="utf-8")
    (snap / "inf2_instance_prices.csv").write_text("Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.45\n",
                                                   encoding="utf-8")
    argv = [str(tmp_path / "snap"), "--as-of", "2030-01-01", "--data"]
    reference = fresh(tmp_path, "reference")
    assert main([*argv, str(reference)]) == 0
    expected = snapshot(reference)
    untouched = snapshot(fresh(tmp_path, "untouched"))
    changed = {k for k, v in expected.items() if untouched.get(k) != v and not Path(k).name.startswith(".")}
    assert {"prices.yaml", "benchmarks/published/tables.yaml", "benchmarks/history/observations.csv"} <= changed
    at, refused = 1, False
    while True:
        data = fresh(tmp_path, f"data-{at}")
        before = snapshot(data)
        if _killed_at(at, data, [*argv, str(data)]) is not None:
            break  # it finished: every write step has been killed once
        middle = snapshot(data)
        visible = {k: v for k, v in middle.items() if not Path(k).name.startswith(".")}
        if atomic.JOURNAL not in middle:
            assert visible == before, f"killed at step {at}: a file changed before the commit"
        else:  # the build refuses it (said once: a load of the data costs what a rerun does)
            assert atomic.pending_write(data)
            refused = refused or any(e.message.startswith("an import was interrupted")
                                     for e in load_catalog(data).errors)
        assert main([*argv, str(data)]) == 0
        assert snapshot(data) == expected, f"killed at step {at}: the rerun did not converge"
        at += 1
    assert at > len(changed) * 2, at  # each file staged and put in place, the journal, the lock
    assert refused
    capsys.readouterr()


def test_a_second_writer_is_refused_with_a_message(tmp_path, states, capsys):
    data = fresh(tmp_path, "data")
    before = snapshot(data)
    with open(data / atomic.LOCK, "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("4242")
        held.flush()
        assert main([str(states), "--data", str(data)]) == 75
    assert "another command (process 4242) is writing the data; nothing written" in capsys.readouterr().err
    assert snapshot(data) == before
    assert main([str(states), "--data", str(data)]) == 0  # the lock released, the import goes through


def test_a_staged_file_without_a_commit_is_removed_and_a_committed_one_put_in_place(tmp_path):
    data = tmp_path / "data"
    (data / "b").mkdir(parents=True)
    (data / "a.csv").write_text("old a\n")
    (data / "b" / "c.csv").write_text("old c\n")
    atomic.staged_name(data / "a.csv").write_text("half")  # killed while staging: no journal
    with atomic.data_lock(data):
        pass
    assert snapshot(data) == {"a.csv": b"old a\n", "b/c.csv": b"old c\n"}
    # killed after the commit, one file replaced and the other not
    atomic.staged_name(data / "b" / "c.csv").write_text("new c\n")
    (data / "a.csv").write_text("new a\n")
    (data / atomic.JOURNAL).write_text('["a.csv", "b/c.csv"]')
    assert atomic.pending_write(data)
    with atomic.data_lock(data):
        pass
    assert snapshot(data) == {"a.csv": b"new a\n", "b/c.csv": b"new c\n"}
    assert not atomic.pending_write(data)


def test_a_second_build_in_the_same_build_directory_waits_for_the_first(tmp_path):
    """Two builds a second apart: the second says so and waits until the first has finished
    (``state.build_lock``, taken on ``config-inited``, released after every ``build-finished`` handler)."""
    import subprocess
    import sys
    import time

    from neuron_docs.state import build_lock

    lock = tmp_path / "build" / build_lock.LOCK_NAME
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; sys.path.insert(0, sys.argv[2]); from neuron_docs.state import build_lock as b; "
        "from pathlib import Path; b.acquire(Path(sys.argv[1])); print('held', flush=True); time.sleep(2)"),
        str(lock), str(Path(build_lock.__file__).parents[2])], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    start = time.monotonic()
    build_lock.acquire(lock)
    waited = time.monotonic() - start
    build_lock.release(lock)
    holder.wait(10)
    assert waited > 1.0
    build_lock.acquire(lock)  # free again: taken at once, and taken again by the same process
    build_lock.acquire(lock)
    build_lock.release(lock)


def _site_files(html: Path) -> dict[str, bytes]:
    return {p.relative_to(html).as_posix(): p.read_bytes() for p in sorted(html.rglob("*"))
            if p.is_file() and p.name != ".buildinfo"}


@pytest.mark.sweep
def test_an_incremental_build_equals_a_clean_build_of_the_same_data(tmp_path):
    """A rebuild with nothing changed, then one after a rationale's edit, leave the site a clean build
    of the edited data makes: every page, sitemap.xml (every page listed, not only those written)
    and searchindex.js (the index entries of pages not written kept). Three builds of the real site:
    make test-e2e."""
    from helpers.paths import copy_source
    from helpers.site import build_site

    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    source = copy_source(tmp_path / "source")
    incremental = tmp_path / "incremental"
    build_site(incremental, data, srcdir=source)
    build_site(incremental, data, srcdir=source, fresh=False)
    families = data / "families.yaml"
    text = families.read_text(encoding="utf-8")
    assert "rationale: >-\n" in text
    families.write_text(text.replace("rationale: >-\n", "rationale: >-\n          Edited once.\n", 1),
                        encoding="utf-8")
    build_site(incremental, data, srcdir=source, fresh=False)
    clean = build_site(tmp_path / "clean", data, srcdir=source)
    assert "Edited once." in "".join(p.read_text(encoding="utf-8") for p in clean.outdir.rglob("*.html"))
    got, expected = _site_files(incremental / "html"), _site_files(clean.outdir)
    assert sorted(got) == sorted(expected)
    assert [name for name in expected if got[name] != expected[name]] == []
    assert expected["sitemap.xml"].count(b"<loc>") > 30


HAND_EDITED = """\
  # typed by hand, from the AWS pricing page (a comment the import must keep)
  - id: inf2.xlarge-on-demand-2026-01-01
    usd_per_hour: '0.7582'   # on-demand, us-east-1
    instance: inf2.xlarge
    basis: on-demand
    source: neuron-sdk-benchmarks
    as_of: 2026-01-01
"""


def test_an_import_keeps_prices_yaml_as_people_wrote_it(tmp_path):
    """prices.yaml is edited by hand: an import of the same tables leaves it byte for byte; an import
    that changes one price changes that line alone (files.round_trip, called by export.write_data)."""
    import yaml

    from neuron_docs.benchmark_import.export import PRICES_FILE, write_data
    from neuron_docs.benchmark_import.read import ImportResult
    from neuron_docs.data.records import published as ps

    data = fresh(tmp_path, "data")
    prices = data / PRICES_FILE
    prices.write_text(prices.read_text(encoding="utf-8") + HAND_EDITED, encoding="utf-8")
    before = prices.read_bytes()
    rows = yaml.safe_load(before)["prices"]
    table_id = "inf1-instance-prices"
    tables = yaml.safe_load((data / "benchmarks/published/tables.yaml").read_text(encoding="utf-8"))
    table = ps.PublishedTable.model_validate(next(t for t in tables["published_tables"] if t["id"] == table_id))
    same = [ps.InstancePrice.model_validate(r) for r in rows if r.get("table") == table_id]
    assert same
    write_data(ImportResult(prices=same, tables=[table]), data)
    assert prices.read_bytes() == before
    changed = [p.model_copy(update={"usd_per_hour": "9.990"}) if i == 0 else p for i, p in enumerate(same)]
    write_data(ImportResult(prices=changed, tables=[table]), data)
    after = prices.read_text(encoding="utf-8").splitlines()
    old = before.decode().splitlines()
    assert len(after) == len(old)
    assert [(a, b) for a, b in zip(old, after) if a != b] == [
        (old[4], old[4].replace("usd_per_hour: '0.110'", "usd_per_hour: '9.990'"))]
