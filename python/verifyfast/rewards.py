"""Drop-in reward functions for TRL (``GRPOTrainer(reward_funcs=...)``).

:func:`accuracy_reward` and :func:`reasoning_accuracy_reward` have the signatures and the
contracts of ``trl.rewards.accuracy_reward`` and ``trl.rewards.reasoning_accuracy_reward``
(TRL computes them with Math-Verify's ``parse`` + ``verify``): 1.0 when the completion's answer
equals the solution, 0.0 when it does not, ``None`` when the solution's answer cannot be read
(TRL then leaves the example out), and the same three ``log_extra`` columns. They grade with
:func:`verifyfast.grade_many` under the ``reward`` preset: no signals, so no "signal only works
in main thread" in async trainers and thread pools, no timeouts to switch off, and none of the
answers a policy learns to game is paid (python/README.md, "What the reward preset refuses").

.. code-block:: python

    from trl import GRPOTrainer
    from verifyfast.rewards import accuracy_reward

    trainer = GRPOTrainer(model=..., reward_funcs=accuracy_reward, train_dataset=dataset)
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from . import PatternsLike, Verdict, grade_many
from ._scoring import DEFAULT_PRESET, Settings, text_of

__all__ = ["AccuracyReward", "accuracy_reward", "completion_text", "reasoning_accuracy_reward"]

#: A completion as TRL passes it: a plain string (standard datasets) or a list of messages
#: (conversational datasets: ``[{"role": "assistant", "content": "..."}]``).
Completion = Union[str, Sequence[Dict[str, Any]]]


def completion_text(completion: Completion) -> str:
    """The text of a completion, as TRL reads it.

    A string is itself; a conversational completion is a list of message dicts whose first
    message's ``content`` is the text (TRL's ``completion[0]["content"]``). A ``content``
    given as a list of parts (``[{"type": "text", "text": ...}]``) is the text parts joined.
    """
    if completion is None:
        return ""
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
    """:func:`accuracy_reward` with settings of your choice, checked when it is made.

    Args:
        preset: ``"reward"`` (default), ``"lenient"`` or ``"strict"``.
        answer_patterns: answer regexes tried first (``["NAME=REGEX", ...]``, a mapping, or
            :class:`verifyfast.AnswerPatterns`).
        answer_format: ``"boxed"``, ``"answer_tag"`` or a regular expression the completion
            must contain; without it the reward is 0.0 and ``answer_parsed`` says why.
        low_confidence: ``"keep"`` (default) or ``"zero"`` (an answer the extractor doubts
            earns 0.0).
        reasoning_delimiters: when given (a list of strings), only the text after the last
            occurrence of the first delimiter found is graded, and a completion without any
            scores 0.0 (TRL's ``reasoning_accuracy_reward``).
        log_details: also log the columns ``verdict_reason`` and ``low_confidence``.
        name: the name TRL logs the reward under.

    Picklable (TRL's asynchronous GRPO sends reward functions to a spawned process).

    >>> strict_accuracy = AccuracyReward(preset="strict", name="strict_accuracy")
    """

    def __init__(
        self,
        preset: str = DEFAULT_PRESET,
        answer_patterns: Optional[PatternsLike] = None,
        name: str = "accuracy_reward",
        *,
        answer_format: Optional[str] = None,
        low_confidence: str = "keep",
        reasoning_delimiters: Optional[Sequence[str]] = None,
        log_details: bool = False,
    ) -> None:
        self.settings = Settings.make(preset, answer_patterns, answer_format, low_confidence)
        if reasoning_delimiters is not None and (
            isinstance(reasoning_delimiters, str) or not all(isinstance(d, str) and d for d in reasoning_delimiters)
        ):
            raise TypeError("reasoning_delimiters must be a list of non-empty strings")
        self.reasoning_delimiters = None if reasoning_delimiters is None else list(reasoning_delimiters)
        self.log_details = bool(log_details)
        self.__name__ = name

    @property
    def preset(self) -> str:
        return self.settings.preset

    def __call__(
        self,
        completions: Sequence[Completion],
        solution: Sequence[Any],
        log_extra: Optional[Callable[[str, list], None]] = None,
        **kwargs: Any,
    ) -> List[Optional[float]]:
        return _accuracy(completions, solution, log_extra, kwargs, self.settings, self.reasoning_delimiters, self.log_details)

    def __repr__(self) -> str:
        s = self.settings
        return (
            f"AccuracyReward(preset={s.preset!r}, answer_patterns={s.answer_patterns!r}, name={self.__name__!r}, "
            f"answer_format={s.answer_format!r}, low_confidence={s.low_confidence!r}, "
            f"reasoning_delimiters={self.reasoning_delimiters!r})"
        )


def _questions(kwargs: Dict[str, Any], n: int) -> Optional[List[Optional[str]]]:
    """The question of each example, from a dataset column TRL passes as a keyword: ``question``,
    else ``problem`` (MATH-style datasets). It lets the grader see a restated question and the
    percent policy."""
    for column in ("question", "problem"):
        values = kwargs.get(column)
        if isinstance(values, (list, tuple)) and len(values) == n:
            return [q if isinstance(q, str) else None for q in values]
    return None


def _parsed(answer: Optional[str]) -> str:
    # TRL logs `str()` of Math-Verify's parse result, a list; ours is the list of the one
    # normalised answer, so the column holds strings of one shape.
    return str([answer])


def _accuracy(
    completions: Sequence[Completion],
    solution: Sequence[Any],
    log_extra: Optional[Callable[[str, list], None]],
    kwargs: Dict[str, Any],
    settings: Settings,
    reasoning_delimiters: Optional[List[str]] = None,
    log_details: bool = False,
) -> List[Optional[float]]:
    contents = [completion_text(c) for c in completions]
    solutions = list(solution)
    if len(contents) != len(solutions):
        # TRL zips with strict=True.
        raise ValueError(f"completions and solution differ in length: {len(contents)} vs {len(solutions)}")
    n = len(contents)
    questions = _questions(kwargs, n)
    rewards: List[Optional[float]] = [None] * n
    gold_col: List[str] = ["[unparseable]"] * n
    answer_col: List[str] = ["[skipped]"] * n
    reasons: List[str] = [""] * n
    lows: List[Optional[bool]] = [None] * n
    todo: List[int] = []
    for i, text in enumerate(contents):
        if reasoning_delimiters is not None:
            for delim in reasoning_delimiters:
                if delim in text:
                    text = text.split(delim)[-1]
                    break
            else:
                # TRL: no delimiter means the reasoning never ended; 0.0, not None, so that a
                # policy cannot escape the penalty by never closing its thought.
                rewards[i] = 0.0
                gold_col[i] = answer_col[i] = reasons[i] = "[incomplete reasoning]"
                continue
            contents[i] = text
        s = solutions[i]
        if s is None or isinstance(s, bool) or not isinstance(s, (str, int, float)):
            # No solution to read (TRL's `parse` finds nothing): skipped, never compared with
            # its `str()` ("None" would pay "The answer is None").
            reasons[i] = "no ground truth"
            continue
        todo.append(i)
    verdicts: List[Verdict] = grade_many(
        [contents[i] for i in todo],
        [solutions[i] for i in todo],
        questions=None if questions is None else [questions[i] for i in todo],
        preset=settings.preset,
        answer_patterns=settings.answer_patterns,
    )
    for i, v in zip(todo, verdicts):
        reasons[i], lows[i] = v.reason, v.low_confidence
        if v.gold is None:
            # The solution's answer cannot be read: TRL skips the example.
            continue
        gold_col[i] = _parsed(v.gold)
        score, why = settings.score(contents[i], v)
        # Only an equal verdict earns the reward. "Could not decide" is 0.0, not None: a policy
        # must not escape the penalty by writing answers nobody can compare.
        rewards[i] = score
        if why is not None:
            answer_col[i] = f"[{why}]"
            reasons[i] = why
        else:
            answer_col[i] = _parsed(v.predicted) if v.predicted is not None else "[unparseable]"
    if log_extra is not None:
        log_extra("solution", solutions)
        log_extra("gold_parsed", gold_col)
        log_extra("answer_parsed", answer_col)
        if log_details:
            log_extra("verdict_reason", reasons)
            log_extra("low_confidence", lows)
    return rewards


def accuracy_reward(
    completions: Sequence[Completion],
    solution: Sequence[Any],
    log_extra: Optional[Callable[[str, list], None]] = None,
    **kwargs: Any,
) -> List[Optional[float]]:
    r"""Reward 1.0 when a completion's final answer equals the solution's, else 0.0.

    ``trl.rewards.accuracy_reward``'s signature and contract, graded by VerifyFast under the
    ``reward`` preset:

    - the solution's answer cannot be read, or the solution is ``None`` -> ``None`` (TRL
      skips the example);
    - equal -> ``1.0``; different, no answer in the completion, could not decide, or an answer
      the reward preset refuses (several different final answers, a negated statement, a
      cut-off list marker, a rounded answer for an exact gold, the question restated) -> ``0.0``.

    Args:
        completions: plain strings, or conversational completions
            (``[{"role": "assistant", "content": "..."}]``; the first message's content).
        solution: the ground truths (an answer or a full solution each).
        log_extra: TRL's logger of extra completion-table columns (``solution``,
            ``gold_parsed``, ``answer_parsed``, as TRL logs them), given by the trainer.
        **kwargs: the other dataset columns; a ``question`` (or ``problem``) column, when
            present, is passed to the grader (a restated question is no answer; it decides the
            percent policy). The rest are ignored.

    >>> accuracy_reward([[{"role": "assistant", "content": r"My answer is oxed{rac{1}{3}}"}],
    ...                  [{"role": "assistant", "content": r"My answer is oxed{rac{1}{2}}"}]],
    ...                 [r"rac{1}{3}", r"rac{1}{3}"])
    [1.0, 0.0]
    """
    return _accuracy(completions, solution, log_extra, kwargs, _DEFAULT)


def reasoning_accuracy_reward(
    completions: Sequence[Completion],
    solution: Sequence[Any],
    reasoning_delimiters: Optional[List[str]] = None,
    log_extra: Optional[Callable[[str, list], None]] = None,
    **kwargs: Any,
) -> List[Optional[float]]:
    r""":func:`accuracy_reward` on the answer after the reasoning block only.

    ``trl.rewards.reasoning_accuracy_reward``'s signature and contract: the text after the last
    occurrence of the first of ``reasoning_delimiters`` (default ``["</think>"]``) found in the
    completion is graded; a completion with none of them scores ``0.0`` (the reasoning never
    ended) and logs ``[incomplete reasoning]``; otherwise as :func:`accuracy_reward`.

    >>> reasoning_accuracy_reward(
    ...     ["<think> maybe \boxed{1/2} </think> The final answer is \boxed{1/3}",
    ...      "<think> partial \boxed{1/3} but no end"],
    ...     ["1/3", "1/3"])
    [1.0, 0.0]
    """
    delimiters = ["</think>"] if reasoning_delimiters is None else list(reasoning_delimiters)
    return _accuracy(completions, solution, log_extra, kwargs, _DEFAULT, delimiters)


_DEFAULT = Settings.make()
