"""The advisor in a real browser: a family, a model, a model without benchmark, an unknown name, the
URL as state, the keyboard, one data load, the page's weight, and the page opened from the files.

Expected figures are computed here from the catalog (the runs of ``data/``), not from the advisor's
own module: the best throughput is the highest of the family's (or model's) runs on the device.
"""

from __future__ import annotations

import gzip
import re
from collections import defaultdict
from urllib.parse import parse_qs, quote, urlparse

import pytest

from neuron_docs.data.records.labels import FIT_TEXT
from neuron_docs.data.figures.formatting import shown_figure
from neuron_docs.data.figures.identity import identities
from neuron_docs.data.figures.prices import unstated_sentences


def _published_family(catalog, name: str) -> str | None:
    return next((m.family for m in catalog.published_models.values() if m.name == name), None)


def _same_model(catalog, name: str) -> set[str]:
    """Every spelling the tables use for the model they write ``name`` (its ``same_as`` followed)."""
    record = next(m for m in catalog.published_models.values() if m.name == name)
    root = record.same_as or record.id
    return {m.name for m in catalog.published_models.values() if root in (m.id, m.same_as)}


TEXT = "els => els.map(e => e.textContent.trim())"


def _rows(page) -> dict[str, dict[str, str]]:
    """Device id -> the result table's cells by column header (the table behind the answer's
    "details" click: read as text, opened or not)."""
    headers = page.locator("#advisor-result thead th").evaluate_all(TEXT)
    out = {}
    for row in page.locator("#advisor-result tbody tr").all():
        cells = row.locator("th, td").evaluate_all(TEXT)
        out[row.get_attribute("data-device")] = dict(zip(headers, cells, strict=True))
    return out


def test_family_and_training_show_every_device_with_the_best_training_run(page, site_url, catalog):
    page.goto(site_url + "advisor.html")
    page.select_option("#advisor-family", "decoder")
    page.select_option("#advisor-workload", "training")
    rows = _rows(page)
    neuron = [d.id for d in catalog.devices.values() if d.kind == "neuron"]
    assert sorted(rows) == sorted(neuron)
    cell = rows["trainium"]["Best throughput"]
    shown = cell.split(":")[0]  # the family's representative model, as its table names it
    assert _published_family(catalog, shown) == "decoder"
    runs = [r for r in catalog.published_training_runs.values() if r.model in _same_model(catalog, shown)]
    best = max(runs, key=lambda r: r.throughput_sequences_per_s)  # (one shape per model in the training tables)
    assert cell.startswith(f"{best.model}: {shown_figure(best.throughput_sequences_per_s)} sequences/s")
    assert "per 1M training sequences" in rows["trainium"]["Lowest cost"]
    fit = catalog.fit("decoder", "trainium")
    assert rows["trainium"]["Architecture fit"].startswith(FIT_TEXT[fit])
    for device in neuron:
        if catalog.fit("decoder", device) is None:
            assert rows[device]["Architecture fit"].startswith("Unknown")
    assert parse_qs(urlparse(page.url).query) == {"family": ["decoder"], "workload": ["training"]}
    assert page.console_errors == []


