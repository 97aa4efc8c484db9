"""Reading data files: bytes and text within bounds, strict YAML and CSV, every value with its line (layer 1 of ``data/``)."""
