"""Search that lands: a model's name finds its advisor answer, its performance rows and its history
before anything else, and a page appears once in the results. Ranked as the search page ranks them:
Sphinx's searchtools.js with the site's scorer (``html_search_scorer``) under node
(``tests/search/rank.js``), on the built site's ``searchindex.js``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

RANK = Path(__file__).resolve().parent / "search" / "rank.js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on this machine")


def _rank(site, query: str) -> list[tuple[str, str]]:  # noqa: ANN001
    out = subprocess.run(["node", str(RANK), str(site.outdir), query], capture_output=True, text=True, check=True)
    return [(doc, anchor) for doc, anchor, _score in json.loads(out.stdout)]


@pytest.mark.parametrize("query", ["llama", "bert"])
def test_a_model_finds_its_advisor_answer_its_rows_and_its_history_first_each_page_once(site, query: str) -> None:  # noqa: ANN001
    results = _rank(site, query)
    pages = [doc for doc, _ in results]
    assert len(pages) == len(set(pages)), [p for p in pages if pages.count(p) > 1]
    assert pages[0] == "advisor" and results[0][1] == f"?model={query}"
    kinds = ["advisor" if p == "advisor" else "performance" if p.startswith("performance/")
             else "history" if p.startswith("history/") else "other" for p in pages]
    first_other = kinds.index("other") if "other" in kinds else len(kinds)
    assert "performance" in kinds[:first_other] and "history" in kinds[:first_other]
    assert kinds[:first_other] == sorted(kinds[:first_other], key=["advisor", "performance", "history"].index)
