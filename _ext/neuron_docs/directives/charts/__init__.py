"""Charts: the chart model built from the data (:mod:`.model`; of the published performance tables:
:mod:`.published`), its SVG (:mod:`.svg`, no Sphinx), and the ``neuron:chart`` directive (:mod:`.directive`)."""
