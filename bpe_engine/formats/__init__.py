"""Tokenizer files: GPT-2 vocab.json + merges.txt, tiktoken ``.tiktoken``, Hugging Face tokenizer.json.

Each loader returns plain data (a :class:`BpeSpec`, a rank table) and raises
:class:`~bpe_engine.errors.TokenizerFileError` naming the file and line for any malformed input;
each saver writes atomically. :func:`save_tokenizer` writes all formats a model fits into one
directory, and :func:`load_saved` reads such a directory back (a SentencePiece Unigram directory:
:func:`save_unigram_dir` / :func:`load_unigram_dir`). Loading by name or path (reference
tokenizers included) is :func:`bpe_engine.registry.load_tokenizer`.
"""

from __future__ import annotations

from .bundle import (
    load_merge_counts,
    load_saved,
    save_spec,
    save_tokenizer,
    skipped_formats,
    tiktoken_ranks,
)
from .gpt2_files import (
    load_gpt2_files,
    read_merges_txt,
    read_vocab_json,
    write_merges_txt,
    write_vocab_json,
)
from .hf_json import hf_json_dict, read_hf_json, write_hf_json
from .saved_dir import FORMAT_VERSION, METADATA_FILE
from .spec import BpeSpec, spec_from_tokenizer
from .tiktoken_files import read_tiktoken, write_tiktoken
from .unigram_dir import load_unigram_dir, save_unigram_dir

__all__ = [
    "FORMAT_VERSION",
    "METADATA_FILE",
    "BpeSpec",
    "hf_json_dict",
    "load_gpt2_files",
    "load_merge_counts",
    "load_saved",
    "load_unigram_dir",
    "read_hf_json",
    "read_merges_txt",
    "read_tiktoken",
    "read_vocab_json",
    "save_spec",
    "save_tokenizer",
    "save_unigram_dir",
    "skipped_formats",
    "spec_from_tokenizer",
    "tiktoken_ranks",
    "write_hf_json",
    "write_merges_txt",
    "write_tiktoken",
    "write_vocab_json",
]
