"""How a verdict becomes a reward: the settings both trainers' functions share (TRL's
:mod:`verifyfast.rewards`, verl's :mod:`verifyfast.verl`), checked once when they are made.

- ``preset``: the grader's preset (``"reward"`` by default: see python/README.md, "What the
  reward preset refuses").
- ``answer_format``: ``None``, ``"boxed"`` (the answer must be read from a ``\\boxed{}``),
  ``"answer_tag"`` (from ``<answer>…</answer>``) or a regular expression the completion must
  contain (Python's ``re.search``); without it the reward is 0.0 and the reason is logged.
- ``low_confidence``: ``"keep"`` (default: the verdict decides; the flag is reported) or
  ``"zero"`` (an answer the extractor doubts earns nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional, Pattern

from . import PRESETS, AnswerPatterns, PatternsLike, Verdict

#: The default preset of the reward functions.
DEFAULT_PRESET = "reward"

#: ``answer_format`` names and the extraction rule (``Verdict.predicted_method``) each requires.
FORMATS = {"boxed": "boxed", "answer_tag": "answer_tag"}

LOW_CONFIDENCE = ("keep", "zero")


@dataclass(frozen=True)
class Settings:
    """Checked settings of a reward function (a bad one raises when it is built)."""

    preset: str
    answer_patterns: Optional[AnswerPatterns]
    answer_format: Optional[str]
    low_confidence: str
    regex: Optional[Pattern[str]]

    @staticmethod
    def make(
        preset: str = DEFAULT_PRESET,
        answer_patterns: Optional[PatternsLike] = None,
        answer_format: Optional[str] = None,
        low_confidence: str = "keep",
    ) -> "Settings":
        if not isinstance(preset, str) or preset not in PRESETS:
            raise ValueError(f"invalid value {preset!r} for preset [possible values: {', '.join(PRESETS)}]")
        if answer_patterns is not None and not isinstance(answer_patterns, AnswerPatterns):
            # Read as `grade` reads it: one string alone is refused (TypeError), not split.
            answer_patterns = AnswerPatterns(answer_patterns)
        regex = None
        if answer_format is not None:
            if not isinstance(answer_format, str) or not answer_format:
                raise ValueError('answer_format must be "boxed", "answer_tag" or a regular expression')
            if answer_format not in FORMATS:
                try:
                    regex = re.compile(answer_format)
                except re.error as e:
                    raise ValueError(f"answer_format {answer_format!r} is not a regular expression: {e}") from None
        if low_confidence not in LOW_CONFIDENCE:
            raise ValueError(f"low_confidence must be one of {', '.join(LOW_CONFIDENCE)}, not {low_confidence!r}")
        return Settings(preset, answer_patterns, answer_format, low_confidence, regex)

    def missing_format(self, text: str, v: Verdict) -> Optional[str]:
        """Why the completion lacks the required format (``None``: it has it, or none is required)."""
        if self.answer_format is None:
            return None
        if self.regex is not None:
            return None if self.regex.search(text) else f"format not matched: {self.answer_format}"
        if v.predicted_method == FORMATS[self.answer_format]:
            return None
        return "no \\boxed{} answer" if self.answer_format == "boxed" else "no <answer> tag answer"

    def score(self, text: str, v: Verdict) -> "tuple[float, Optional[str]]":
        """1.0 or 0.0 for a verdict whose gold was read, and the reason when a rule of these
        settings (not the comparison) made it 0.0."""
        missing = self.missing_format(text, v)
        if missing is not None:
            return 0.0, missing
        if self.low_confidence == "zero" and v.low_confidence:
            return 0.0, "low confidence"
        return (1.0 if v.equivalent is True else 0.0), None


def text_of(value: Any) -> str:
    """A completion or response as text: ``None`` is the empty text (no answer)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)
