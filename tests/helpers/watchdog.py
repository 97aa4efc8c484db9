"""A guard that fails a test rather than let it hang (a load that blocks on a FIFO or a device)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def hang_guard(seconds: int, what: str = "load_catalog", *, armed: bool = True) -> Iterator[None]:
    """While the block runs, SIGALRM raises :class:`TimeoutError` ("``what`` did not finish in
    ``seconds`` s"). ``armed``: the alarm is set for the whole block; otherwise the block sets it
    itself (``signal.alarm(seconds)``) around each step it guards, as a fuzzer does per example.
    The alarm and the previous handler are restored afterwards."""
    def expire(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"{what} did not finish in {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    if armed:
        signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
