"""Extend as a registered trainer ("BPE from a base"): the Train form's "start from", ``train --model extend``."""
