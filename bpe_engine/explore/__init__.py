"""Exploring a training run: the corpus segmented at any step (the stepper), and how a token was
derived."""
