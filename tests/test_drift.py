"""The drift checker: literal figures and fit/support words that duplicate or contradict the data."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from neuron_docs.data import load_catalog
from neuron_docs.data.figures.expressions import evaluate
from neuron_docs.data.figures.formatting import NumberFormat, format_number
from neuron_docs.data.figures.values import build_values

from helpers.edits import change_csv_cell
from helpers.paths import FROZEN_DATA, REPO
from helpers.warnings import without_colours

#: The test roots' pages hold literal figures (9.007 ms ...) typed against the frozen data.
DATA = str(FROZEN_DATA)


def _warnings(app) -> list[str]:  # noqa: ANN001
    text = without_colours(app.warning.getvalue())
    return [line for line in text.splitlines() if "WARNING" in line and "[neuron." in line]


@pytest.mark.sphinx("html", testroot="drift-basic", confoverrides={"neuron_data_dir": DATA})
def test_duplicates_and_contradictions_are_located(app) -> None:  # noqa: ANN001
    app.build()
    warnings = _warnings(app)
    index = str(Path(app.srcdir) / "index.rst")
    assert f"{index}:5: WARNING: literal 9.007 ms duplicates run:vit-inf1-b1:p90_latency_ms; write " \
           ":neuron:value:`run:vit-inf1-b1:p90_latency_ms` [neuron.drift]" in warnings
    assert f"{index}:5: WARNING: literal 7.14 ms duplicates run:vit-g5-b1:p90_latency_ms; write " \
           ":neuron:value:`run:vit-g5-b1:p90_latency_ms` [neuron.drift]" in warnings
    assert any(w.startswith(f"{index}:7: WARNING: literal $0.78 contradicts run:beit-g5-b128:cost_per_1m ($0.786)")
               for w in warnings)
    # fit contradiction; the agreeing support sentence, roles, literals and code are not reported
    assert any(w.startswith(f"{index}:12: WARNING: 'good fit' contradicts the data: Transformers Decoders on "
                            "inferentia is not a good fit") for w in warnings)
    assert len(warnings) == 4, warnings
    assert all(w.endswith("[neuron.drift]") for w in warnings)


@pytest.mark.sphinx("html", testroot="drift-basic",
                    confoverrides={"neuron_data_dir": DATA, "suppress_warnings": ["neuron.drift"]})
def test_suppress_warnings_silences_the_checker(app) -> None:  # noqa: ANN001
    app.build()
    assert _warnings(app) == []


@pytest.mark.sphinx("html", testroot="drift-basic",
                    confoverrides={"neuron_data_dir": DATA, "neuron_drift_check": False})
def test_the_checker_can_be_switched_off(app) -> None:  # noqa: ANN001
    app.build()
    assert _warnings(app) == []


@pytest.mark.sphinx("html", testroot="drift-support", confoverrides={"neuron_data_dir": DATA})
def test_support_contradiction_and_markdown_lines(app) -> None:  # noqa: ANN001
    app.build()
    warnings = _warnings(app)
    page = str(Path(app.srcdir) / "index.md")
    assert any(w.startswith(f"{page}:5: WARNING: 'supported' contradicts the data: Diffusion models on trainium "
                            "is not supported") for w in warnings), warnings
    assert any(w.startswith(f"{page}:8: WARNING: literal 800 Gbps duplicates instance:trn1.32xlarge:efa_gbps")
               for w in warnings), warnings
    # A claim in capitals, with no digit in its paragraph, is checked too.
    assert any(w.startswith(f"{page}:12: WARNING: 'Supported' contradicts the data: Diffusion models on trainium")
               for w in warnings), warnings
    assert len(warnings) == 3, warnings


@pytest.mark.sphinx("html", testroot="drift-support",
                    confoverrides={"neuron_data_dir": DATA, "suppress_warnings": ["neuron.drift"]})
def test_the_checker_follows_the_data_dir(app, data_copy: Path) -> None:  # noqa: ANN001
    app.build()
    assert _warnings(app) == []


def test_real_site_builds_clean_with_the_checker(site) -> None:  # noqa: ANN001
    assert "[neuron.drift]" not in site.warnings
    assert site.app.config.neuron_drift_check is True


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - (SiteBuild, Path)
    """The site built from a copy of the data with measurements changed, for the two tests below:
    three runs the derived claims of the pages read, and a run the errata recompute (a cost of
    beit-g5-b128, which none of the other three changes). Returns the build and its data."""
    from helpers.paths import DATA as REAL_DATA
    from helpers.site import build_site

    root = tmp_path_factory.mktemp("drift-changed")
    data = root / "data"
    shutil.copytree(REAL_DATA, data)
    csv = data / "benchmarks" / "inference.csv"
    change_csv_cell(csv, "vit-inf1-b3", "throughput_per_s", lambda v: v * 1.14)
    change_csv_cell(csv, "vit-g5-b128", "throughput_per_s", lambda v: v * 1.07)
    change_csv_cell(csv, "vit-inf1-b1", "p90_latency_ms", lambda v: v * 0.916)
    change_csv_cell(csv, "beit-g5-b128", "throughput_per_s", lambda v: v * 0.84)
    return build_site(root / "out", data_dir=data), data


@pytest.mark.site_edits
def test_derived_claims_follow_a_data_change(changed) -> None:  # noqa: ANN001
    """Change measurements in a copy of the data: every derived claim on the site is recomputed."""
    built, data_copy = changed
    assert "[neuron.data]" not in built.warnings
    values = build_values(load_catalog(data_copy))
    sources = {p: (REPO / "source" / p).read_text(encoding="utf-8")
               for p in ("inference/results-analysis.rst", "training/faq.md", "training/inferentia2.md")}
    role = re.compile(r"(?::neuron:value:|\{neuron:value\})`([^`]+)`")
    checked = 0
    for page, source in sources.items():
        html = built.soup(page.rsplit(".", 1)[0] + ".html")
        rendered = [a.get_text() for a in html.select("abbr.neuron-value")]
        expected = []
        for target in role.findall(source):
            expression, _, spec = target.partition("|")
            result = evaluate(expression, values)
            expected.append(format_number(result.number, result.unit, NumberFormat.parse(spec)))
        assert rendered[: len(expected)] == expected or all(e in rendered for e in expected), page
        checked += len(expected)
    assert checked > 50
    # The differences are written with their words by :neuron:compare: (issue 36).
    analysis = [a.get_text() for a in built.soup("inference/results-analysis.html").select("abbr.neuron-compare")]
    number = {path: values[path].number for path in values}
    gap = number["run:vit-inf1-b3:throughput"] - number["run:vit-g5-b128:throughput"]
    assert f"{format_number(abs(gap), 'inferences/s', NumberFormat(0))} {'more' if gap > 0 else 'fewer'}" in analysis
    lag = number["run:vit-inf1-b1:p90_latency_ms"] - number["run:vit-g5-b1:p90_latency_ms"]
    assert f"{format_number(abs(lag), 'ms', NumberFormat(2))} {'slower' if lag > 0 else 'faster'}" in analysis


@pytest.mark.site_edits
def test_errata_page_recomputes_true_values(changed, catalog) -> None:  # noqa: ANN001
    """The errata's true values follow the changed data (``catalog``: the data before the change)."""
    built, data_copy = changed
    errata = yaml.safe_load((data_copy / "errata.yaml").read_text(encoding="utf-8"))["errata"]
    before = build_values(catalog)["run:beit-g5-b128:cost_per_1m"].number
    values = build_values(load_catalog(data_copy))
    shown = [a.get_text() for a in built.soup("errata.html").select("table.neuron-errata abbr.neuron-value")]
    for entry in errata:
        if entry.get("expression"):
            result = evaluate(entry["expression"], values)
            fmt = NumberFormat.parse(entry.get("format") or "")
            assert format_number(result.number, result.unit, fmt) in shown, entry["id"]
    cost = values["run:beit-g5-b128:cost_per_1m"].number  # with the new throughput
    assert cost > before
    assert format_number(cost, "USD", NumberFormat(2)) in shown
