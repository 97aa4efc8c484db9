"""An ``errata.yaml`` expression that cannot be computed is a data error at the erratum's line.

The real site is built from a copy of ``data/`` in which one erratum's expression overflows to
infinity and another divides by zero: each is one warning located at ``errata.yaml:<line of the
erratum>`` (not at the page showing the table), no traceback, and the errata page is still built
with every other erratum's recomputed value.
"""

from __future__ import annotations

import re

import pytest

from helpers.site import build_site
from helpers.warnings import without_colours
from neuron_docs.data import load_catalog

OVERFLOW = "run:{path} * 1e308 * 1e308"
ZERO = "ratio(run:{path}, diff(run:{path}, run:{path}))"


@pytest.fixture(scope="module")
def broken_errata(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - (SiteBuild, ids, lines)
    import shutil

    from helpers.paths import DATA

    root = tmp_path_factory.mktemp("errata-location")
    data = root / "data"
    shutil.copytree(DATA, data)
    catalog = load_catalog(data)
    with_expression = [e for e in catalog.errata.values() if e.expression]
    assert len(with_expression) >= 3, "the data needs three errata with an expression for this test"
    throughput = next(r.id for r in catalog.inference_runs.values() if r.throughput_per_s)
    broken = {with_expression[0].id: OVERFLOW.format(path=f"{throughput}:throughput"),
              with_expression[1].id: ZERO.format(path=f"{throughput}:throughput")}
    text = (data / "errata.yaml").read_text(encoding="utf-8")
    for erratum_id, expression in broken.items():
        old = catalog.errata[erratum_id].expression
        # Only the expression's line changes, so every erratum keeps its line.
        pattern = re.compile(rf"(\n\s+expression: ){re.escape(old)}\n")
        starts = [m.start() for m in re.finditer(rf"\n\s+- id: {re.escape(erratum_id)}\n", text)]
        assert len(starts) == 1
        match = pattern.search(text, starts[0])
        assert match
        text = text[:match.start()] + match.group(1) + expression + "\n" + text[match.end():]
    (data / "errata.yaml").write_text(text, encoding="utf-8")
    lines = {erratum_id: catalog.origin("errata", erratum_id)[1] for erratum_id in broken}
    assert not load_catalog(data).errors  # the expressions are only evaluated where they are shown
    # Every page is read; only the errata page, the one page that shows errata, is written.
    return build_site(root, data_dir=data, pages=("errata",)), with_expression, lines


def test_each_broken_expression_is_one_warning_at_its_data_line(broken_errata) -> None:
    site, _, lines = broken_errata
    assert "Traceback" not in site.warnings
    plain = without_colours(site.warnings)
    warnings = [line for line in plain.splitlines() if "WARNING" in line]
    for erratum_id, line in lines.items():
        assert line
        mine = [w for w in warnings if f"errata[{erratum_id}].expression" in w]
        assert len(mine) == 1, warnings
        assert mine[0].startswith(f"{site.app.config.neuron_data_dir}/errata.yaml:{line}: WARNING"), mine[0]
    assert "does not give a finite number" in site.warnings or "too large" in site.warnings
    assert "division by zero" in site.warnings


def test_the_errata_page_still_shows_the_other_values(broken_errata) -> None:
    site, with_expression, lines = broken_errata
    page = next(p for p in site.outdir.rglob("*.html") if p.read_text(encoding="utf-8").count("neuron-errata") > 0
                and "_downloads" not in p.parts)
    text = page.read_text(encoding="utf-8")
    values = re.findall(r'<abbr[^>]*class="[^"]*neuron-value', text)
    assert len(values) == len(with_expression) - len(lines)
    for erratum in with_expression:
        assert erratum.explanation.split()[0] in text
