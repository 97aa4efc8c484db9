"""The records of ``data/``: field types, record models (the data files, the published tables, the matrix revisions) and the words for their codes (layer 2)."""
