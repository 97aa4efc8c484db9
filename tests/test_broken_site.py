"""Broken data at the site level: the site is still built, the problem is shown and located.

A copy of ``data/`` holds one broken family record (a misspelt key in its guideline prose). A
build that is not strict still writes every page, with the support matrix intact (its cells are the
revisions' own) and
the broken record in a visible "Data problem" box; its warning names the file, the line and the
field. A strict build (``-W``, like ``make html``) fails, with that located message and no Python
traceback.

The same copy has a device refused (a specification of 1.7e308) and an instance refused (a price
of 1.7e308), issue 32: the device keeps its page, which shows its "Data problem" box; the instance's
box is on its device's page and not on another device's; the refused value is printed nowhere.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from helpers.paths import REPO
from helpers.site import build_site


BROKEN_FAMILY = "lstm"
BROKEN_FAMILY_INDEX = 7  # families[7] in families.yaml


BROKEN_KEY = "suport_text"


def _break_family(data: Path) -> int:
    """Misspell a key of the lstm family's prose on Trainium; return the line of the broken key."""
    path = data / "families.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {BROKEN_FAMILY}")
    ids = [line.strip() for line in lines if re.match(r"^  - id: ", line)]
    assert ids.index(f"- id: {BROKEN_FAMILY}") == BROKEN_FAMILY_INDEX
    trainium = next(i for i in range(start, len(lines)) if lines[i].strip() == "trainium:")
    key = next(i for i in range(trainium, len(lines)) if lines[i].strip().startswith("support_text:"))
    lines[key] = lines[key].replace("support_text:", f"{BROKEN_KEY}:")
    path.write_text("".join(lines), encoding="utf-8")
    return key + 1


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path, int]:
    import shutil

    from helpers.paths import DATA

    root = tmp_path_factory.mktemp("broken")
    data = root / "data"
    shutil.copytree(DATA, data)
    line = _break_family(data)
    _refuse_a_device_and_a_price(data)
    return build_site(root, data_dir=data), data, line


REFUSED_DEVICE, REFUSED_INSTANCE, REFUSED = "a100", "inf1.xlarge", "1.7e308"


def _refuse_a_device_and_a_price(data: Path) -> None:
    """The A100's FP32 figure and the inf1.xlarge's on-demand price set to 1.7e308 (both refused)."""
    for name, pattern in (("devices.yaml", rf"(?ms)^  - id: {REFUSED_DEVICE}\n.*?peak_fp32: \{{value: (?P<v>[^,]+)"),
                          ("instances.yaml", rf"(?ms)^  - \{{id: {re.escape(REFUSED_INSTANCE)},.*?usd_per_hour: (?P<v>[^,]+)")):
        path = data / name
        text = path.read_text(encoding="utf-8")
        match = re.search(pattern, text)
        assert match, (name, pattern)
        path.write_text(text[:match.start("v")] + REFUSED + text[match.end("v"):], encoding="utf-8")


def _pages(outdir: Path) -> set[str]:
    return {str(p.relative_to(outdir)) for p in outdir.rglob("*.html")}


def test_every_page_is_still_built(broken: tuple[Any, Path, int], site: Any, catalog: Any) -> None:
    """Every page, but the models' history pages made only of configurations set aside (the refused
    instance's, whose records cascade): their generation's history page shows them in its Data
    problem box instead, with the count of their figures."""
    from neuron_docs.directives.benchmark_history import model_page
    from neuron_docs.data import load_catalog

    broken_site, data, _ = broken
    refused = {b.record_id for b in load_catalog(data).broken if b.collection == "benchmark_configurations"}
    on_page: dict[str, set[str]] = {}
    for config in catalog.benchmark_configurations.values():
        on_page.setdefault(f"{model_page(config.generation, config.model)}.html", set()).add(config.id)
    gone = {page for page, configurations in on_page.items() if configurations <= refused}
    assert _pages(broken_site.outdir) == _pages(site.outdir) - gone
    for generation in sorted({config_id.split("-")[0] for config_id in refused}):
        box = broken_site.soup(f"history/{generation}.html").select_one(".neuron-data-problem")
        assert box is not None, generation
        assert {c for c in refused if c.startswith(f"{generation}-")} <= {
            word.rstrip(":") for word in box.get_text(" ").split()}


def test_warning_names_file_line_and_field(broken: tuple[Any, Path, int]) -> None:
    broken_site, data, line = broken
    expected = (f"{data / 'families.yaml'}:{line}: WARNING: families[{BROKEN_FAMILY_INDEX}].devices.trainium."
                f"{BROKEN_KEY}: unknown key '{BROKEN_KEY}' (did you mean 'support_text'?)")
    assert expected in broken_site.warnings, broken_site.warnings
    assert "[neuron.data]" in broken_site.warnings
    assert "Traceback" not in broken_site.warnings


