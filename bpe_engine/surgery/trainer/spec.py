"""The "BPE from a base" registration: start from a real tokenizer and learn N more merges.

Its options are BPE's that still mean something when the base decides how words are cut (min
frequency, tie-break, max length), plus the base and the number of merges to add. The base's
choices are the BPE built-ins a picker offers (the form's "start from"); ``train --model extend
--base PATH`` takes any path as well. Its steps are BPE's ``merge`` steps.
"""

from __future__ import annotations

from dataclasses import replace

from ...choices import Choice
from ...training.bpe.spec import BPE_OPTIONS
from ...training.front_options import VOCAB
from ...training.merge_kinds import MERGE
from ...training.registry import Option, Ref, TrainerSpec

BASES: tuple[Choice[str], ...] = tuple(
    Choice(name, name, what)
    for name, what in (
        ("gpt2", "GPT-2 (r50k), tiktoken ranks"),
        ("p50k_base", "GPT-3 codex, tiktoken ranks"),
        ("cl100k_base", "GPT-3.5/4, tiktoken ranks"),
        ("o200k_base", "GPT-4o, tiktoken ranks"),
        ("llama3", "Llama 3 (models fetch first)"),
        ("llama4", "Llama 4 (models fetch first)"),
        ("qwen2.5", "Qwen 2.5, NFC first (models fetch first)"),
        ("qwen3.6", "Qwen 3.5/3.6, NFC first (models fetch first)"),
        ("tekken", "Mistral Tekken (models fetch first)"),
    )
)
"""The BPE tokenizers the picker offers that surgery can start from (SentencePiece BPE and HF
pipelines are refused with the reason)."""

_SHARED = {"minfreq", "tiebreak", "maxlen"}

SPEC = TrainerSpec(
    name="extend",
    label="BPE from a base",
    summary="start from a real tokenizer (cl100k, Llama 3 ...): its merges first, then N new ones learnt here",
    config=Ref("bpe_engine.surgery.trainer.config", "ExtendTrainerConfig"),
    hooks=Ref("bpe_engine.surgery.trainer.hooks", ""),
    options=(
        Option("base", "base", "select", "base", "the tokenizer whose merges come first (its ids are kept)",
               flag="--base", choices=BASES, default="cl100k_base"),
        Option("add", "add", "int", "add", "how many merges to learn on top of the base's", flag="--add", default="1000", metavar="N"),
        # train's --vocab-size: the total after the extension when --add is not given (not on the form: "add" says it)
        replace(VOCAB, form=False, help="ids in use after the extension (the base's plus the new ones), unless --add is given"),
        *(o for o in BPE_OPTIONS if o.name in _SHARED),
    ),
    step_kinds=(MERGE,),
    reads="counts",
    start_label="the base's merges, as one block",
    cli_notes=("--model extend: --vocab-size is the total after the extension unless --add is given; the base cuts the words",),
)
