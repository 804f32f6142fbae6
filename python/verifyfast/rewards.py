"""Drop-in reward functions for TRL (``GRPOTrainer(reward_funcs=...)``).

:func:`accuracy_reward` has the signature and the semantics of ``trl.rewards.accuracy_reward``
(TRL computes it with Math-Verify's ``parse`` + ``verify``): 1.0 when the completion's answer
equals the solution, 0.0 when it does not, ``None`` when the solution's answer cannot be read
(TRL then leaves the example out). It grades with :func:`verifyfast.grade_many`: no signals,
so no "signal only works in main thread" in async trainers and thread pools, and no timeouts
to switch off.

.. code-block:: python

    from trl import GRPOTrainer
    from verifyfast.rewards import accuracy_reward

    trainer = GRPOTrainer(model=..., reward_funcs=accuracy_reward, train_dataset=dataset)
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from . import AnswerPatterns, PatternsLike, grade_many

__all__ = ["AccuracyReward", "accuracy_reward", "completion_text"]

#: A completion as TRL passes it: a plain string (standard datasets) or a list of messages
#: (conversational datasets: ``[{"role": "assistant", "content": "..."}]``).
Completion = Union[str, Sequence[Dict[str, Any]]]


def completion_text(completion: Completion) -> str:
    """The text of a completion, as TRL reads it.

    A string is itself; a conversational completion is a list of message dicts whose first
    message's ``content`` is the text (TRL's ``completion[0]["content"]``). A ``content``
    given as a list of parts (``[{"type": "text", "text": ...}]``) is the text parts joined.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        message: Any = completion
    else:
        if len(completion) == 0:
            return ""
        message = completion[0]
    content = message.get("content", "") if isinstance(message, dict) else message
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join(
            str(part.get("text", "")) for part in content if isinstance(part, dict) and part.get("type", "text") == "text"
        )
    raise TypeError(f"a completion's content must be a str, not {type(content).__name__}")


class AccuracyReward:
    """:func:`accuracy_reward` with a preset and answer patterns of your choice.

    Picklable (TRL's asynchronous GRPO sends reward functions to a spawned process), and named
    ``accuracy_reward`` in TRL's logs unless ``name`` says otherwise.

    >>> strict_accuracy = AccuracyReward(preset="strict", name="strict_accuracy")
    """

    def __init__(
        self,
        preset: str = "lenient",
        answer_patterns: Optional[PatternsLike] = None,
        name: str = "accuracy_reward",
    ) -> None:
        self.preset = preset
        self.answer_patterns = (
            answer_patterns
            if answer_patterns is None or isinstance(answer_patterns, AnswerPatterns)
            else AnswerPatterns(answer_patterns)
        )
        self.__name__ = name

    def __call__(
        self,
        completions: Sequence[Completion],
        solution: Sequence[Any],
        log_extra: Optional[Callable[[str, list], None]] = None,
        **kwargs: Any,
    ) -> List[Optional[float]]:
        return _accuracy(completions, solution, log_extra, kwargs, self.preset, self.answer_patterns)

    def __repr__(self) -> str:
        return f"AccuracyReward(preset={self.preset!r}, answer_patterns={self.answer_patterns!r}, name={self.__name__!r})"


def _accuracy(
    completions: Sequence[Completion],
    solution: Sequence[Any],
    log_extra: Optional[Callable[[str, list], None]],
    kwargs: Dict[str, Any],
    preset: str,
    answer_patterns: Optional[AnswerPatterns],
) -> List[Optional[float]]:
    contents = [completion_text(c) for c in completions]
    solutions = list(solution)
    if len(contents) != len(solutions):
        # TRL zips with strict=True.
        raise ValueError(f"completions and solution differ in length: {len(contents)} vs {len(solutions)}")
    # A dataset column named `question` (TRL passes every column as a keyword) decides the
    # percent policy, as in `verifyfast grade`.
    questions = kwargs.get("question")
    if not (isinstance(questions, (list, tuple)) and len(questions) == len(contents)):
        questions = None
    else:
        questions = [q if isinstance(q, str) else None for q in questions]
    verdicts = grade_many(
        contents,
        [s if isinstance(s, (str, int, float)) and not isinstance(s, bool) else str(s) for s in solutions],
        questions=questions,
        preset=preset,
        answer_patterns=answer_patterns,
    )
    rewards: List[Optional[float]] = []
    for v in verdicts:
        if v.gold is None:
            # The solution's answer cannot be read: TRL skips the example.
            rewards.append(None)
        else:
            # Only an equal verdict earns the reward. "Could not decide" is 0.0, not None: a
            # policy must not escape the penalty by writing answers nobody can compare.
            rewards.append(1.0 if v.equivalent is True else 0.0)
    if log_extra is not None:
        log_extra("solution", solutions)
        log_extra("gold_parsed", [v.gold if v.gold is not None else "[unparseable]" for v in verdicts])
        log_extra(
            "answer_parsed",
            [
                "[skipped]" if v.gold is None else (v.predicted if v.predicted is not None else "[unparseable]")
                for v in verdicts
            ],
        )
    return rewards


def accuracy_reward(
    completions: Sequence[Completion],
    solution: Sequence[Any],
    log_extra: Optional[Callable[[str, list], None]] = None,
    **kwargs: Any,
) -> List[Optional[float]]:
    r"""Reward 1.0 when a completion's final answer equals the solution's, else 0.0.

    ``trl.rewards.accuracy_reward``'s signature and semantics, graded by VerifyFast
    (lenient preset):

    - the solution's answer cannot be read -> ``None`` (TRL skips the example);
    - equal -> ``1.0``; different, no answer in the completion, or could not decide -> ``0.0``.

    Args:
        completions: plain strings, or conversational completions
            (``[{"role": "assistant", "content": "..."}]``; the first message's content).
        solution: the ground truths (an answer or a full solution each).
        log_extra: TRL's logger of extra completion-table columns (``solution``,
            ``gold_parsed``, ``answer_parsed``), given by the trainer.
        **kwargs: the other dataset columns; a ``question`` column, when present, is passed
            to the grader (it decides the percent policy). The rest are ignored.

    >>> accuracy_reward([[{"role": "assistant", "content": r"My answer is \boxed{\frac{1}{3}}"}],
    ...                  [{"role": "assistant", "content": r"My answer is \boxed{\frac{1}{2}}"}]],
    ...                 [r"\frac{1}{3}", r"\frac{1}{3}"])
    [1.0, 0.0]
    """
    return _accuracy(completions, solution, log_extra, kwargs, "lenient", None)
