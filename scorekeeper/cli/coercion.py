"""Typer's value coercion, without pydantic for the values a plain parse settles.

Typer (0.2x) coerces each parameter's value through a pydantic ``TypeAdapter``, built
when the parameter is processed, even when the option was not given: importing
pydantic and building those adapters was about a quarter of `score add-round`'s start-up.
Most of ``score``'s parameters are text, whole numbers, flags or lists of text, and
most of the time their values are plain (``Ann=7``, ``--bid 3``, or absent): those are
settled here exactly as pydantic settles them (tests/test_cli_startup.py compares
the two). Any other value (``--bid +3``, ``--bid x``) and any other kind of parameter
(a path, a choice, a custom parser) goes to Typer's own coercion, so its results and
messages stay Typer's. With a Typer whose internals differ, nothing is changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

try:  # typer >= 0.26: coercion through pydantic, one RuntimeParam per parameter
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer.core import _TyperParameter
except ImportError:  # pragma: no cover - an older Typer coerces through Click types
    RuntimeParam = None  # type: ignore[assignment,misc,unused-ignore]

_UNSETTLED: Any = object()
_LONGEST_NUMBER = 18
"""Digits of the longest whole number settled here (pydantic's own limit is far above)."""

_TEXT_LIST = list[str]


def plain_value(annotation: Any, value: Any) -> Any:
    """``value`` coerced to ``annotation`` as pydantic would, or :data:`_UNSETTLED`
    when the value is not plainly one (Typer's own coercion decides then)."""
    if annotation is str:
        return value if type(value) is str else _UNSETTLED
    if annotation is int:
        if type(value) is not str:
            return _UNSETTLED
        digits = value[1:] if value.startswith("-") else value
        if 0 < len(digits) <= _LONGEST_NUMBER and digits.isascii() and digits.isdigit():
            return int(value)
        return _UNSETTLED
    if annotation is bool:
        return value if type(value) is bool else _UNSETTLED
    if annotation == _TEXT_LIST:
        if isinstance(value, list | tuple) and all(type(item) is str for item in value):
            return list(value)
        return _UNSETTLED
    return _UNSETTLED


def _plain_kind(descriptor: Any) -> bool:
    """A parameter whose values :func:`plain_value` may settle: text, a whole number
    without bounds, a flag or a list of text, with no parser or file of its own."""
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or getattr(info, "parser", None) is not None:
        return False
    annotation = descriptor.annotation
    if annotation is int:
        return all(getattr(info, bound, None) is None for bound in ("min", "max")) \
            and not getattr(info, "clamp", False)
    return annotation is str or annotation is bool or annotation == _TEXT_LIST


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class _PlainRuntimeParam(RuntimeParam):
        """Settles plain values itself; hands every other value to Typer's coercion.
        (An absent value never gets here: :class:`RuntimeParam` settles it.)"""

        plain: bool = False
        """The parameter is of a kind whose values may be plain (:func:`_plain_kind`)."""

        def _coerce_value(self, value: Any, param: _TyperParameter, ctx: Any) -> Any:
            settled = plain_value(self.annotation, value) if self.plain else _UNSETTLED
            if settled is not _UNSETTLED:
                return settled
            typers = build_runtime_param(param.type_descriptor)
            param._runtime_param = typers  # the next value goes straight to it
            return typers._coerce_value(value, param=param, ctx=ctx)


def install() -> None:
    """Coerce every Typer parameter of this process as above (the help option and the
    options of subcommands included: Typer builds an adapter even for an option that
    was not given)."""
    if RuntimeParam is None or getattr(_TyperParameter, "_plain_values", False):
        return

    def get_runtime_param(self: _TyperParameter) -> RuntimeParam:
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            self._runtime_param = _PlainRuntimeParam(
                parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                plain=_plain_kind(descriptor))
        return self._runtime_param

    _TyperParameter.get_runtime_param = get_runtime_param  # type: ignore[method-assign]
    _TyperParameter._plain_values = True  # type: ignore[attr-defined]
