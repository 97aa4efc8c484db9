"""Two figures for one configuration and metric published at once: a located error, never a silent pick.

The benchmark history holds one figure per configuration, metric and state: an observation is a
figure (configuration, release, metric, value) with the states that published it
(``states``; in a history written before they were recorded, from its first state to its last
seen). Two observations of one configuration and metric whose states overlap (one release with two
values, as a hand edit of ``observations.csv`` makes, or two releases at once) are a
:class:`~..files.loader.DataError` at the second one's line that names both lines, releases and
values; :func:`..latest_state.derive_latest_runs` sets the configuration's current run aside
rather than choose between them. No Sphinx here.
"""

from __future__ import annotations

from ..catalog import Catalog
from ..files.loader import DataError
from ..records import history as hs


def _presence(obs: hs.BenchmarkObservation, position: dict[str, int], dates: list[str], latest: int) -> set[int]:
    """The states (positions) that published ``obs``; empty when its states are not in the history."""
    try:
        if obs.states:
            return hs.parse_runs(obs.states, position, latest)
        first = position[obs.first_state]
    except KeyError:
        return set()
    if obs.last_seen is None:
        return set(range(first, latest + 1))
    seen = obs.last_seen.isoformat()
    return {i for i in range(first, latest + 1) if dates[i] <= seen}


def figure_conflicts(catalog: Catalog) -> dict[str, list[DataError]]:
    """Configuration -> the located errors of its figures published at once (see the module)."""
    states = list(catalog.benchmark_states.values())
    position = {s.id: i for i, s in enumerate(states)}
    dates = [s.date.isoformat() for s in states]
    latest = len(states) - 1
    name = catalog.file_of("benchmark_observations")
    lines = catalog.lines["benchmark_observations"]
    by_series: dict[tuple[str, str], list[hs.BenchmarkObservation]] = {}
    for obs in catalog.benchmark_observations.values():
        by_series.setdefault((obs.configuration, obs.metric), []).append(obs)
    out: dict[str, list[DataError]] = {}
    for (configuration, metric), series in by_series.items():
        if len(series) < 2:
            continue
        series.sort(key=lambda o: (lines.get(o.id) or 0, o.id))
        seen = [(obs, _presence(obs, position, dates, latest)) for obs in series]
        for i, (obs, presence) in enumerate(seen):
            for other, other_presence in seen[:i]:
                both = presence & other_presence
                if not both:
                    continue
                state = states[min(both)].id
                out.setdefault(configuration, []).append(DataError(
                    name, lines.get(obs.id), "value",
                    f"two figures for configuration {configuration!r}, {metric} published at once (in state "
                    f"{state}): {other.value} (Neuron {other.neuron_version}, line {lines.get(other.id)}) and "
                    f"{obs.value} (Neuron {obs.neuron_version}, line {lines.get(obs.id)}); expected one figure "
                    f"per configuration and metric in a state"))
                break
    return out
