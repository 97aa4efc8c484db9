"""Hooks a benchmarked Sphinx project loads to report the pages a build re-reads and writes.

``env-before-read-docs`` prints the pages read (``BENCH-READ:``) and ``doctree-resolved`` collects
the pages written (``BENCH-WRITTEN:``, printed when the build finishes); :class:`run.Build` parses
both lines. Loaded as an extension (``extensions.append("page_hooks")``) by the synthetic projects
of :mod:`generate` and by the copies of the real site of :mod:`history`.
"""

from __future__ import annotations

from typing import Any

READ_MARK = "BENCH-READ:"
WRITTEN_MARK = "BENCH-WRITTEN:"

_WRITTEN: list[str] = []


def _report_read(app: Any, env: Any, docnames: Any) -> None:
    print(READ_MARK + " " + " ".join(sorted(docnames)), flush=True)


def _note_written(app: Any, doctree: Any, docname: str) -> None:
    _WRITTEN.append(docname)


def _report_written(app: Any, exception: Any) -> None:
    print(WRITTEN_MARK + " " + " ".join(sorted(_WRITTEN)), flush=True)


def setup(app: Any) -> dict[str, bool]:
    app.connect("env-before-read-docs", _report_read)
    app.connect("doctree-resolved", _note_written)
    app.connect("build-finished", _report_written)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
