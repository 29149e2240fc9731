"""Counting a conversation as the model sees it: OpenAI-style messages (:mod:`.messages`), each
model's chat format (:mod:`.formats`: exact where the model's own code ships, documented
conventions otherwise), and the prompt they build, token by token (:mod:`.prompt`)."""

from .formats import FORMATS, ChatFormat, Segment, chat_format
from .messages import ChatError, Message, conversation_of_text, messages_of, parse_messages, read_messages
from .prompt import ChatPrompt, chat_prompt, format_for, token_labels

__all__ = [
    "FORMATS",
    "ChatError",
    "ChatFormat",
    "ChatPrompt",
    "Message",
    "Segment",
    "chat_format",
    "chat_prompt",
    "conversation_of_text",
    "format_for",
    "messages_of",
    "parse_messages",
    "read_messages",
    "token_labels",
]
