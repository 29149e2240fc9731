"""Numbers people judge tokenizers by (placeholder, filled below)."""
