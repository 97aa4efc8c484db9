"""YAML data files: PyYAML's safe loader, stricter still, with the line of every value.

Aliases, merge keys, duplicate keys, deep nesting, control and bidirectional-override characters
and tags other than the standard scalar ones are errors. Nesting is bounded before anything is
composed (libyaml's composer recurses in C: a few hundred KB of nested lists would overflow its
stack). Well-formed files are composed by libyaml (several times faster; a file without an anchor
``&`` has no alias, so its tree is not walked for one); a file that fails the checks is composed
again by :class:`_StrictLoader`, which says exactly what is wrong and where.

Plain scalars are typed much as in YAML 1.2's core schema, never by YAML 1.1's surprises: an
integer is written in decimal without leading zeros (``010``, ``0x1F``, ``1_000`` and ``1:28``
stay text, which a number field then refuses with a located message instead of reading 8, 31, 1000
or 88), a float must have a dot as in YAML 1.1 (``1e3`` stays text, which a number field still
reads), and a float too large for a double stays text (a number field says it overflows). ``yes``,
``no``, ``on`` and ``off`` are booleans as in YAML 1.1: a text or number field refuses them with a
located message, never a silent ``True``. This module does not import Sphinx.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .free_text import FreeText, free_texts_of
from .loader import (DataError, DataFileError, Positions, Problem, bad_character, character_message,
                     dotted_path)

#: Deepest nesting of YAML mappings and lists accepted (the data needs fewer than ten levels).
MAX_DEPTH = 64

#: Longest mapping key accepted, in characters (keys are names; messages quote them).
MAX_KEY_CHARS = 200

_INT_TAG = "tag:yaml.org,2002:int"
_STR_TAG = "tag:yaml.org,2002:str"
_FLOAT_TAG = "tag:yaml.org,2002:float"
#: Decimal integers without leading zeros (YAML 1.1 would read 010 as 8, 0x1F as 31, 1:28 as 88).
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
#: Floats as YAML 1.1 writes them (a dot is required) without leading zeros, '_' or base 60.
_FLOAT = re.compile(r"""^(?:[-+]?(?:0|[1-9][0-9]*)\.[0-9]*(?:[eE][-+][0-9]+)?
                        |\.[0-9]+(?:[eE][-+][0-9]+)?
                        |[-+]?\.(?:inf|Inf|INF)
                        |\.(?:nan|NaN|NAN))$""", re.X)


def _core_resolvers() -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """PyYAML's implicit resolvers with :data:`_INT` and :data:`_FLOAT` for integers and floats.

    Every plain scalar typed here is typed the same by YAML 1.1, so what PyYAML writes reads back.
    """
    out: dict[Any, list[tuple[str, re.Pattern[str]]]] = {}
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items():
        out[first] = [(tag, regexp) for tag, regexp in resolvers if tag not in (_INT_TAG, _FLOAT_TAG)]
    for first in "-+0123456789":
        out.setdefault(first, []).insert(0, (_INT_TAG, _INT))
    for first in "-+.0123456789":
        out.setdefault(first, []).insert(1 if first != "." else 0, (_FLOAT_TAG, _FLOAT))
    return out


_RESOLVERS = _core_resolvers()


def _construct_int(loader: yaml.SafeLoader, node: ScalarNode) -> int:
    value = loader.construct_scalar(node)
    if not _INT.match(value):  # an explicit !!int on text that is not a decimal integer
        msg = f"{value!r} is not a decimal integer"
        raise ValueError(msg)
    return int(value)


def _construct_float(loader: yaml.SafeLoader, node: ScalarNode) -> float:
    value = loader.construct_scalar(node)
    if not _FLOAT.match(value) and not _INT.match(value):
        msg = f"{value!r} is not a float"
        raise ValueError(msg)
    lowered = value.lower()
    if lowered.endswith(".nan"):
        return math.nan
    if lowered.endswith(".inf"):
        return -math.inf if value.startswith("-") else math.inf
    number = float(value)
    if math.isinf(number):  # 1.0e+400: kept as text, which a number field says overflows
        msg = f"{value!r} overflows"
        raise ValueError(msg)
    return number


class _FastLoader(yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader):  # type: ignore[misc]
    """libyaml's safe loader with the scalar typing of this module."""

    yaml_implicit_resolvers = _RESOLVERS

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._plain_tags: dict[str, str] = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        """PyYAML's ``resolve``, its answer for a plain scalar kept by text (a file repeats its
        words: keys, statuses, ids); there are no path resolvers, so the text alone decides."""
        if kind is not ScalarNode or not implicit[0]:
            return str(super().resolve(kind, value, implicit))
        tag = self._plain_tags.get(value)
        if tag is None:
            tag = self._plain_tags[value] = str(super().resolve(kind, value, implicit))
        return tag


