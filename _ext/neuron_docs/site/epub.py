"""What an ePub needs beyond the HTML pages: XHTML that is well-formed XML.

An ePub's pages are XHTML, read by an XML parser: sphinx-design writes each tab's radio button as
an HTML void element (``<input ...>``, never closed), which makes every page with tabs unreadable
(``Opening and ending tag mismatch``). For the ePub builders the button is written closed
(``<input ... />``), the same element otherwise. (Downloads are linked to the published site:
:mod:`.downloads.links`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator


def _visit_tab_input(self: HTML5Translator, node: Any) -> None:
    attributes = {"ids": [node["id"]], "type": node["type"], "name": node["set_id"]}
    if node["checked"]:
        attributes["checked"] = "checked"
    self.body.append(self.emptytag(node, "input", **attributes))


def _depart_nothing(self: HTML5Translator, node: Any) -> None:
    """A void element has no end tag."""


def close_tab_inputs(app: Sphinx) -> None:
    if "sphinx_design" not in app.extensions or not app.builder.name.startswith("epub"):
        return
    from sphinx_design.tabs import sd_tab_input

    # Under "html": the translator takes the handlers of the builder's name (epub) *instead of* its format's.
    app.add_node(sd_tab_input, override=True, html=(_visit_tab_input, _depart_nothing))