def test_typed_model_shows_its_best_inference_run_and_links(page, site_url, catalog):
    name = "BERT base"
    page.goto(site_url + "advisor.html")
    page.fill("#advisor-model", name)
    page.press("#advisor-model", "Enter")
    rows = _rows(page)
    runs = [r for r in catalog.published_inference_runs.values() if r.model == name]
    assert runs, "the data lost BERT base: pick another model"
    device = catalog.instances[runs[0].instance].device
    mine = [r for r in runs if catalog.instances[r.instance].device == device and r.throughput_inferences_per_s]
    best = max(mine, key=lambda r: r.throughput_inferences_per_s)
    assert shown_figure(best.throughput_inferences_per_s) + " inferences/s" in rows[device]["Best throughput"]
    assert best.instance in rows[device]["Best throughput"]
    links = page.locator("#advisor-result a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert any(link.startswith("performance/") for link in links)
    for link in {link.split("?")[0] for link in links}:  # every link lands on an anchor that exists
        path, _, anchor = link.partition("#")
        target = page.context.new_page()
        target.goto(site_url + path)
        assert target.locator(f"[id='{anchor}']").count() == 1, link
        target.close()


def test_model_without_benchmark_says_none_measured(page, site_url, catalog):
    measured = {r.model for r in catalog.inference_runs.values()}
    spelled = {m.name: m.same_as or m.id for m in catalog.published_models.values()}
    published = {spelled.get(r.model) for r in [*catalog.published_inference_runs.values(),
                                                *catalog.published_training_runs.values()]}
    # a model that no run measures, under any of its names (a seed model may be a published one: same_as)
    model = next(m for m in catalog.models.values() if m.id not in measured and m.same_as not in published)
    page.goto(site_url + "advisor.html?model=" + model.name + "&workload=inference")
    rows = _rows(page)
    assert rows, "no result for a known model"
    for cells in rows.values():
        assert cells["Best throughput"] == "None measured"
        assert cells["Best latency"] == "None measured"
    for device in rows:
        fit = catalog.fit(model.family, device)
        if fit is not None:
            assert rows[device]["Architecture fit"].startswith(FIT_TEXT[fit])


def test_unknown_name_says_so_and_shows_no_table(page, site_url):
    page.goto(site_url + "advisor.html?model=Zorblax-9000")
    message = page.locator(".neuron-advisor-unknown")
    assert "Zorblax-9000" in message.inner_text()
    assert page.locator("#advisor-result table").count() == 0
    guide = message.locator("a", has_text="architecture fit guidelines")
    assert guide.get_attribute("href").startswith("architecture-fit.html")
    assert message.locator(".neuron-advisor-suggestions a").count() > 0  # never a dead end


def test_unknown_model_gets_the_nearest_models_and_families(page, site_url, catalog):
    """A misspelt Mistral (no published run, no size, none readable from the name: Mixtral-8x7B now gets
    an estimate from its size) is near Mistral; a suggestion shows that model."""
    mistral = next((m for m in catalog.published_models.values() if m.name.lower().startswith("mistral")), None)
    if mistral is None or any("mistrel" in m.name.lower() for m in catalog.published_models.values()):
        pytest.skip("the data holds Mistrel, or no Mistral to suggest")
    page.goto(site_url + "advisor.html?model=Mistrel")
    suggestions = page.locator(".neuron-advisor-suggestions a")
    assert suggestions.first.inner_text() == mistral.name
    assert catalog.families[mistral.family].name in suggestions.all_inner_texts()
    suggestions.first.click()
    assert page.locator("#advisor-model").input_value() == mistral.name
    assert page.locator("#advisor-result tbody tr").count() > 0
    assert page.console_errors == []


@pytest.mark.parametrize(("typed", "table_name", "device"), [
    ("bert-base-uncased", "BERT base (bert-base-uncased)", "inferentia"),
    ("google/vit-base-patch16-224", "google/vit-base-patch16-224", "inferentia2"),
    ("ViT", "google/vit-base-patch16-224", "inferentia2"),
    ("meta-llama/Meta-Llama-3-8B", "Llama-3-8B", "inferentia2"),
    ("Llama 3 8B", "Llama-3-8B", "inferentia2"),
    ("SDXL", "Stable Diffusion XL Base", "inferentia2"),
    ("Stable Diffusion XL", "Stable Diffusion XL Base", "inferentia2"),
    ("Mixtral-8x7B", "Mixtral-8x7B", "inferentia2"),
])
def test_names_as_people_write_them_find_the_measured_model(page, site_url, catalog, typed, table_name, device):
    """The issue's journeys: each name finds the model the tables measure, on the device they measure it."""
    runs = [r for r in catalog.published_inference_runs.values()
            if r.model == table_name and catalog.instances[r.instance].device == device]
    if not runs:
        pytest.skip(f"the data holds no inference run of {table_name!r} on {device}")
    page.goto(site_url + "advisor.html")
    page.fill("#advisor-model", typed)
    page.press("#advisor-model", "Enter")
    rows = _rows(page)
    cell = rows[device]["Best throughput"]
    assert cell != "None measured", typed
    assert cell.split(":")[0] in _same_model(catalog, table_name)
    assert page.console_errors == []


def test_state_is_in_the_url_and_the_form_works_from_the_keyboard(page, site_url):
    page.goto(site_url + "advisor.html?family=encoder&workload=inference")
    assert page.locator("#advisor-family").input_value() == "encoder"
    assert page.locator("#advisor-result tbody tr").count() > 0
    page.focus("#advisor-family")
    page.keyboard.press("Tab")  # to the model name
    page.keyboard.press("Tab")  # to the workload
    assert page.evaluate("document.activeElement.id") == "advisor-workload"
    page.keyboard.press("ArrowDown")
    # The choice reaches the address when the script has handled it (a busy machine may be slow).
    page.wait_for_function("() => new URLSearchParams(location.search).get('workload') === 'training'")
    assert parse_qs(urlparse(page.url).query)["workload"] == ["training"]
    shared = page.url
    other = page.context.new_page()
    other.goto(shared)
    assert other.locator("#advisor-workload").input_value() == "training"
    assert other.locator("#advisor-result tbody tr").count() == page.locator("#advisor-result tbody tr").count()


def test_one_data_load_and_under_200_kb(page, site_url):
    sizes: dict[str, int] = {}
    page.on("response", lambda r: sizes.__setitem__(r.url, len(gzip.compress(r.body()))) if r.ok else None)
    page.goto(site_url + "advisor.html?family=vit", wait_until="networkidle")
    assert page.locator("script#neuron-advisor-data").count() == 1
    assert not [u for u in sizes if u.endswith(".json")], "the advisor fetched data instead of using the page's"
    assert sum(sizes.values()) < 200_000, sizes


def test_works_from_the_files_offline(browser, built_site):
    context = browser.new_context(offline=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((built_site.outdir / "advisor.html").as_uri() + "?model=ViT&workload=inference")
        assert page.locator("#advisor-result tbody tr").count() > 0
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("query", ["Llama", "llama-3-8b", "Stable Diffusion", "LLM"])
def test_common_names_find_a_family(page, site_url, query):
    page.goto(site_url + "advisor.html")
    page.fill("#advisor-model", query)
    page.press("#advisor-model", "Enter")
    assert page.locator("#advisor-result tbody tr").count() > 0, query


#: The reader's goals, the column of the details table that holds each, and whether higher is better.
GOALS = {"throughput": ("Best throughput", True), "latency": ("Best latency", False), "cost": ("Lowest cost", False)}
FIGURE = {"throughput": r": ([\d,.]+) \S+/s on ", "latency": r" ([\d,.]+) ms on ", "cost": r"^\$([\d,.]+) per "}


@pytest.fixture(scope="module")
def compared(catalog) -> str:
    """The name of a model the inference tables measure on two Neuron devices or more (of those
    measured on the most, the first by id): whatever the data holds, one the advisor ranks devices for."""
    known = identities(catalog)
    devices, names = defaultdict(set), {}
    for run in catalog.published_inference_runs.values():
        identity, instance = known.of_published(run.model), catalog.instances.get(run.instance)
        if identity is not None and instance is not None:
            devices[identity.id].add(instance.device)
            names[identity.id] = identity.name
    best = min(devices, key=lambda i: (-len(devices[i]), i), default=None)
    if best is None or len(devices[best]) < 2:
        pytest.skip("the data holds no model measured on two Neuron devices")
    return quote(names[best])


def _ranked(page) -> list[str]:
    return page.locator(".neuron-advisor-ranking > li").evaluate_all("els => els.map(e => e.dataset.device)")


@pytest.mark.parametrize("goal", sorted(GOALS))
def test_devices_are_ranked_for_the_readers_goal_with_a_verdict(page, site_url, catalog, compared, goal):
    """A model measured on two devices or more (today bert-base-uncased, on Inf1 and Inf2): the devices
    come best first for the goal chosen (the figures of the details table, in order), the unmeasured
    ones after; the verdict names the first."""
    page.goto(site_url + f"advisor.html?model={compared}&workload=inference&goal={goal}")
    assert page.locator("#advisor-goal").input_value() == goal
    order, rows = _ranked(page), _rows(page)
    assert sorted(order) == sorted(d.id for d in catalog.devices.values() if d.kind == "neuron")
    column, higher = GOALS[goal]
    measured = [d for d in order if rows[d][column] != "None measured"]
    assert len(measured) >= 2, f"{compared}: fewer than two devices measured for {goal}"
    assert order[: len(measured)] == measured
    numbers = [float(re.search(FIGURE[goal], rows[d][column]).group(1).replace(",", "")) for d in measured]
    assert numbers == sorted(numbers, reverse=higher)
    verdict = page.locator(".neuron-advisor-verdict").inner_text()
    assert verdict.startswith(catalog.devices[measured[0]].name) and rows[measured[0]][column] in verdict
    first = page.locator(".neuron-advisor-ranking > li").first.inner_text()
    assert rows[measured[0]][column] in first
    assert page.console_errors == []


def test_on_a_phone_the_answer_is_in_view_after_choosing(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(site_url + "advisor.html")
        page.fill("#advisor-model", "ViT")
        page.press("#advisor-model", "Enter")
        verdict = page.locator(".neuron-advisor-verdict")
        page.wait_for_function("() => { const v = document.querySelector('.neuron-advisor-verdict');"
                               " return v && v.getBoundingClientRect().top >= 0 && v.getBoundingClientRect().top < innerHeight; }")
        box = verdict.bounding_box()
        assert box is not None and 0 <= box["y"] < 844
    finally:
        context.close()


def test_without_a_choice_a_short_start_and_the_whole_table_folded(page, site_url, catalog):
    page.goto(site_url + "advisor.html")
    fold = page.locator("details.neuron-advisor-all")
    assert fold.locator("table.neuron-advisor-table").count() == 1  # the page's static table, kept
    assert fold.evaluate("d => d.open") is False
    assert page.locator(".neuron-advisor-quick a").all_inner_texts() == [f.name for f in catalog.families.values()]
    assert page.evaluate("document.documentElement.scrollHeight") < 3 * 900
    page.locator(".neuron-advisor-quick a").first.click()
    assert page.locator(".neuron-advisor-ranking > li").count() > 0
    assert page.locator(".neuron-advisor-start").is_hidden()


@pytest.mark.parametrize("workload", ["inference", "training"])
def test_fit_support_and_workload_never_contradict(page, site_url, catalog, workload):
    """A device without support for the workload is never called a good (or any) fit for it, in the
    ranking or in the details."""
    fits = tuple(FIT_TEXT.values())
    for family in catalog.families:
        page.goto(site_url + f"advisor.html?family={family}&workload={workload}")
        for device, cells in _rows(page).items():
            if cells["Support"].startswith("Not applicable"):
                assert not cells["Architecture fit"].startswith(fits), (family, device, cells)
        for line in page.locator(".neuron-advisor-ranking > li").all_inner_texts():
            if "support on this device" in line:
                assert not line.endswith(fits), (family, line)


def test_costs_follow_the_price_basis_the_reader_picks(page, site_url, compared):
    page.goto(site_url + f"advisor.html?model={compared}&workload=inference&goal=cost")
    published = page.locator(".neuron-advisor-ranking > li").all_inner_texts()
    page.select_option("#advisor-basis", "on-demand")
    assert parse_qs(urlparse(page.url).query)["basis"] == ["on-demand"]
    lines = page.locator(".neuron-advisor-ranking > li").all_inner_texts()
    measured = [line for line in lines if "none measured" not in line]
    assert measured and lines != published
    assert all(" at on-demand $" in line and "RI-effective" not in line for line in measured)
    costs = [float(re.search(r": \$([\d,.]+) per ", line).group(1).replace(",", "")) for line in measured]
    assert costs == sorted(costs)
    assert page.console_errors == []


def test_the_price_note_is_said_once_in_the_builds_words(page, site_url, compared):
    """Under the answer, what the prices' sources leave unsaid, once: a sentence the build wrote
    (``prices.unstated_sentences``), never worded by the script itself."""
    page.goto(site_url + f"advisor.html?model={compared}&workload=inference&goal=cost")
    notes = page.locator("#advisor-result .neuron-price-note").all_inner_texts()
    said = {text for by_whose in unstated_sentences()["sentences"].values() for text in by_whose.values()}
    assert len(notes) == 1 and notes[0] in said
    assert page.console_errors == []


@pytest.mark.parametrize("name", ["Mixtral-8x7B", "Ling-1T", "<b>Ling</b>-{name}-1T"])
def test_will_it_fit_writes_the_builds_sentences_with_the_builds_units(page, site_url, catalog, name):
    """"Will it fit?" in Chromium: the script (``neuron-fit.js``, which holds no units and no wording of
    its own) shows memory and parameters in the units the build ships, and reads a size from a name by
    the build's pattern ("Ling-1T": no size in the data), in the sentences the build writes (the
    templates it ships); a typed name is text in them, its markup and braces as typed."""
    from neuron_docs.data.figures import fit  # noqa: PLC0415

    size = fit.sizes(catalog).get("size:mixtral-8x7b") if name == "Mixtral-8x7B" else fit.size_from_name(name)
    assert size is not None
    page.goto(site_url + "advisor.html?model=" + quote(name) + "&workload=inference")
    page.locator(".neuron-fit-lines li").first.wait_for()
    label = page.locator(".neuron-advisor-fit .neuron-fit-label").inner_text()
    lines = page.locator(".neuron-fit-lines li").evaluate_all(TEXT)
    assert [label, *lines] == fit.lines_for(fit.places(catalog), size)
    assert page.locator(".neuron-advisor-fit b").count() == 0
    assert page.console_errors == []
