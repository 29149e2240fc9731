"""The bpe-explorer terminal app (Textual). All tokenizer logic lives in ``bpe_engine``."""
