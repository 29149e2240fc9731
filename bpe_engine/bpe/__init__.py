"""Byte-pair encoding: the model (merges and ranks), its encoders, the GPT-2 byte table and the
bridge to tiktoken's fast path."""
