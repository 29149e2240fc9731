"""The headless command line of bpe-explorer: train, encode, decode, merges, compare, inspect.

With no sub-command it opens the Textual app on the built-in sample corpus.
"""
