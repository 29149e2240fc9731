"""A text of any size through a tokenizer in bounded memory: read in blocks cut where no token crosses.

- :mod:`.encode_stream` -- where a tokenizer may be cut, the blocks of a stream, and encoding one
  block (the CLI's streamed ``encode``);
- :mod:`.chunking` -- cutting a text into chunks of at most N tokens at token boundaries (the
  ``chunk`` command).

Import the modules themselves; the package re-exports nothing.
"""
