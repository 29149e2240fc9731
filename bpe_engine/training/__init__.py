"""Training, by stage: every trainer (BPE, WordPiece, Unigram, and any registered since) yields
numbered steps that say what they changed and why; the runner carries those steps to the app and
the CLI as frozen events. Which trainers there are, and everything the runner, the app and the CLI
need of each, is declared once in :mod:`.registry`."""
