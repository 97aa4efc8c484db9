"""Rules of the fit estimate (``data/figures/fit.py``) that hold for any data, on data hypothesis makes:
a size written in a name is read exactly, the headroom is the least whole bytes of its share, every power
of two up to a device's NeuronCores is a degree, and no earlier place or degree holds what the smallest
fit holds. (Kept out of ``test_fit_rules.py``, which ``make mutation`` runs per mutant without hypothesis.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from neuron_docs.data.figures import fit
from neuron_docs.data.records.model_sizes import DTYPE_BYTES


def sized(parameters: int, kv: int | None = None, dtype: str = "BF16") -> fit.Size:
    return fit.Size("t", "Tiny", parameters, (dtype,), kv)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 999), st.integers(0, 99), st.sampled_from(sorted(fit.SIZE_UNITS)), st.integers(1, 16))
def test_any_written_size_is_read_exactly(whole: int, hundredths: int, unit: str, experts: int) -> None:
    text = f"m-{experts}x{whole}.{hundredths:02d}{unit.upper()}"
    found = fit.size_from_name(text)
    assert found is not None
    assert found.parameters == experts * (whole * 100 + hundredths) * fit.SIZE_UNITS[unit] // 100


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10**13), st.sampled_from(sorted(DTYPE_BYTES)), st.one_of(st.none(), st.integers(1, 10**6)),
       st.integers(1, 10**5), st.integers(1, 64))
def test_the_headroom_is_the_least_whole_bytes_of_a_fifth(parameters: int, dtype: str, kv: int | None, seq: int,
                                                          batch: int) -> None:
    est = fit.estimate(sized(parameters, kv), dtype, seq, batch)
    counted = est.weights + est.kv_cache
    assert est.weights == parameters * DTYPE_BYTES[dtype]
    assert est.kv_cache == (kv * seq * batch * DTYPE_BYTES[dtype] if kv else 0)
    assert est.headroom * 100 >= counted * fit.HEADROOM_PERCENT > (est.headroom - 1) * 100
    assert est.need == counted + est.headroom


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4096))
def test_any_count_of_neuroncores_offers_each_power_of_two_it_holds(cores: int) -> None:
    offered = fit.degrees(cores)
    assert offered[-1] == cores and list(offered) == sorted(set(offered))
    assert {d for d in offered if d & (d - 1) == 0} == {2**k for k in range(13) if 2**k <= cores}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 64), st.integers(1, 10**6)), min_size=0, max_size=5), st.integers(1, 10**8))
def test_no_earlier_place_or_degree_holds_what_the_smallest_fit_holds(spec: list[tuple[int, int]], need: int) -> None:
    options = [fit.FitInstance(f"i{n}", "d", "D", cores, per, fit.degrees(cores), ("BF16",))
               for n, (cores, per) in enumerate(spec)]
    found = fit.smallest_fit(options, need)
    holding = [(p, d) for p in options for d in p.degrees if p.memory(d) >= need]
    assert found == (holding[0] if holding else None)
