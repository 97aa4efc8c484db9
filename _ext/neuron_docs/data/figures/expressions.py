"""Derived claims: small arithmetic expressions over data values, evaluated safely.

An expression names figures by path (``run:vit-inf1-b3:throughput``) and combines them with
``+ - * /``, numbers and the functions in :data:`FUNCTIONS`, e.g.
``diff(run:vit-inf1-b3:throughput, run:vit-g5-b128:throughput)``. It is parsed with :mod:`ast` and
only those node types are evaluated: no names, attributes or calls beyond the table below.
"""

from __future__ import annotations

import ast
import math
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .runs import cost_per_million
from .values import Value

PATH_RE = re.compile(r"(?<![\w.:])(?<![\w.:]-)([a-z_]+):([a-z0-9][a-z0-9.\-]*):([a-z0-9_]+)(?![\w:])")


class ExpressionError(ValueError):
    """An expression that cannot be evaluated; the message says why, for the page's writer.
    ``path``: the data path it names that the data has no value for, when that is why."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


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


def _extreme(pick: Callable[..., Value], name: str) -> Callable[..., Value]:
    def choose(*args: Value) -> Value:
        first = args[0]
        for other in args[1:]:
            _same_unit(first, other, f"{name}()")
        return pick(args, key=lambda v: v.normalized().number)
    return choose


FUNCTIONS: dict[str, Callable[..., Value]] = {
    "diff": _diff, "ratio": _ratio, "pct_more": _pct_more, "pct_less": _pct_less, "cost_per_1m": _cost,
    "abs": lambda a: Value(abs(a.number), a.unit, a.label),
    "min": _extreme(min, "min"),
    "max": _extreme(max, "max"),
}

#: How many arguments each function takes: (fewest, most); ``None`` for no upper bound.
ARITY: dict[str, tuple[int, int | None]] = {
    "diff": (2, 2), "ratio": (2, 2), "pct_more": (2, 2), "pct_less": (2, 2), "cost_per_1m": (2, 2),
    "abs": (1, 1), "min": (1, None), "max": (1, None),
}

#: Longest expression accepted, in characters.
MAX_LENGTH = 500

_SLOT = "__v"


def evaluate(expression: str, values: Mapping[str, Value]) -> Result:
    """Evaluate ``expression`` against ``values``; raise :class:`ExpressionError` on any problem."""
    if not isinstance(expression, str):
        raise ExpressionError(f"an expression must be text, got {type(expression).__name__}")
    if len(expression) > MAX_LENGTH:
        raise ExpressionError(f"expression is longer than {MAX_LENGTH} characters")
    if _SLOT in expression:
        raise ExpressionError(_ALLOWED)
    paths: list[str] = []

    def substitute(match: re.Match[str]) -> str:
        paths.append(match.group(0))
        return f"{_SLOT}{len(paths) - 1}"

    source = PATH_RE.sub(substitute, expression.strip())
    for path in paths:
        if path not in values:
            raise ExpressionError(f"unknown data value {path!r}", path)
    if not source:
        raise ExpressionError("the expression is empty; expected a data path such as run:<id>:throughput")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # e.g. "1if": reported as a parse error
            tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ExpressionError(f"cannot parse expression {expression!r}") from None
    try:
        result = _eval(tree.body, [values[p] for p in paths])
    except ZeroDivisionError:
        raise ExpressionError(f"division by zero in {expression!r}") from None
    except OverflowError:
        raise ExpressionError(f"a number is too large in {expression!r}") from None
    except RecursionError:
        raise ExpressionError(f"expression {expression!r} is nested too deeply") from None
    if not math.isfinite(result.number):
        raise ExpressionError(f"expression {expression!r} does not give a finite number")
    return Result(result.number, result.unit, tuple(dict.fromkeys(paths)))


_ALLOWED = ("only data paths, numbers, + - * / and the functions "
            f"{', '.join(sorted(FUNCTIONS))} are allowed")


def _eval(node: ast.AST, slots: list[Value]) -> Value:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return Value(float(node.value), "", "constant")
    if isinstance(node, ast.Name) and re.fullmatch(rf"{_SLOT}\d+", node.id) and int(node.id[3:]) < len(slots):
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
        if isinstance(node.op, ast.Mult):
            if left.unit and right.unit:
                msg = (f"cannot multiply a figure in {left.unit} by one in {right.unit}; "
                       "expected at most one of them to have a unit")
                raise ExpressionError(msg)
            return Value(left.number * right.number, left.unit or right.unit, "product")
        if left.unit and right.unit:
            # Two figures of one kind (3.4 PFLOPS / 312 TFLOPS): compare them in a common unit.
            left, right = _same_unit(left, right, "/")
            return Value(left.number / right.number, "", "quotient")
        if right.unit:
            msg = f"cannot divide a plain number by a figure in {right.unit}; expected the figure first"
            raise ExpressionError(msg)
        return Value(left.number / right.number, left.unit, "quotient")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS:
        name = node.func.id
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise ExpressionError(f"{name}() takes plain arguments, not keywords or *")
        fewest, most = ARITY[name]
        if len(node.args) < fewest or (most is not None and len(node.args) > most):
            wanted = str(fewest) if fewest == most else f"at least {fewest}"
            raise ExpressionError(f"wrong number of arguments to {name}(): expected {wanted}, got {len(node.args)}")
        args = [_eval(a, slots) for a in node.args]
        return FUNCTIONS[name](*args)
    raise ExpressionError(_ALLOWED)
