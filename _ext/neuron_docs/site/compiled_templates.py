"""The theme's page templates compiled once per process, however many builds it makes.

Sphinx makes a new template environment for every build, and jinja2 compiles each page template
(the theme's ``page.html`` and its dozen partials) into Python again for it: about a tenth of a
second a build, which a preview server or the test suite (hundreds of builds in one process) pays
each time. jinja2's own answer is a bytecode cache (:class:`jinja2.BytecodeCache`): this one keeps
the compiled code in memory, by template file and by the settings that shape the compiled code;
jinja2 checks each entry against the template's source (a checksum) before it uses it, so an edited
template is compiled again. Only compiled code is kept, nothing of a build's data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jinja2 import BytecodeCache

if TYPE_CHECKING:
    from jinja2 import Environment
    from jinja2.bccache import Bucket
    from sphinx.application import Sphinx


def _settings(environment: Environment) -> tuple[Any, ...]:
    """What of a template environment shapes the code it compiles."""
    return (type(environment).__qualname__, tuple(sorted(environment.extensions)),
            environment.block_start_string, environment.variable_start_string, environment.comment_start_string,
            environment.line_statement_prefix, environment.line_comment_prefix, environment.trim_blocks,
            environment.lstrip_blocks, environment.newline_sequence, environment.keep_trailing_newline,
            environment.optimized)


class CompiledTemplates(BytecodeCache):
    """Compiled templates in memory, by the environment's settings and the template's file."""

    def __init__(self) -> None:
        self._code: dict[tuple[tuple[Any, ...], str], bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get((_settings(bucket.environment), bucket.key))
        if code is not None:
            bucket.bytecode_from_string(code)  # jinja2 drops it when the source's checksum differs

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[(_settings(bucket.environment), bucket.key)] = bucket.bytecode_to_string()


#: This process's compiled page templates (:class:`CompiledTemplates`).
COMPILED_TEMPLATES = CompiledTemplates()


def share_compiled_templates(app: Sphinx) -> None:
    """Give the build's template environment (HTML builders) this process's compiled templates."""
    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if environment is not None and environment.bytecode_cache is None:
        environment.bytecode_cache = COMPILED_TEMPLATES