@pytest.mark.parametrize("page", ["architecture-fit.html", "devices/trainium.html"])
def test_rest_of_the_matrix_is_intact(broken: tuple[Any, Path, int], site: Any, page: str) -> None:
    broken_site, _, _ = broken
    for device in ("trainium", "inferentia"):
        good = site.soup(page).select_one(f"#support-matrix-{device}")
        if good is None:
            continue
        bad = broken_site.soup(page).select_one(f"#support-matrix-{device}")
        assert bad is not None, f"{page}: the {device} matrix is missing"
        good_rows = {tr["id"]: tr.get_text(" ", strip=True) for tr in good.select("tbody tr[id]")}
        bad_rows = {tr["id"]: tr.get_text(" ", strip=True) for tr in bad.select("tbody tr[id]")}
        # The matrix cells are the revisions' own: the family's broken prose takes no row away.
        assert f"matrix-{device}-{BROKEN_FAMILY}" in good_rows
        assert bad_rows == good_rows


@pytest.mark.parametrize("page", ["architecture-fit.html", "devices/trainium.html", "devices/inferentia.html"])
def test_page_shows_the_data_problem(broken: tuple[Any, Path, int], site: Any, page: str) -> None:
    broken_site, _, line = broken
    assert not site.soup(page).select(".neuron-data-problem"), f"{page} has a data problem with the real data"
    boxes = [box for box in broken_site.soup(page).select(".neuron-data-problem")
             if f"families {BROKEN_FAMILY}:" in box.get_text(" ")]
    assert boxes, f"{page}: no Data problem box"
    text = " ".join(boxes[0].get_text(" ").split())
    assert "Data problem" in text
    assert f"families {BROKEN_FAMILY}:" in text
    assert f"families.yaml:{line}:" in text and f".devices.trainium.{BROKEN_KEY}" in text


def _boxes(site: Any, page: str) -> list[str]:
    return [" ".join(box.get_text(" ").split()) for box in site.soup(page).select(".neuron-data-problem")]


def test_a_refused_device_keeps_its_page_with_its_data_problem(broken: tuple[Any, Path, int]) -> None:
    broken_site, data, _ = broken
    page = f"devices/{REFUSED_DEVICE}.html"
    assert (broken_site.outdir / page).is_file(), "the refused device's page vanished"
    [box] = _boxes(broken_site, page)
    assert f"devices {REFUSED_DEVICE}: devices.yaml:" in box and "specs.peak_fp32.value" in box
    assert "instances p4d.24xlarge:" in box  # the instance it took with it
    assert f"{REFUSED_DEVICE}.html" in (broken_site.outdir / "devices" / "index.html").read_text(encoding="utf-8")
    # one cause, one warning: the page of the refused device (and its prose) adds none
    assert broken_site.warnings.count(f"{data / 'devices.yaml'}:") == 1, broken_site.warnings
    assert f"prose for device '{REFUSED_DEVICE}'" not in broken_site.warnings


def test_a_refused_instance_is_in_the_box_of_its_device_page_and_no_other(broken: tuple[Any, Path, int],
                                                                           catalog: Any) -> None:
    broken_site, _, _ = broken
    device = catalog.instances[REFUSED_INSTANCE].device
    assert any(f"instances {REFUSED_INSTANCE}: instances.yaml:" in box
               for box in _boxes(broken_site, f"devices/{device}.html"))
    other = next(d for d in catalog.devices if d not in (device, REFUSED_DEVICE))
    assert not any(REFUSED_INSTANCE in box for box in _boxes(broken_site, f"devices/{other}.html"))


def test_prose_naming_a_record_set_aside_shows_its_box_and_gives_no_second_warning(broken: tuple[Any, Path, int],
                                                                                    site: Any) -> None:
    """The A100's instance (set aside with the device) is named by values and links in prose: those
    pages show its box, a dash for each value, and the build warns once, at the device."""
    broken_site, _, _ = broken
    instance = "p4d.24xlarge"
    naming = sorted(str(p.relative_to(site.outdir)) for p in site.outdir.rglob("*.html")
                    if f'data-neuron-figure="instance:{instance}:' in p.read_text(encoding="utf-8")
                    or 'data-neuron-figure="comparison:' in p.read_text(encoding="utf-8"))
    dashed = []
    for page in naming:
        soup = broken_site.soup(page)
        figures = [a for a in soup.select("abbr.neuron-blank-unknown") if "is set aside" in a.get("title", "")]
        if not figures:
            continue  # no value on it is of a record set aside
        dashed.append(page)
        assert any(f"instances {instance}:" in box for box in _boxes(broken_site, page)), page
    assert dashed, naming
    assert "unknown data value" not in broken_site.warnings
    assert f"reference target not found: {instance}" not in broken_site.warnings


