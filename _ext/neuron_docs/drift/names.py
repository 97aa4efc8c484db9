"""Names of families, devices and frameworks as people write them, found in prose (no Sphinx).

A name is matched on its words, lower-cased and with a plural ``s`` dropped, so "Transformer
decoders" names the family "Transformers Decoders" and "R-CNNs" names "R-CNN". Each family is known
by its name, short name, the parts of its title, its representatives, those names without a
trailing "models" or a parenthesis, the parenthesis itself ("CNN"), and the synonyms of
:data:`~neuron_docs.data.records.labels.FAMILY_SYNONYMS`; devices by their id, name, instance families
("Inf1") and :data:`~neuron_docs.data.records.labels.DEVICE_SYNONYMS`; frameworks by id, package and
:data:`~neuron_docs.data.records.labels.FRAMEWORK_SYNONYMS` (a name shared by several frameworks, such as
"PyTorch", names all of them: the device decides which one is meant).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..data.records.labels import DEVICE_SYNONYMS, FAMILY_SYNONYMS, FRAMEWORK_SYNONYMS

if TYPE_CHECKING:
    from ..data.catalog import Catalog

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_TRAILING = re.compile(r"\s+(?:models?|networks?|architectures?)$", re.IGNORECASE)
_PAREN = re.compile(r"\s*\(([^)]*)\)\s*")
#: Longest name, in words.
MAX_WORDS = 8


def stem(word: str) -> str:
    """``word`` lower-cased, without a plural ``s`` ("decoders" -> "decoder", "cnns" -> "cnn")."""
    word = word.lower()
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def key(name: str) -> tuple[str, ...]:
    """The words of a name as they are compared."""
    return tuple(stem(w) for w in _TOKEN.findall(name))


def variants(name: str) -> set[str]:
    """A name, without its trailing "models", without its parenthesis, and the parenthesis alone."""
    out = {name}
    for part in re.split(r",\s*or\s+|\s+or\s+", name):
        out.add(part)
        bare = _PAREN.sub(" ", part).strip()
        out.add(bare)
        out.update(m.strip() for m in _PAREN.findall(part) if m.strip())
    out |= {_TRAILING.sub("", n) for n in out}
    return {n.strip() for n in out if n.strip()}


class NameTable:
    """Names (as word tuples) -> the ids they name; found in a text longest name first."""

    def __init__(self) -> None:
        self.names: dict[tuple[str, ...], tuple[str, ...]] = {}

    def add(self, name: str, record_id: str) -> None:
        words = key(name)
        if words and record_id not in self.names.get(words, ()):
            self.names[words] = (*self.names.get(words, ()), record_id)

    def find(self, text: str) -> list[tuple[tuple[str, ...], int]]:
        """(the ids named, offset) for every name in ``text``, longest first, without overlaps."""
        tokens = [(stem(m.group(0)), m.start()) for m in _TOKEN.finditer(text)]
        found: list[tuple[tuple[str, ...], int]] = []
        i = 0
        while i < len(tokens):
            for size in range(min(MAX_WORDS, len(tokens) - i), 0, -1):
                ids = self.names.get(tuple(t for t, _ in tokens[i:i + size]))
                if ids:
                    found.append((ids, tokens[i][1]))
                    i += size
                    break
            else:
                i += 1
        return found

    def ids(self, text: str) -> list[str]:
        """Every id named in ``text``, in order of first mention."""
        return list(dict.fromkeys(i for ids, _ in self.find(text) for i in ids))


def family_names(catalog: Catalog) -> NameTable:
    table = NameTable()
    for family in catalog.families.values():
        names: set[str] = set()
        for name in (family.name, family.short_name, family.title, *FAMILY_SYNONYMS.get(family.id, ())):
            if name:
                names |= variants(name)
        names.update(family.representatives)
        for name in names:
            table.add(name, family.id)
    # A name shared by two families names neither.
    table.names = {k: v for k, v in table.names.items() if len(v) == 1}
    return table


def device_names(catalog: Catalog) -> NameTable:
    table = NameTable()
    for device in catalog.devices.values():
        short = device.name.removeprefix("AWS ").removeprefix("NVIDIA ")
        for name in (device.id, device.name, short, _PAREN.sub(" ", short), *DEVICE_SYNONYMS.get(device.id, ())):
            table.add(name, device.id)
    for instance in catalog.instances.values():
        if key(instance.family) not in table.names:
            table.add(instance.family, instance.device)
    return table


def framework_names(catalog: Catalog) -> NameTable:
    table = NameTable()
    for framework in catalog.frameworks.values():
        for name in (framework.id, framework.package, *FRAMEWORK_SYNONYMS.get(framework.id, ())):
            table.add(name, framework.id)
    return table


def resolve(mentions: Iterable[tuple[str, ...]], allowed: Iterable[str]) -> list[str]:
    """The ids meant by several mentions ("TensorFlow Neuron (tensorflow-neuron (TF 1.x))"): the most
    specific mention narrows the others, restricted to the ``allowed`` ids."""
    allowed_set = set(allowed)
    chosen: set[str] | None = None
    for ids in mentions:
        here = set(ids) & allowed_set
        if not here:
            continue
        chosen = here if chosen is None else (chosen & here or chosen)
    return sorted(chosen) if chosen else []
