"""Derived claims: small arithmetic expressions over data values, evaluated safely.

An expression names figures by path (``run:vit-inf1-b3:throughput``) and combines them with
``+ - * /``, numbers and the functions in :data:`FUNCTIONS`, e.g.
``diff(run:vit-inf1-b3:throughput, run:vit-g5-b128:throughput)``. It is parsed with :mod:`ast` and
only those node types are evaluated: no names, attributes or calls beyond the table below.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .values import Value, cost_per_million

PATH_RE = re.compile(r"(?<![\w.\-:])([a-z_]+):([a-z0-9][a-z0-9.\-]*):([a-z0-9_]+)(?![\w:])")


class ExpressionError(ValueError):
    """An expression that cannot be evaluated; the message says why, for the page's writer."""


@dataclass(frozen=True)
class Result:
    """An evaluated expression: the number, its unit, and the paths it read."""

    number: float
    unit: str
    paths: tuple[str, ...]


def _same_unit(a: Value, b: Value, what: str) -> tuple[Value, Value]:
    a, b = a.normalized(), b.normalized()
    if a.unit != b.unit:
        msg = f"{what} needs figures of the same unit, got {a.unit or 'a count'} and {b.unit or 'a count'}"
        raise ExpressionError(msg)
    return a, b


def _diff(a: Value, b: Value) -> Value:
    a, b = _same_unit(a, b, "diff()")
    return Value(a.number - b.number, "pp" if a.unit == "%" else a.unit, "difference")


def _ratio(a: Value, b: Value) -> Value:
    a, b = _same_unit(a, b, "ratio()")
    return Value(a.number / b.number, "x", "ratio")


def _pct_more(a: Value, b: Value) -> Value:
    """How much larger ``a`` is than ``b``, in percent of ``b``."""
    a, b = _same_unit(a, b, "pct_more()")
    return Value((a.number / b.number - 1) * 100, "%", "percent more")


def _pct_less(a: Value, b: Value) -> Value:
    """How much smaller ``a`` is than ``b``, in percent of ``b``."""
    a, b = _same_unit(a, b, "pct_less()")
    return Value((1 - a.number / b.number) * 100, "%", "percent less")


def _cost(price: Value, throughput: Value) -> Value:
    if price.unit != "USD/h" or throughput.unit != "inferences/s":
        msg = "cost_per_1m() needs a price in USD/h and a throughput in inferences/s"
        raise ExpressionError(msg)
    return Value(cost_per_million(price.number, throughput.number), "USD", "cost per 1M inferences")


FUNCTIONS: dict[str, Callable[..., Value]] = {
    "diff": _diff, "ratio": _ratio, "pct_more": _pct_more, "pct_less": _pct_less, "cost_per_1m": _cost,
    "abs": lambda a: Value(abs(a.number), a.unit, a.label),
    "min": lambda *a: min(a, key=lambda v: v.normalized().number),
    "max": lambda *a: max(a, key=lambda v: v.normalized().number),
}


def evaluate(expression: str, values: Mapping[str, Value]) -> Result:
    """Evaluate ``expression`` against ``values``; raise :class:`ExpressionError` on any problem."""
    if len(expression) > 500:
        raise ExpressionError("expression is longer than 500 characters")
    paths: list[str] = []

    def substitute(match: re.Match[str]) -> str:
        paths.append(match.group(0))
        return f"__v{len(paths) - 1}"

    source = PATH_RE.sub(substitute, expression.strip())
    for path in paths:
        if path not in values:
            raise ExpressionError(f"unknown data value {path!r}")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        raise ExpressionError(f"cannot parse expression {expression!r}") from None
    try:
        result = _eval(tree.body, [values[p] for p in paths])
    except ZeroDivisionError:
        raise ExpressionError(f"division by zero in {expression!r}") from None
    return Result(result.number, result.unit, tuple(dict.fromkeys(paths)))


def _eval(node: ast.AST, slots: list[Value]) -> Value:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return Value(float(node.value), "", "constant")
    if isinstance(node, ast.Name) and node.id.startswith("__v"):
        return slots[int(node.id[3:])]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _eval(node.operand, slots)
        return Value(-inner.number, inner.unit, inner.label)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
        left, right = _eval(node.left, slots), _eval(node.right, slots)
        if isinstance(node.op, ast.Add | ast.Sub):
            left, right = _same_unit(left, right, "+ and -")
            number = left.number + right.number if isinstance(node.op, ast.Add) else left.number - right.number
            return Value(number, left.unit, "sum")
        number = left.number * right.number if isinstance(node.op, ast.Mult) else left.number / right.number
        unit = left.unit if not right.unit else (right.unit if not left.unit and isinstance(node.op, ast.Mult) else "")
        return Value(number, unit, "product")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS and not node.keywords:
        args = [_eval(a, slots) for a in node.args]
        try:
            return FUNCTIONS[node.func.id](*args)
        except TypeError:
            raise ExpressionError(f"wrong number of arguments to {node.func.id}()") from None
    allowed = ", ".join(sorted(FUNCTIONS))
    raise ExpressionError(f"only data paths, numbers, + - * / and the functions {allowed} are allowed")
