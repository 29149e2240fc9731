"""The shared id rules (bpe_engine.token_ids), the special-text note and the hostile-text helper."""

from __future__ import annotations

import pytest

from bpe_engine.display import visible_text
from bpe_engine.errors import ConfigError, TokenizerFileError
from bpe_engine.token_ids import MAX_TOKEN_ID, check_decode_ids, check_file_id, check_unique
from tests.hostile_text import HOSTILE, assert_inert, assert_literal_markup


@pytest.mark.parametrize(
    ("value", "words"),
    [(-4, "negative"), (10**12, "above the largest id"), ("7", "not an integer"), (True, "not an integer"), (1.0, "not an integer")],
)
def test_file_id_errors_name_file_token_and_id(value: object, words: str) -> None:
    with pytest.raises(TokenizerFileError) as info:
        check_file_id("dir/vocab.json", value, what="token 'a'", line=3)
    message = str(info.value)
    assert message.startswith("dir/vocab.json, line 3: token 'a' has id ") and words in message
    assert "\n" not in message


def test_valid_ids_pass_and_duplicates_are_named() -> None:
    assert check_file_id("f", MAX_TOKEN_ID, what="t") == MAX_TOKEN_ID
    check_unique("f", [("a", 0), ("b", 1)])
    with pytest.raises(TokenizerFileError, match="id 1 is used by token 'a' and by token 'b'"):
        check_unique("f", [("a", 1), ("b", 1)])


def test_decode_ids_refuses_negative_and_out_of_range() -> None:
    check_decode_ids([0, 1, 2], 3, "t")
    with pytest.raises(ConfigError, match="unknown piece"):
        check_decode_ids([0, -1], 3, "t")
    with pytest.raises(ConfigError, match=r"-5 \(position 1\) is negative"):
        check_decode_ids([0, -5], 3, "t")
    with pytest.raises(ConfigError, match=r"3 \(position 0\) is not in tokenizer 't'"):
        check_decode_ids([3], 3, "t")
    with pytest.raises(ConfigError, match="not an integer"):
        check_decode_ids([0, "x"], 3, "t")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_helper_catches_raw_text_and_passes_its_visible_form(name: str) -> None:
    text = HOSTILE[name]
    if name.startswith("markup"):
        with pytest.raises(AssertionError):
            assert_literal_markup("F click me x", text)  # as if the markup had been parsed
        assert_literal_markup(visible_text(text), text)
    else:
        with pytest.raises(AssertionError):
            assert_inert(text)
    assert_inert(visible_text(text))
