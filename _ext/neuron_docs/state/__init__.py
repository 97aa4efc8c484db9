"""What one build holds: its per-build state, the ``neuron`` domain, the data each page reads and shows, and the preview's change model."""
