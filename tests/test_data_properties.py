"""Property tests of the data layer: the loader, cost per 1M inferences, rounding and expressions."""

from __future__ import annotations

import csv
import io
import math
import os
import shutil
from decimal import Decimal
from pathlib import Path
from typing import get_args

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers.paths import DATA, copy_data
from neuron_docs.data import DataError, load_catalog
from neuron_docs.data.figures.expressions import ExpressionError, evaluate
from neuron_docs.data.figures.formatting import NumberFormat, format_number, plain_number, round_half_up
from neuron_docs.data.files.csv_reader import read_csv
from neuron_docs.data.files.loader import DataFileError
from neuron_docs.data.files.yaml_reader import read_yaml
from neuron_docs.data.records.fields import Unit
from neuron_docs.data.figures.values import Value
from neuron_docs.data.figures.runs import cost_per_million


FAST = settings(max_examples=100, deadline=None)
#: Loading the whole catalog is slower: fewer examples (10 in ``make test``; ``make fuzz`` sets
#: ``NEURON_FUZZ_EXAMPLES`` for more), and the module's data copy is reused.
LOADS = settings(max_examples=int(os.environ.get("NEURON_FUZZ_EXAMPLES", "10")), deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of data/ that each example overwrites one file of (restored by the next example)."""
    return copy_data(tmp_path_factory.mktemp("properties") / "data")


def _restore(scratch: Path, name: str) -> None:
    shutil.copyfile(DATA / name, scratch / name)


# The loader ---------------------------------------------------------------------------------------

#: Text that looks a little like data: YAML and CSV punctuation mixed with anything.
yamlish = st.text(alphabet=st.sampled_from(list("abc:-[]{}&*!<>|#'\",.\n\t ?%@`0123456789")) | st.characters(),
                  max_size=300)


@FAST
@given(text=yamlish)
def test_read_yaml_raises_only_data_file_errors(text: str) -> None:
    try:
        _, positions, problems = read_yaml(text, "x.yaml")
    except DataFileError as exc:
        assert isinstance(exc.error, DataError)
        assert exc.error.file == "x.yaml"
        assert exc.error.line is None or exc.error.line >= 1
        return
    assert all(isinstance(error, DataError) for _, error in problems)
    assert all(line >= 1 for line in positions.values())


@FAST
@given(text=yamlish)
def test_read_csv_raises_only_data_file_errors(text: str) -> None:
    columns = ["id", "a", "b"]
    try:
        records, positions, problems = read_csv("id,a,b\n" + text, "x.csv", columns, ["id"])
    except DataFileError as exc:
        assert isinstance(exc.error, DataError)
        return
    assert all(set(r) <= set(columns) for r in records)
    assert all(isinstance(error, DataError) for _, error in problems)
    assert all(line >= 2 for line in positions.values())


@LOADS
@given(text=yamlish, name=st.sampled_from(["training.yaml", "issues.yaml", "benchmarks/accuracy.csv"]))
def test_arbitrary_text_in_a_data_file_is_reported_never_raised(scratch: Path, text: str, name: str) -> None:
    # A lone surrogate is written as the invalid UTF-8 it would be on disk (a reported error too).
    (scratch / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        catalog = load_catalog(scratch)
    finally:
        _restore(scratch, name)
    assert all(isinstance(error, DataError) for error in catalog.errors)
    assert all(error.file for error in catalog.errors)
    assert catalog.sources  # the other files still load


@LOADS
@given(raw=st.binary(max_size=300))
def test_arbitrary_bytes_are_reported_never_raised(scratch: Path, raw: bytes) -> None:
    (scratch / "issues.yaml").write_bytes(raw)
    try:
        catalog = load_catalog(scratch)
    finally:
        _restore(scratch, "issues.yaml")
    assert all(isinstance(error, DataError) for error in catalog.errors)


ids = st.from_regex(r"[a-z0-9][a-z0-9.\-]{0,30}", fullmatch=True)
#: Text a writer could type: anything printable but surrogates, without surrounding blanks.
names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=200).filter(
    lambda s: s == s.strip() and s.strip())
positive = st.floats(min_value=1e-300, max_value=1e300, allow_nan=False, allow_infinity=False)
SOURCES = ["talk", "training-faq", "aws-pricing", "results-analysis"]

claims = st.lists(
    st.fixed_dictionaries({
        "id": ids, "value": positive, "unit": st.sampled_from(get_args(Unit)), "label": names,
        "source": st.sampled_from(SOURCES),
    }),
    min_size=1, max_size=8, unique_by=lambda c: c["id"],
)


@LOADS
@given(generated=claims)
def test_valid_claims_round_trip_through_yaml(scratch: Path, generated: list[dict]) -> None:
    path = scratch / "training.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    document["claims"] = generated
    path.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
    try:
        catalog = load_catalog(scratch)
    finally:
        _restore(scratch, "training.yaml")
    assert catalog.errors == []
    assert catalog.broken == []
    assert {c["id"]: c for c in generated} == {k: v.model_dump(exclude_none=True) for k, v in catalog.claims.items()}
    for index, claim in enumerate(generated):
        assert catalog.origin("claims", claim["id"])[1] is not None
        assert catalog.origin("claims", claim["id"])[0] == "training.yaml"
        del index


cells = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=40).filter(
    lambda s: s == s.strip())
runs = st.lists(
    st.fixed_dictionaries({
        "id": ids,
        "model": st.just("vit-base"),
        "environment": st.sampled_from(["inf1-neuron-1.11", "g5-cuda-11.6"]),
        "batch_size": st.integers(min_value=1, max_value=10**6),
        "compiler_options": st.none() | cells,
        "p90_latency_ms": st.none() | positive,
        "throughput_per_s": positive,
        "source": st.sampled_from(SOURCES),
    }),
    min_size=1, max_size=8, unique_by=lambda r: r["id"],
)


@LOADS
@given(generated=runs)
def test_valid_runs_round_trip_through_csv(scratch: Path, generated: list[dict]) -> None:
    columns = ["id", "model", "variant", "environment", "batch_size", "neuroncores", "pipeline",
               "compiler_options", "p90_latency_ms", "throughput_per_s", "source"]
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    for run in generated:
        writer.writerow({k: ("" if v is None else repr(v) if isinstance(v, float) else v) for k, v in run.items()})
    (scratch / "benchmarks/inference.csv").write_text(out.getvalue(), encoding="utf-8")
    try:
        catalog = load_catalog(scratch)
    finally:
        _restore(scratch, "benchmarks/inference.csv")
    assert catalog.errors == []
    loaded = {k: v.model_dump(exclude_none=True) for k, v in catalog.inference_runs.items()}
    assert loaded == {r["id"]: {k: v for k, v in r.items() if v is not None} for r in generated}


# cost_per_million --------------------------------------------------------------------------------

prices = st.floats(min_value=1e-4, max_value=1e4)
throughputs = st.floats(min_value=1e-3, max_value=1e6)
factors = st.floats(min_value=1e-3, max_value=1e3)


@FAST
@given(p1=prices, p2=prices, t=throughputs)
def test_cost_rises_with_price(p1: float, p2: float, t: float) -> None:
    low, high = sorted((p1, p2))
    assert cost_per_million(low, t) <= cost_per_million(high, t)


@FAST
@given(p=prices, t1=throughputs, t2=throughputs)
def test_cost_falls_with_throughput(p: float, t1: float, t2: float) -> None:
    low, high = sorted((t1, t2))
    assert cost_per_million(p, low) >= cost_per_million(p, high)


@FAST
@given(p=prices, t=throughputs, k=factors)
def test_cost_scales_with_price_and_inversely_with_throughput(p: float, t: float, k: float) -> None:
    base = cost_per_million(p, t)
    assert cost_per_million(k * p, t) == pytest.approx(k * base, rel=1e-9)
    assert cost_per_million(p, k * t) == pytest.approx(base / k, rel=1e-9)
    assert base == pytest.approx(p / (t * 3600) * 1e6, rel=1e-12)
    assert base > 0


# round_half_up and format_number -----------------------------------------------------------------

finite = st.floats(allow_nan=False, allow_infinity=False)
moderate = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)
decimals = st.integers(min_value=0, max_value=6)


@FAST
@given(x=finite, d=decimals)
def test_round_half_up_is_within_half_a_unit(x: float, d: int) -> None:
    rounded = round_half_up(x, d)
    exact = Decimal(repr(x))
    assert abs(rounded - exact) <= Decimal(5).scaleb(-d - 1)
    assert rounded.as_tuple().exponent == -d
    assert round_half_up(float(rounded), d) == rounded or abs(float(rounded)) >= 1e15


@FAST
@given(n=st.integers(min_value=-10**6, max_value=10**6), d=st.integers(min_value=0, max_value=3))
def test_halves_round_away_from_zero(n: int, d: int) -> None:
    half = Decimal(n) + Decimal(5).scaleb(-d - 1)  # e.g. 12.345 for d=2
    x = float(half)
    assume(Decimal(repr(x)) == half)
    expected = half.quantize(Decimal(1).scaleb(-d), rounding="ROUND_HALF_UP")
    assert round_half_up(x, d) == expected
    assert abs(round_half_up(x, d)) >= abs(half)  # half goes away from zero


@FAST
@given(x=moderate, d=decimals, sign=st.booleans())
def test_plain_number_reads_back(x: float, d: int, sign: bool) -> None:
    text = plain_number(x, NumberFormat(d, sign))
    assert abs(float(text) - x) <= 0.5 * 10**-d + 1e-9 * max(1.0, abs(x))
    assert not text.startswith("-0") or text.strip("-0.") != ""  # no negative zero
    if sign and not text.startswith("-"):
        assert text.startswith("+")
    if d:
        assert len(text.split(".")[1]) == d


@FAST
@given(x=finite)
def test_plain_number_without_decimals_keeps_the_typed_digits(x: float) -> None:
    text = plain_number(x)
    assert float(text) == (0.0 if x == 0 else x)
    if x.is_integer() and abs(x) < 1e15:
        assert "." not in text and "e" not in text


@FAST
@given(x=moderate, unit=st.sampled_from([*get_args(Unit), "", "pp"]), d=st.none() | decimals)
def test_format_number_writes_the_unit(x: float, unit: str, d: int | None) -> None:
    text = format_number(x, unit, NumberFormat(d))
    number = plain_number(x, NumberFormat(d))
    if unit == "USD":
        assert text.lstrip("-") == "$" + number.lstrip("-")
    elif unit == "USD/h":
        assert text.endswith("/h") and "$" in text
    elif unit == "pp":
        assert text == number + " percentage points"
    elif unit in ("%", "x", ""):
        assert text == number + unit
    else:
        assert text == f"{number} {unit}"


# Expressions -------------------------------------------------------------------------------------

VALUES = {
    "run:a:throughput": Value(500.0, "inferences/s", "a"),
    "run:b:p90_latency_ms": Value(9.0, "ms", "b"),
    "instance:x.large:price": Value(0.5, "USD/h", "x"),
}
tokens = st.sampled_from([
    "run:a:throughput", "run:b:p90_latency_ms", "instance:x.large:price", "run:zz:nope", "1", "0", "2.5", "1e308",
    "+", "-", "*", "/", "**", "(", ")", ",", " ", ".", "__", "diff", "ratio", "pct_more", "pct_less", "cost_per_1m",
    "abs", "min", "max", "lambda", "x", ":", "[", "]", "'", "__import__", "os", "=", "if", "not",
])


@FAST
@given(text=st.text(max_size=600))
def test_arbitrary_strings_raise_only_expression_errors(text: str) -> None:
    try:
        result = evaluate(text, VALUES)
    except ExpressionError:
        return
    assert math.isfinite(result.number)


@FAST
@given(parts=st.lists(tokens, max_size=40))
def test_token_soup_raises_only_expression_errors(parts: list[str]) -> None:
    try:
        result = evaluate("".join(parts), VALUES)
    except ExpressionError:
        return
    assert math.isfinite(result.number)
    assert set(result.paths) <= set(VALUES)


pair = st.tuples(st.floats(min_value=1e-3, max_value=1e6), st.floats(min_value=1e-3, max_value=1e6))


def _two(a: float, b: float, unit: str = "ms") -> dict[str, Value]:
    return {"run:a:p90_latency_ms": Value(a, unit, "a"), "run:b:p90_latency_ms": Value(b, unit, "b")}


@FAST
@given(ab=pair, unit=st.sampled_from(["ms", "%", "USD", "inferences/s"]))
def test_diff_is_subtraction(ab: tuple[float, float], unit: str) -> None:
    a, b = ab
    result = evaluate("diff(run:a:p90_latency_ms, run:b:p90_latency_ms)", _two(a, b, unit))
    assert result.number == pytest.approx(a - b)
    assert result.unit == ("pp" if unit == "%" else unit)
    minus = evaluate("run:a:p90_latency_ms - run:b:p90_latency_ms", _two(a, b, unit))
    assert minus.number == result.number


@FAST
@given(ab=pair)
def test_ratio_times_baseline_is_subject(ab: tuple[float, float]) -> None:
    a, b = ab
    values = _two(a, b)
    ratio = evaluate("ratio(run:a:p90_latency_ms, run:b:p90_latency_ms)", values)
    assert ratio.unit == "x"
    assert ratio.number * b == pytest.approx(a)
    inverse = evaluate("ratio(run:b:p90_latency_ms, run:a:p90_latency_ms)", values)
    assert ratio.number * inverse.number == pytest.approx(1.0)


@FAST
@given(ab=pair)
def test_pct_more_and_pct_less_are_opposites(ab: tuple[float, float]) -> None:
    a, b = ab
    values = _two(a, b)
    more = evaluate("pct_more(run:a:p90_latency_ms, run:b:p90_latency_ms)", values)
    less = evaluate("pct_less(run:a:p90_latency_ms, run:b:p90_latency_ms)", values)
    ratio = evaluate("ratio(run:a:p90_latency_ms, run:b:p90_latency_ms)", values)
    diff = evaluate("diff(run:a:p90_latency_ms, run:b:p90_latency_ms)", values)
    assert (more.unit, less.unit) == ("%", "%")
    assert more.number == pytest.approx(-less.number, abs=1e-9)
    assert more.number == pytest.approx((ratio.number - 1) * 100, abs=1e-9)
    assert more.number == pytest.approx(100 * diff.number / b, rel=1e-9, abs=1e-9)
