"""What a compiled PDF's log says of its fit to the paper: pages, overfull boxes by size.

``python -m neuron_docs.site.latex_log build/latex/<name>.log`` prints the pages and the overfull
boxes (``\\vbox``: content below the footer; ``\\hbox``: content into the margin) by size, and fails
(status 1) on any overfull ``\\vbox`` or ``\\hbox`` wider than :data:`MAX_HBOX_PT`; ``make pdf`` runs
it after ``latexmk``. No Sphinx import: it reads a text file.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: The widest an overfull line may be, in points (a few points of a long word into the margin is
#: invisible; more is content cut or over the edge).
MAX_HBOX_PT = 10.0
_OVERFULL = re.compile(r"^Overfull \\([hv])box \(([0-9.]+)pt too (?:wide|high)\)", re.MULTILINE)
_PAGES = re.compile(r"Output written on .* \((\d+) pages?")


@dataclass
class Fit:
    """Pages and overfull boxes of one compiled document."""

    pages: int = 0
    hboxes: list[float] = field(default_factory=list)
    vboxes: list[float] = field(default_factory=list)

    @property
    def wide_hboxes(self) -> list[float]:
        return [size for size in self.hboxes if size > MAX_HBOX_PT]

    def summary(self) -> str:
        sizes = {"<=1pt": 0, "1-5pt": 0, "5-10pt": 0, ">10pt": 0}
        for size in self.hboxes:
            key = "<=1pt" if size <= 1 else "1-5pt" if size <= 5 else "5-10pt" if size <= MAX_HBOX_PT else ">10pt"
            sizes[key] += 1
        by_size = ", ".join(f"{count} {key}" for key, count in sizes.items())
        return (f"{self.pages} pages; overfull vboxes: {len(self.vboxes)}; overfull hboxes: {len(self.hboxes)} "
                f"({by_size})")


def read_fit(log: str) -> Fit:
    fit = Fit()
    for kind, size in _OVERFULL.findall(log):
        (fit.hboxes if kind == "h" else fit.vboxes).append(float(size))
    pages = _PAGES.findall(log)
    fit.pages = int(pages[-1]) if pages else 0
    return fit


def main(argv: list[str]) -> int:
    fit = read_fit(Path(argv[0]).read_text(encoding="utf-8", errors="replace"))
    print(f"PDF: {fit.summary()}")
    if fit.vboxes or fit.wide_hboxes:
        print(f"error: the PDF does not fit its paper: {len(fit.vboxes)} overfull vboxes, "
              f"{len(fit.wide_hboxes)} overfull hboxes over {MAX_HBOX_PT:g} pt", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
