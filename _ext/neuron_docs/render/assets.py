"""The extension's static files in HTML builds: table script, stylesheets, favicon.

HTML builders only: ``static/`` is added to ``html_static_path`` once (:func:`add_stylesheet` and
:func:`add_script` are the one way a wing links a file of it), ``neuron-tables.js`` (vanilla, no
network), ``neuron-a11y.js`` (names the theme's landmarks) and ``neuron.css`` are linked from every
page; toctree captions get the heading level the theme leaves out. The script enhances
``table.neuron-sortable`` in place (sort buttons in the headers with ``aria-sort``, a filter box
per table); without it the tables read as they are.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..state.build import is_html

if TYPE_CHECKING:
    from sphinx.application import Sphinx

STATIC = Path(__file__).resolve().parent / "static"
JS_FILE = "neuron-tables.js"
CSS_FILE = "neuron.css"
#: The theme's layout around wide tables (web pages only: not in an ePub).
LAYOUT_CSS_FILE = "neuron-layout.css"
#: Names the theme's landmarks (its sidebars, the page tools): axe-core's landmark-unique and region.
A11Y_JS_FILE = "neuron-a11y.js"
#: A toctree caption is a heading (``role="heading"``) that needs its level (axe: aria-required-attr).
_CAPTION_HEADING = '<p class="caption" role="heading">'
_CONTEXT_HTML = ("body", "furo_navigation_tree", "toc", "sidebar")


def add_static_path(app: Sphinx) -> None:
    if str(STATIC) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC))


def add_stylesheet(app: Sphinx, name: str) -> None:
    """Link the stylesheet ``static/<name>`` from every page of an HTML build."""
    add_static_path(app)
    app.add_css_file(name)


def add_script(app: Sphinx, name: str) -> None:
    """Load the script ``static/<name>`` (deferred) on every page of an HTML build."""
    add_static_path(app)
    app.add_js_file(name, loading_method="defer")


def add_assets(app: Sphinx) -> None:
    if is_html(app):
        add_stylesheet(app, CSS_FILE)
        if app.builder.name != "epub":
            add_stylesheet(app, LAYOUT_CSS_FILE)
        add_script(app, JS_FILE)
        add_script(app, A11Y_JS_FILE)


def captions_as_headings(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: object) -> None:
    """Toctree captions (the page's and the theme's sidebar) as headings with a level."""
    for key in _CONTEXT_HTML:
        html = context.get(key)
        if isinstance(html, str) and _CAPTION_HEADING in html:
            context[key] = html.replace(_CAPTION_HEADING, '<p class="caption" role="heading" aria-level="2">')
