"""Byte-pair encoding: the model (merges and ranks), its encoders, merge trees and the
bridge to tiktoken's fast path."""
