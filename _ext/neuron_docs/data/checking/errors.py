"""Located messages: pydantic's ValidationErrors as :class:`DataError` with a line and a plain message.

Each message says what was found and what was expected (``expected a date written YYYY-MM-DD
(...) (got '2024-13-01')``, ``unknown key 'nmae' (did you mean 'name'?); expected one of: ...``),
at the line of the value in its file. This module does not import Sphinx.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
import types
import unicodedata
from collections.abc import Iterator
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from ..files.loader import DataError, Positions

#: Human descriptions of the patterns in :mod:`..records.fields`, for error messages.
_PATTERNS = {
    r"^[a-z0-9][a-z0-9.\-]*$": "an id (lowercase letters, digits, '.' and '-', starting with a letter or digit)",
    r"^[a-z][a-z0-9_]*$": "a key of lowercase letters, digits and '_', starting with a letter",
    r"^https://\S+$": "an https:// URL without spaces",
}
_WRAPPER_LOC = re.compile(r"^[a-z][a-z-]*\[.*\]$")


def located_errors(exc: ValidationError, model: type[BaseModel], name: str, positions: Positions,
                   prefix: tuple[Any, ...], field_of: Any) -> list[DataError]:
    """Turn pydantic's errors into :class:`DataError` with the line and field path of each."""
    errors = []
    causes: list[tuple[str, tuple[Any, ...]]] = []
    for err in exc.errors(include_url=False):
        raw_loc = err["loc"]
        is_key = "[key]" in raw_loc
        loc = tuple(part for part in raw_loc
                    if not (isinstance(part, str) and (part == "[key]" or _WRAPPER_LOC.match(part))))
        kind = err["type"]
        msg = str(err["msg"])
        ctx = err.get("ctx") or {}
        if kind == "value_error":
            # A rule over a whole record or a nested one (model_validator): it names the field first.
            first = msg.removeprefix("Value error, ").split(" ", 1)[0]
            owner = _model_at(model, (*loc, first)) if loc else model
            if owner is not None and first in owner.model_fields:
                loc = (*loc, first)
        path = (*prefix, *loc)
        line = nearest_line(positions, path)
        shown = "input" in err and not isinstance(err["input"], dict | list)
        got = f" (got {short_repr(err['input'])})" if shown else ""
        if kind == "extra_forbidden":
            parent = _model_at(model, loc)
            message = unknown_key_message(loc[-1], list(parent.model_fields) if parent else [])
        elif kind == "missing":
            message = (f"required field {loc[-1]!r} is missing; expected a value for it" if loc
                       else "required field is missing; expected a value for it")
        elif kind == "literal_error":
            choices = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
            message = f"expected {ctx.get('expected', 'one of the allowed values')}{got}"
            close = difflib.get_close_matches(str(err.get("input")), choices, n=1)
            if close:
                message += f" (did you mean {close[0]!r}?)"
        elif kind == "string_pattern_mismatch":
            pattern = str(ctx.get("pattern", ""))
            message = f"expected {_PATTERNS.get(pattern, f'text matching {pattern}')}{got}"
        elif kind == "string_type" and isinstance(err.get("input"), bool | int | float | dt.date):
            message = f"expected text{got}; write the value in quotes to keep it as text"
        elif kind in ("string_too_short", "string_too_long"):
            size = len(err["input"]) if isinstance(err.get("input"), str) else "?"
            limit = ctx.get("min_length", ctx.get("max_length"))
            if kind == "string_too_short" and limit == 1:
                message = "expected non-empty text (got an empty string)"
            else:
                bound = "at least" if kind == "string_too_short" else "at most"
                message = f"expected text of {bound} {limit} characters (got {size} characters)"
        elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
            words = {"greater_than": "greater than", "greater_than_equal": "at least",
                     "less_than": "less than", "less_than_equal": "at most"}[kind]
            limit = next(iter(ctx.values()), "?")
            message = f"expected a number {words} {_plain(limit)}{got}"
        elif kind.startswith("date") and kind != "date_type":
            reason = msg.split(",", 1)[1].strip() if "," in msg else msg
            message = f"expected a date written YYYY-MM-DD ({reason}){got}"
        elif kind in ("model_type", "model_attributes_type", "dict_type"):
            message = f"expected a mapping of keys to values{got or ' (got a list)'}"
        elif kind == "list_type":
            message = f"expected a list{got or ' (got a mapping)'}"
        else:
            text = msg.removeprefix("Input should be ").removeprefix("Value error, ")
            message = f"expected {text}{'' if '(got ' in text else got}"
        if is_key:
            message = f"invalid key: {message}"
        errors.append(DataError(name, line, field_of(path), message))
        causes.append((kind, path))
    return _one_cause_one_error(errors, causes, field_of)


