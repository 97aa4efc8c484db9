"""YAML data files: PyYAML's safe loader, stricter still, with the line of every value.

Aliases, merge keys, duplicate keys, deep nesting and tags other than the standard scalar ones are
errors. Well-formed files are composed by libyaml (several times faster); a file that fails the
checks is composed again by :class:`_StrictLoader`, which says exactly what is wrong and where.
This module does not import Sphinx.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .loader import DataError, DataFileError, Positions, Problem, dotted_path

#: Deepest nesting of YAML mappings and lists accepted (the data needs fewer than ten levels).
MAX_DEPTH = 64

_SAFE_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}
_MERGE_TAG = "tag:yaml.org,2002:merge"
_VALUE_TAG = "tag:yaml.org,2002:value"  # a plain "=" (YAML 1.1 value key): read as the text "="


class _StrictLoader(yaml.SafeLoader):
    """The safe loader, refusing aliases (and so alias bombs) and deep nesting while composing."""

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


def parse_yaml(text: str, name: str) -> tuple[Any, Positions]:
    """Parse YAML text into plain values and the line of each value; raise on any problem."""
    value, positions, problems = read_yaml(text, name)
    if problems:
        raise DataFileError(problems[0][1])
    return value, positions


def read_yaml(text: str, name: str) -> tuple[Any, Positions, list[Problem]]:
    """Parse YAML text into plain values, the line of each value and the problems found in places.

    Raises :class:`DataFileError` when the text cannot be parsed at all.
    """
    fast = _compose_with_libyaml(text)
    if fast is not None:
        loader, node = fast
        positions: Positions = {}
        problems: list[Problem] = []
        try:
            return _convert(loader, node, (), positions, problems, name), positions, problems
        finally:
            loader.dispose()
    try:
        loader = _StrictLoader(text)
    except yaml.reader.ReaderError as exc:
        raise DataFileError(_reader_error(exc, text, name)) from None
    try:
        node = loader.get_single_node()
        positions = {}
        problems = []
        value = _convert(loader, node, (), positions, problems, name) if node is not None else None
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
        loader.dispose()
    return value, positions, problems


_NOT_FLOW = re.compile(r"[^\[\]{}]+")


def _compose_with_libyaml(text: str) -> tuple[yaml.CSafeLoader, Any] | None:
    """The node tree composed by libyaml (several times faster), or ``None`` for the careful path.

    Only well-formed, alias-free, shallow documents take this path; anything else (a syntax error,
    an alias, deep nesting) is composed again by :class:`_StrictLoader`, which says exactly what is
    wrong and where. Flow nesting is bounded before libyaml sees the text, so its recursion is too.
    """
    if not getattr(yaml, "__with_libyaml__", False) or _flow_depth(text) > MAX_DEPTH:
        return None
    try:
        loader = yaml.CSafeLoader(text)
    except (yaml.YAMLError, ValueError):
        return None
    try:
        node = loader.get_single_node()
    except (yaml.YAMLError, ValueError):  # ValueError: e.g. text that cannot be encoded (surrogates)
        loader.dispose()
        return None
    if node is None or not _plain_tree(node):
        loader.dispose()
        return None
    return loader, node


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
    starts_at_context = bool(exc.context) and any(w in exc.context for w in ("flow", "quoted", "scanning a"))
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


def _convert(loader: yaml.SafeLoader, node: Any, path: tuple[Any, ...], positions: Positions,
             problems: list[Problem], name: str) -> Any:
    line = node.start_mark.line + 1
    positions[path] = line
    where = dotted_path(path)
    if isinstance(node, MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            problems.append((path, DataError(name, line, where, _tag_message(node.tag))))
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
                problems.append((path, DataError(name, key_line, where, msg)))
                continue
            if key_node.tag not in _SAFE_SCALAR_TAGS and key_node.tag != _VALUE_TAG:
                key_path = (*path, key_node.value)
                problems.append((key_path, DataError(name, key_line, dotted_path(key_path),
                                                     _tag_message(key_node.tag))))
                continue
            key = key_node.value
            key_path = (*path, key)
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
            problems.append((path, DataError(name, line, where, _tag_message(node.tag))))
            return None
        return [_convert(loader, item, (*path, i), positions, problems, name) for i, item in enumerate(node.value)]
    if node.tag == _VALUE_TAG:
        return node.value
    if node.tag not in _SAFE_SCALAR_TAGS:
        problems.append((path, DataError(name, line, where, _tag_message(node.tag))))
        return None
    try:
        return loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError, TypeError):
        # e.g. an impossible date (2023-02-30) or an integer too long to convert: keep the text,
        # and let the record's schema say what was expected there.
        return node.value


def _tag_message(tag: str) -> str:
    return (f"tag {tag} is not allowed in data files; expected plain text, numbers, dates, "
            "true/false, lists and mappings")
