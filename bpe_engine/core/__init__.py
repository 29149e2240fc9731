"""The engine's bottom layer: base values that several stages share, so no stage imports another
for them.

A type lives in the lowest layer that uses it. A merge tree (:mod:`.merge_node`) is built by the BPE
model, SentencePiece and Hugging Face pipelines and drawn by Inspect and the step detail; a text's
character/byte index (:mod:`.text_index`) is used by the tokenizers that report offsets and by
Inspect and Compare; the checked JSON reading of tokenizer files (:mod:`.json_files`) by every file
loader, through the one reader of every user file (:mod:`.text_files`); a text held in blocks
(:mod:`.block_text`) by the corpus, the reader and the runner; the NFC stage (:mod:`.normalizer`) by
the BPE model and the corpus counter; GPT-2's byte alphabet (:mod:`.byte_table`) by the corpus counter, the trainers, the file
formats, the HF stages and the catalog. Modules here import nothing of the engine but its top-level
leaf modules (``errors``, ``types``, ...), which form the bottom layer with them: ``lint-imports``
(the ``[tool.importlinter]`` contracts in pyproject.toml) keeps it so.
"""
