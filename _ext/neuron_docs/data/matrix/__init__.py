"""The support matrices across revisions: the history derived from valid revisions and what changed between two (layer 3)."""
