"""Derived figures: prices with their basis, runs and their costs, every addressable value, expressions, and how figures are written (layer 6)."""
