"""Tests that drive headless Chromium against the built site (marker ``browser``)."""
