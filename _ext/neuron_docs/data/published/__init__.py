"""The benchmark tables the Neuron documentation publishes: their column names, reading one CSV, importing into ``data/`` and exporting back (layer 7)."""