def _one_cause_one_error(errors: list[DataError], causes: list[tuple[str, tuple[Any, ...]]],
                         field_of: Any) -> list[DataError]:
    """A required field "missing" because its key is written with look-alike letters is one problem,
    said at the key (an unknown key that looks like the field), not two."""
    unknown = {path: i for i, (kind, path) in enumerate(causes) if kind == "extra_forbidden" and path}
    dropped = set()
    for i, (kind, path) in enumerate(causes):
        if kind != "missing" or not path:
            continue
        for key_path, j in unknown.items():
            if key_path[:-1] == path[:-1] and lookalike_of(str(key_path[-1]), [str(path[-1])]):
                dropped.add(i)
    return [e for i, e in enumerate(errors) if i not in dropped]


def lookalike_of(key: str, expected: list[str]) -> str | None:
    """The expected key that ``key`` is, written with look-alike characters (a Cyrillic ``і`` for a
    Latin ``i``, a full-width letter): compared by Unicode's confusable skeletons (the
    confusable_homoglyphs library, then NFKC and case folding); None when there is none."""
    if key.isascii():
        return None
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    chars = []
    for char in key:
        if char.isascii():
            chars.append(char)
            continue
        found = confusables.is_confusable(char, preferred_aliases=["latin"], greedy=True) or []
        latin = [h["c"] for f in found for h in f.get("homoglyphs", []) if h["c"].isascii()]
        chars.append(latin[0] if latin else unicodedata.normalize("NFKC", char))
    skeleton = "".join(chars).casefold()
    return next((name for name in expected if name.casefold() == skeleton), None)


def _lookalike_message(key: str, name: str) -> str:
    odd = ", ".join(f"{c!r} U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in dict.fromkeys(key) if not c.isascii())
    return (f"unknown key {key!r} looks like {name!r} but is written with look-alike characters ({odd}); "
            f"expected {name!r} typed in plain letters")


def _plain(number: Any) -> str:
    return str(int(number)) if isinstance(number, float) and number.is_integer() else str(number)


def _candidates(annotation: Any) -> Iterator[Any]:
    """The concrete types an annotation allows (through ``Annotated``, ``Optional`` and unions)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        yield from _candidates(get_args(annotation)[0])
    elif origin is Union or origin is types.UnionType:
        for arg in get_args(annotation):
            yield from _candidates(arg)
    else:
        yield annotation


def _step(annotation: Any, part: Any) -> Any:
    """The annotation of the value at ``part`` inside a value of type ``annotation``."""
    for candidate in _candidates(annotation):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            if isinstance(part, str) and part in candidate.model_fields:
                return candidate.model_fields[part].annotation
        elif get_origin(candidate) is dict:
            return get_args(candidate)[1]
        elif get_origin(candidate) is list and isinstance(part, int):
            return get_args(candidate)[0]
    return None


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The pydantic model that owns the field at ``loc`` (for listing its valid keys)."""
    annotation: Any = model
    for part in loc[:-1]:
        annotation = _step(annotation, part)
        if annotation is None:
            return None
    for candidate in _candidates(annotation):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def unknown_key_message(key: Any, expected: list[str]) -> str:
    """Why ``key`` is refused, with the closest expected key and the list of expected keys."""
    lookalike = lookalike_of(str(key), expected)
    if lookalike is not None:
        return _lookalike_message(str(key), lookalike)
    message = f"unknown key {key!r}"
    close = difflib.get_close_matches(str(key), expected, n=1)
    if close:
        message += f" (did you mean {close[0]!r}?)"
    return f"{message}; expected one of: {', '.join(expected)}" if expected else message


def nearest_line(positions: Positions, path: tuple[Any, ...]) -> int | None:
    """The line of the value at ``path``, or of the nearest enclosing value that has one."""
    for end in range(len(path), -1, -1):
        if path[:end] in positions:
            return positions[path[:end]]
    return None


def short_repr(value: Any) -> str:
    """A value as quoted in messages: dates as written, anything else by repr, at most 60 characters."""
    text = value.isoformat(sep=" ") if isinstance(value, dt.datetime) else (
        value.isoformat() if isinstance(value, dt.date) else repr(value))
    return text if len(text) <= 60 else text[:57] + "..."
