"""Writing a list into a YAML file people edit, keeping what they wrote: comments, key order, style.

A tool that updates a hand-edited file (the import puts the published price tables into
``prices.yaml``, beside prices typed by hand) must not reformat it: :func:`update_list` reads the file
with ruamel.yaml's round-trip mode, keeps every item whose values are unchanged exactly as written
(its comments, its key order, block or flow style, quoting), removes the items no longer wanted,
adds the new ones (one flow mapping a line, as the import always wrote them) and changes nothing
else. When the wanted items equal the file's, it returns the file's text itself, byte for byte: an
import that changes nothing rewrites nothing. Items are known by their ``id``; the file's order of
the items it keeps is its own (a person's order is kept), a changed item is changed in place (its
other keys, comments and style kept), and a new one goes after the item it follows in ``items``.
No Sphinx here.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Mapping, Sequence
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 10**6
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _plain(value: Any) -> Any:
    """A value as the comparison sees it: dates and numbers as their text, mappings without order."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return None if value is None else str(value)


def _node(item: Mapping[str, Any]) -> CommentedMap:
    node = CommentedMap(item)
    node.fa.set_flow_style()
    return node


def update_list(text: str | None, key: str, items: Sequence[Mapping[str, Any]], header: str = "") -> str:
    """``text`` (a YAML document holding a list under ``key``; None: no file yet) with that list made
    ``items`` in their order, everything else as written (see the module's docstring)."""
    yaml = _yaml()
    if not text or not text.strip():
        document = CommentedMap()
        document[key] = CommentedSeq()
        out = io.StringIO()
        document[key].extend(_node(item) for item in items)
        yaml.dump(document, out)
        return header + out.getvalue()
    document = yaml.load(text)
    if not isinstance(document, CommentedMap):
        raise ValueError(f"expected a mapping holding {key!r}; not rewritten")
    seq = document.get(key)
    if not isinstance(seq, CommentedSeq):
        seq = CommentedSeq()
        document[key] = seq
    identity = _identity_of(seq, items)
    wanted = {identity(item): item for item in items}
    present = {identity(node) for node in seq}
    changed = False
    for index in reversed(range(len(seq))):
        node = seq[index]
        item = wanted.get(identity(node))
        if item is None:
            del seq[index]
            changed = True
        elif _plain(node) != _plain(dict(item)):
            _update(node, item)
            changed = True
    previous: Any = None
    for item in items:
        name = identity(item)
        if name not in present:
            at = 0 if previous is None else next(i for i, n in enumerate(seq) if identity(n) == previous) + 1
            seq.insert(at, _node(item))
            present.add(name)
            changed = True
        previous = name
    if not changed:
        return text
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


def _identity_of(seq: Sequence[Any], items: Sequence[Mapping[str, Any]]) -> Any:
    """How an item is known across versions: its ``id`` when every item has one, else its values."""
    if all(isinstance(x, Mapping) and "id" in x for x in [*seq, *items]):
        return lambda x: str(x["id"])
    return lambda x: repr(sorted(_plain(dict(x)).items())) if isinstance(x, Mapping) else repr(x)


def _update(node: CommentedMap, item: Mapping[str, Any]) -> None:
    """``node`` given the values of ``item`` in place: its key order, style and comments kept; new keys last."""
    for key in [k for k in node if k not in item]:
        del node[key]
    for key, value in item.items():
        if key not in node or _plain(node[key]) != _plain(value):
            node[key] = value
