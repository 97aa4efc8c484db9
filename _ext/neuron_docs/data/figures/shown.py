"""What the prose roles print, as plain values: a figure, a fit or a support status in words.

``:neuron:value:``, ``:neuron:fit:`` and ``:neuron:status:`` (:mod:`neuron_docs.directives.roles`)
print what these functions give, when the page is written; the digest of a page's dependency on a
role (:mod:`...record_keys`, keys ``value:``, ``figure:``, ``fit:``, ``status:``) is the digest of the
same result, so a page is rewritten exactly when what one of its roles prints changes. No Sphinx.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..catalog import FILE_NAMES
from .describe import describe
from .expressions import evaluate
from .formatting import NumberFormat, format_number
from ..records.labels import FIT_WORDS, STATUS_WORDS
from ..checking.matrix_files import MATRIX_DIR
from .values import collections_read

if TYPE_CHECKING:
    from ..catalog import Catalog
    from .values import Values

#: Decimals used for a derived figure whose page did not declare a format, by unit.
DEFAULT_DECIMALS = {"USD": 2, "%": 0, "pp": 2, "x": 1}

#: The files a fit or a status is read from.
MATRIX_WORD_FILES = ("families.yaml", MATRIX_DIR)


@dataclass(frozen=True)
class Shown:
    """A role's output: its text, its tooltip (words, not paths), its classes, and for a figure its
    expression and declared format; ``files`` are the data files it was computed from."""

    text: str
    explanation: str
    classes: tuple[str, ...]
    files: tuple[str, ...]
    expression: str | None = None
    format: str | None = None


def figure(catalog: Catalog, values: Values, text: str, *, require_format: bool = True) -> Shown:
    """The figure of ``expression | format`` (``text``).

    A derived figure (computed, or an expression) needs a declared format unless it is an exact
    count; with ``require_format=False`` it falls back to :data:`DEFAULT_DECIMALS`. Raises
    ``ValueError`` (including ``ExpressionError``) with a message for the page's writer.
    """
    expression, _, spec = text.partition("|")
    number_format = NumberFormat.parse(spec)
    result = evaluate(expression, values)
    single = result.paths[0] if len(result.paths) == 1 and expression.strip() == result.paths[0] else None
    derived = single is None or values[single].derived
    exact_count = result.unit == "" and float(result.number).is_integer()
    if derived and not exact_count and number_format.decimals is None:
        decimals = DEFAULT_DECIMALS.get(result.unit, 2)
        if require_format:
            msg = f"a derived figure needs a declared format, e.g. `{expression.strip()} | .{decimals}f`"
            raise ValueError(msg)
        number_format = NumberFormat(decimals, number_format.sign)
    files = sorted({catalog.file_of(collection) for p in result.paths
                    for collection in collections_read(p, values[p])})
    return Shown(format_number(result.number, result.unit, number_format),
                 describe(catalog, values, result.paths, derived),
                 ("neuron-value", *(("neuron-derived",) if derived else ())), tuple(files),
                 expression=expression.strip(),
                 format=spec.strip() if spec.strip() or not derived or exact_count else f".{number_format.decimals}f")


def fit_words(catalog: Catalog, text: str) -> Shown:
    """``family/device`` -> "a good fit" / "not a good fit" (the latest revision of the matrices).
    Raises ``ValueError`` with a message for the page's writer."""
    parts = [p.strip() for p in text.split("/")]
    if len(parts) != 2:
        raise ValueError(f"expected 'family/device', got {text!r}")
    family, device = parts
    fit = catalog.fit(family, device)
    rev = catalog.revision()
    if fit is None or rev is None:
        raise ValueError(f"no fit recorded for family {family!r} on device {device!r}")
    name = catalog.families[family].name if family in catalog.families else family
    return Shown(FIT_WORDS[fit], f"Architecture fit of {name} on {device} (support matrices of {rev.name})",
                 ("neuron-fit-word", f"neuron-fit-{fit}"), MATRIX_WORD_FILES)


def status_words(catalog: Catalog, text: str) -> Shown:
    """``family/device/framework[/workload]`` -> the support status in words (the latest revision).
    Without a workload: the framework's column for the device's purpose (training on Trainium).
    Raises ``ValueError`` with a message for the page's writer."""
    parts = [p.strip() for p in text.split("/")]
    if len(parts) not in (3, 4):
        raise ValueError(f"expected 'family/device/framework[/workload]', got {text!r}")
    family, device, framework = parts[:3]
    found = catalog.support_cell(family, device, framework, parts[3] if len(parts) == 4 else None)
    rev = catalog.revision()
    if found is None or rev is None:
        raise ValueError(f"no support status for {family!r} on {device!r} with {'/'.join(parts[2:])!r}")
    key, support = found
    name = catalog.families[family].name if family in catalog.families else family
    return Shown(STATUS_WORDS[support.status],
                 f"Support of {name} on {device} with {key} (support matrices of {rev.name})",
                 ("neuron-status-word", f"neuron-status-{support.status}"), MATRIX_WORD_FILES)


def shown(kind: str, catalog: Catalog, values: Values, text: str) -> Shown:
    """What role ``kind`` prints for ``text``: ``value`` (a figure, its format required), ``figure``
    (a figure, a default format for a derived one: the errata), ``fit`` or ``status``."""
    if kind == "value":
        return figure(catalog, values, text)
    if kind == "figure":
        return figure(catalog, values, text, require_format=False)
    if kind == "fit":
        return fit_words(catalog, text)
    if kind == "status":
        return status_words(catalog, text)
    if kind == "compare":  # comparative words written from the data (issue 36)
        from .comparative_words import compared
        return compared(catalog, values, text)
    raise KeyError(kind)


#: The key kinds of role outputs, and the files a failed one depends on (any file may hold the
#: value that is missing; a fit or a status is read from the families and the matrices).
SHOWN_KINDS = {"value": FILE_NAMES, "figure": FILE_NAMES, "fit": MATRIX_WORD_FILES, "status": MATRIX_WORD_FILES,
               "compare": FILE_NAMES}