_FastLoader.add_constructor(_INT_TAG, _construct_int)
_FastLoader.add_constructor(_FLOAT_TAG, _construct_float)

_SAFE_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}
_MERGE_TAG = "tag:yaml.org,2002:merge"
_VALUE_TAG = "tag:yaml.org,2002:value"  # a plain "=" (YAML 1.1 value key): read as the text "="


class _StrictLoader(yaml.SafeLoader):
    """The safe loader, refusing aliases (and so alias bombs) and deep nesting while composing."""

    yaml_implicit_resolvers = _RESOLVERS

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(
                problem="aliases (*name) are not allowed in data files; expected the value written out",
                problem_mark=event.start_mark,
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.MarkedYAMLError(
                    problem=f"values are nested more than {MAX_DEPTH} levels deep; expected a flatter structure",
                    problem_mark=self.peek_event().start_mark,
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


_StrictLoader.add_constructor(_INT_TAG, _construct_int)
_StrictLoader.add_constructor(_FLOAT_TAG, _construct_float)


def parse_yaml(text: str, name: str) -> tuple[Any, Positions]:
    """Parse YAML text into plain values and the line of each value; raise on any problem."""
    value, positions, problems = read_yaml(text, name)
    if problems:
        raise DataFileError(problems[0][1])
    return value, positions


def read_yaml(text: str, name: str, free_texts: list[FreeText] | None = None) -> tuple[Any, Positions, list[Problem]]:
    """Parse YAML text into plain values, the line of each value and the problems found in places;
    and, given ``free_texts``, add the document's prose to it (:func:`.free_text.free_texts_of`).

    Raises :class:`DataFileError` when the text cannot be parsed at all.
    """
    fast = _compose_with_libyaml(text)
    if fast is not None:
        loader, node = fast
        positions: Positions = {}
        problems: list[Problem] = []
        try:
            value = _convert(loader, node, (), positions, problems, name)
            if free_texts is not None:
                free_texts.extend(free_texts_of(node))
            return value, _on_own_lines(positions), problems
        except _TooDeep:
            pass
        finally:
            loader.dispose()
    try:
        strict = _StrictLoader(text)
    except yaml.reader.ReaderError as exc:
        raise DataFileError(_reader_error(exc, text, name)) from None
    try:
        node = strict.get_single_node()
        positions = {}
        problems = []
        value = _convert(strict, node, (), positions, problems, name) if node is not None else None
        if free_texts is not None:
            free_texts.extend(free_texts_of(node))
    except yaml.MarkedYAMLError as exc:
        raise DataFileError(_syntax_error(exc, name)) from None
    except yaml.reader.ReaderError as exc:
        raise DataFileError(_reader_error(exc, text, name)) from None
    except yaml.YAMLError as exc:
        raise DataFileError(DataError(name, None, "", f"YAML syntax: {exc}")) from None
    except RecursionError:
        msg = f"YAML syntax: values are nested too deeply; expected at most {MAX_DEPTH} levels"
        raise DataFileError(DataError(name, None, "", msg)) from None
    finally:
        strict.dispose()
    return value, _on_own_lines(positions), problems


def _on_own_lines(positions: Positions) -> Positions:
    """``positions`` without the values on the line of the value holding them (the fields of a record
    written on one line): the enclosing value's entry gives their line (:data:`.loader.Positions`)."""
    return {path: line for path, line in positions.items() if not path or positions[path[:-1]] != line}


_NOT_FLOW = re.compile(r"[^\[\]{}]+")
#: The indentation and block indicators a line starts with: a block collection begins no further in.
_BLOCK_PREFIX = re.compile(r"^[ \t?:-]*", re.M)


def _compose_with_libyaml(text: str) -> tuple[yaml.CSafeLoader, Any] | None:
    """The node tree composed by libyaml (several times faster), or ``None`` for the careful path.

    Only well-formed, alias-free, shallow documents take this path; anything else (a syntax error,
    an alias, deep nesting) is composed again by :class:`_StrictLoader`, which says exactly what is
    wrong and where. Nesting is bounded before libyaml's composer (which recurses in C) sees the
    text: by a cheap bound (:func:`_depth_bound`), else by counting on libyaml's event stream.
    """
    if not getattr(yaml, "__with_libyaml__", False):
        return None
    if _depth_bound(text) > MAX_DEPTH and not _events_shallow(text):
        return None
    try:
        loader = _FastLoader(text)
    except (yaml.YAMLError, ValueError):
        return None
    try:
        node = loader.get_single_node()
    except (yaml.YAMLError, ValueError):  # ValueError: e.g. text that cannot be encoded (surrogates)
        loader.dispose()
        return None
    # Without an anchor (``&name``) there is no alias, and the nesting is bounded above.
    if node is None or ("&" in text and not _plain_tree(node)):
        loader.dispose()
        return None
    return loader, node


def _depth_bound(text: str) -> int:
    """An upper bound of how deeply the values of ``text`` nest (composer recursion included).

    A block mapping or list starts at a column greater than the one holding it (libyaml's indents
    only grow), or at the same column for a list that is a mapping's value, and never further in
    than the indentation and block indicators (``-``, ``?``, ``:``) that begin its line. Flow
    collections nest at most as deep as the brackets do.
    """
    widest = max((len(m.group()) for m in _BLOCK_PREFIX.finditer(text)), default=0)
    return 2 * (widest + 2) + _flow_depth(text) + 1


def _events_shallow(text: str) -> bool:
    """True when libyaml's event stream (parsed without recursion) nests at most :data:`MAX_DEPTH`."""
    starts = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
    ends = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
    loader = yaml.CSafeLoader(text)
    depth = 0
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, starts):
                depth += 1
                if depth >= MAX_DEPTH:
                    return False
            elif isinstance(event, ends):
                depth -= 1
    except (yaml.YAMLError, ValueError):
        return False
    finally:
        loader.dispose()
    return True


def _flow_depth(text: str) -> int:
    """An upper bound of the bracket nesting of ``text`` (brackets in strings count too)."""
    depth = deepest = 0
    for char in _NOT_FLOW.sub("", text):
        depth = depth + 1 if char in "[{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest


def _plain_tree(root: Any) -> bool:
    """True when no node is reached twice (an alias) and nothing is nested deeper than allowed."""
    seen: set[int] = set()
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen or depth > MAX_DEPTH:
            return False
        seen.add(id(node))
        if isinstance(node, MappingNode):
            for key, value in node.value:
                stack.extend(((key, depth + 1), (value, depth + 1)))
        elif isinstance(node, SequenceNode):
            stack.extend((item, depth + 1) for item in node.value)
    return True


def _syntax_error(exc: yaml.MarkedYAMLError, name: str) -> DataError:
    """Locate a YAML syntax error where the writer must look.

    Inside a flow collection ([...] or {...}) or a quoted or block scalar, the mistake (a missing
    bracket or quote) is usually where that construct starts, not where the parser gave up.
    """
    problem_line = exc.problem_mark.line + 1 if exc.problem_mark else None
    context_line = exc.context_mark.line + 1 if exc.context_mark else None
    problem = exc.problem or "invalid YAML"
    starts_at_context = bool(exc.context) and any(w in (exc.context or "") for w in ("flow", "quoted", "scanning a"))
    line = (context_line if starts_at_context else problem_line) or problem_line or context_line
    if exc.context:
        problem = f"{exc.context}: {problem}"
    other = problem_line if line == context_line else context_line
    if other and other != line:
        problem += f" (on line {other})"
    if "expected" not in problem:
        problem += "; expected valid YAML (check the indentation, quotes and brackets)"
    return DataError(name, line, "", f"YAML syntax: {problem}")


def _reader_error(exc: yaml.reader.ReaderError, text: str, name: str) -> DataError:
    line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else None
    character = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
    return DataError(name, line, "", f"YAML syntax: character {character} is not allowed; expected printable text")


class _TooDeep(Exception):
    """A value nested deeper than :data:`MAX_DEPTH` (the careful path says where)."""


def _convert(loader: yaml.SafeLoader | yaml.CSafeLoader, node: Any, path: tuple[Any, ...], positions: Positions,
             problems: list[Problem], name: str) -> Any:
    if len(path) >= MAX_DEPTH:  # never for the strict loader, which refuses it while composing
        raise _TooDeep
    line = node.start_mark.line + 1
    positions[path] = line
    if isinstance(node, MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            problems.append((path, DataError(name, line, dotted_path(path), _tag_message(node.tag))))
            return None
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if isinstance(key_node, ScalarNode) and key_node.tag == _MERGE_TAG:
                msg = "merge keys (<<) are not allowed in data files; expected the keys written out"
                problems.append(((*path, "<<"), DataError(name, key_line, dotted_path((*path, "<<")), msg)))
                continue
            if not isinstance(key_node, ScalarNode):
                msg = "keys must be plain names; expected a name before the ':', not a list or mapping"
                problems.append((path, DataError(name, key_line, dotted_path(path), msg)))
                continue
            if key_node.tag not in _SAFE_SCALAR_TAGS and key_node.tag != _VALUE_TAG:
                key_path = (*path, key_node.value)
                problems.append((key_path, DataError(name, key_line, dotted_path(key_path),
                                                     _tag_message(key_node.tag))))
                continue
            key = key_node.value
            key_path = (*path, key)
            bad = bad_character(key)
            if bad or len(key) > MAX_KEY_CHARS:
                msg = (f"key: {character_message(bad)}" if bad else
                       f"key is {len(key)} characters long; expected a name of at most {MAX_KEY_CHARS} characters")
                problems.append((key_path, DataError(name, key_line, dotted_path(key_path), msg)))
                continue
            if key in out:
                first = positions[key_path]
                msg = f"duplicate key {key!r} (the first is on line {first}); expected each key once"
                problems.append((key_path, DataError(name, key_line, dotted_path(key_path), msg)))
                continue
            out[key] = _convert(loader, value_node, key_path, positions, problems, name)
            positions[key_path] = min(positions[key_path], key_line)
        return out
    if isinstance(node, SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            problems.append((path, DataError(name, line, dotted_path(path), _tag_message(node.tag))))
            return None
        return [_convert(loader, item, (*path, i), positions, problems, name) for i, item in enumerate(node.value)]
    if node.tag not in _SAFE_SCALAR_TAGS and node.tag != _VALUE_TAG:
        problems.append((path, DataError(name, line, dotted_path(path), _tag_message(node.tag))))
        return None
    bad = bad_character(node.value)
    if bad:
        problems.append((path, DataError(name, line, dotted_path(path), character_message(bad))))
        return None
    if node.tag == _VALUE_TAG or node.tag == _STR_TAG:  # text: the constructor would return it as is
        return node.value
    try:
        return loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError, TypeError):
        # e.g. an impossible date (2023-02-30), an integer too long to convert or a float that
        # overflows: keep the text, and let the record's schema say what was expected there.
        return node.value


def _tag_message(tag: str) -> str:
    return (f"tag {tag} is not allowed in data files; expected plain text, numbers, dates, "
            "true/false, lists and mappings")
