"""Training, by stage: every trainer (BPE, WordPiece, Unigram) yields numbered steps that say what
they changed and why; the runner carries those steps to the app and the CLI as frozen events."""