def test_a_refused_value_is_printed_nowhere(broken: tuple[Any, Path, int]) -> None:
    """Neither the value nor a rounding of it ("1.7e+30...", "1.7 × 10³⁰⁸") on any page, download or index; the
    box says the value is not shown, the writer's warning has it."""
    broken_site, _, _ = broken
    printed = {str(p.relative_to(broken_site.outdir)) for p in broken_site.outdir.rglob("*")
               if p.is_file() and p.suffix in (".html", ".js", ".csv", ".json", ".txt", ".xml")
               and re.search(rb"1\.7(0*)?(e\+?30|\s*\xc3\x97\s*10)", p.read_bytes())}
    assert printed == set()
    assert any("(value not shown)" in box for box in _boxes(broken_site, f"devices/{REFUSED_DEVICE}.html"))
    assert f"(got '{REFUSED}')" in broken_site.warnings


@pytest.mark.parametrize(("message", "shown"), [
    ("x: expected a number at most 100000 (got '1.7e308')", "x: expected a number at most 100000 (value not shown)"),
    ("expected a number (got 1e30; YAML reads yes as a boolean)", "expected a number (value not shown; YAML reads yes as a boolean)"),
    ("expected text (got 42); write the value in quotes", "expected text (value not shown); write the value in quotes"),
    ("expected a list (got [1, (2)]) or (got 'a\\'b)c')", "expected a list (value not shown) or (value not shown)"),
    ("no value here (see devices.yaml:3)", "no value here (see devices.yaml:3)"),
    ("cut short (got 1e3", "cut short (value not shown)"),
])
def test_withhold_values(message: str, shown: str) -> None:
    from neuron_docs.render.tables import withhold_values

    assert withhold_values(message) == shown


def test_guideline_section_of_the_broken_family_is_left_out(broken: tuple[Any, Path, int]) -> None:
    broken_site, _, _ = broken
    soup = broken_site.soup("architecture-fit.html")
    assert soup.select_one(f"#family-{BROKEN_FAMILY}") is None
    assert soup.select_one("#family-rnn") is not None


@pytest.mark.site_edits
def test_strict_build_fails(tmp_path: Path, data_copy: Path) -> None:
    """With warnings as errors (the API's ``warningiserror``), the located data warning fails the build."""
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxWarning

    line = _break_family(data_copy)
    warning = StringIO()
    from sphinx.util.docutils import docutils_namespace

    with docutils_namespace():
        app = Sphinx(REPO / "source", REPO, tmp_path / "html", tmp_path / "doctrees", "html",
                     confoverrides={"neuron_data_dir": str(data_copy)}, status=StringIO(), warning=warning,
                     freshenv=True, warningiserror=True)
        try:
            app.build(filenames=[str(REPO / "source" / "architecture-fit.rst")])  # every page read, one written
        except SphinxWarning as exc:
            message = str(exc)
        else:
            assert app.statuscode != 0, "a strict build with broken data succeeded"
            message = warning.getvalue()
    assert f"families.yaml:{line}" in message
    assert f"families[{BROKEN_FAMILY_INDEX}].devices.trainium.{BROKEN_KEY}" in message


@pytest.mark.site_edits
def test_sphinx_build_W_fails_with_the_located_message(tmp_path: Path, data_copy: Path) -> None:
    """``sphinx-build -W`` (what ``make html`` runs) exits non-zero, naming file:line and field, no traceback."""
    line = _break_family(data_copy)
    sphinx_build = Path(sys.executable).with_name("sphinx-build")
    command = [str(sphinx_build), "-b", "html", "-c", str(REPO), "-W", "--keep-going", "-n", "-q",
               "-D", f"neuron_data_dir={data_copy}", "-d", str(tmp_path / "doctrees"),
               str(REPO / "source"), str(tmp_path / "html"),
               str(REPO / "source" / "architecture-fit.rst")]  # every page read, the one showing the family written
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert (f"{data_copy / 'families.yaml'}:{line}: WARNING: families[{BROKEN_FAMILY_INDEX}].devices.trainium."
            f"{BROKEN_KEY}: unknown key") in output, output
    assert "Traceback" not in output, output
    assert "Exception occurred" not in output, output
