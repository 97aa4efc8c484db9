"""The prose of the data files: every text a field names as prose (an erratum's explanation, a
family's rationale, another source's ``why``, a ``note``), with the line it is on and the sibling
fields that say what it is about. The site prints these texts, so the drift checker reads them as it
reads a page (``drift.data_text``); they are gathered from the node tree the YAML reader composes
anyway (:func:`free_texts_of`), so no file is parsed twice. No Sphinx here.
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

#: Fields whose text is prose the site prints.
FREE_TEXT_FIELDS = frozenset({"explanation", "rationale", "why", "note", "notes", "description", "support_text"})
#: Sibling fields that say what a text is about (its heading for the checker).
ABOUT_FIELDS = ("id", "name", "family", "device", "instance", "model", "quote", "expression", "title", "label")
#: The data files holding free text the checker reads.
DATA_TEXT_FILES = ("errata.yaml", "families.yaml", "devices.yaml", "instances.yaml", "issues.yaml")


@dataclass(frozen=True)
class FreeText:
    """A free text of a data file: its field, text and heading, and where it is in the file."""

    field: str
    text: str
    heading: str
    #: Offsets in the file of the text's first and last character.
    start: int
    end: int
    #: The line (1-based) of the text's first character.
    line: int
    #: What the record quotes of its source (an erratum's ``quote``): its figures, discussed in the
    #: text, are the source's, not the data's.
    quoted: str = ""


def free_texts_of(root: yaml.Node | None) -> list[FreeText]:
    """Every free text under ``root`` (a composed document), in file order."""
    out: list[FreeText] = []
    if root is not None:
        _walk(root, out)
    return out


def _walk(node: yaml.Node, out: list[FreeText]) -> None:
    if isinstance(node, yaml.MappingNode):
        scalars = {k.value: str(v.value) for k, v in node.value
                   if isinstance(k, yaml.ScalarNode) and isinstance(v, yaml.ScalarNode)}
        about = " ".join(v for k, v in scalars.items() if k in ABOUT_FIELDS)
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value in FREE_TEXT_FIELDS and isinstance(value, yaml.ScalarNode):
                out.append(FreeText(key.value, str(value.value), about, value.start_mark.index, value.end_mark.index,
                                    value.start_mark.line + 1, scalars.get("quote", "")))
            else:
                _walk(value, out)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _walk(item, out)
