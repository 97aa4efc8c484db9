"""Catalogues of cases as pytest parameters: every kind of case on each ``make test``, the whole
catalogue on ``make test-e2e``."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol

import pytest


class Case(Protocol):
    @property
    def id(self) -> str: ...


def representatives[C: Case](cases: Iterable[C], kind: Callable[[C], Hashable]) -> list[Any]:
    """``cases`` as pytest parameters (each by its ``id``): the first case of each ``kind(case)`` runs in
    ``make test``; the others are marked ``sweep``, run by ``make test-e2e`` (and CI): a catalogue
    is swept whole there, and every kind of case is still tried on each ``make test``."""
    seen: set[Hashable] = set()
    params = []
    for case in cases:
        first = kind(case) not in seen
        seen.add(kind(case))
        params.append(pytest.param(case, id=case.id, marks=() if first else pytest.mark.sweep))
    return params
