"""Generated content rendered when a page is written, not when it is read.

A directive that renders a large piece of data (a support matrix, a benchmark table, a chart)
registers its objects and checks its options while the page is read, and leaves in the doctree a
light :class:`~.placeholder.deferred` node naming a renderer and its parameters
(:mod:`.placeholder`). The page's doctree stays small: no transform walks the generated nodes, no
pickle holds them. When the page is written, :mod:`.expand` calls the renderer with the data of
that build: the nodes it returns go through the same writer as the rest of the page, for every
builder (HTML, text, LaTeX, linkcheck...).

What each placeholder shows is recorded as the page is read (:func:`neuron_docs.state.dependencies.shows`),
so a change to those records rewrites the page without reading it again.
"""
