"""Charts: the chart model built from the data (:mod:`.model`), its SVG (:mod:`.svg`, no Sphinx),
and the ``neuron:chart`` directive (:mod:`.directive`)."""
