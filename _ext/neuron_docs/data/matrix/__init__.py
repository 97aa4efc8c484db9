"""The support matrices across revisions: what is derived from the valid revisions and what changed between two (layer 3)."""
