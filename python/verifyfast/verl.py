"""The reward function for verl's ``custom_reward_function`` hook.

verl loads a reward function from a file (``custom_reward_function.path``) by its name
(``custom_reward_function.name``, default ``compute_score``) and calls it once per response:
``compute_score(data_source, solution_str, ground_truth, extra_info=None, **reward_kwargs)``.
Point it at a file that imports this one (python/examples/verl_reward.py):

.. code-block:: python

    from verifyfast.verl import compute_score  # noqa: F401

.. code-block:: bash

    python -m verl.trainer.main_ppo ... \\
        custom_reward_function.path=examples/verl_reward.py \\
        custom_reward_function.name=compute_score
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Optional, Tuple

from . import AnswerPatterns, grade

__all__ = ["compute_score"]


def _key(patterns: Any) -> Tuple[Any, ...]:
    if isinstance(patterns, Mapping):
        return tuple((str(k), str(v)) for k, v in patterns.items())
    if isinstance(patterns, str):
        return (patterns,)
    return tuple(p if isinstance(p, str) else tuple(p) for p in patterns)


@lru_cache(maxsize=16)
def _compiled(key: Tuple[Any, ...]) -> AnswerPatterns:
    # verl calls once per response with the same reward_kwargs: compile them once, not per call.
    return AnswerPatterns(list(key))


def compute_score(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Optional[dict] = None,
    **kwargs: Any,
) -> float:
    """1.0 when ``solution_str``'s final answer equals ``ground_truth``, else 0.0.

    Args:
        data_source: the dataset's name (verl passes it; every source is graded alike).
        solution_str: the decoded response.
        ground_truth: the gold answer or solution (a str or a number).
        extra_info: verl's per-example dict; its ``question``, when a str, is passed to the
            grader (it decides the percent policy).
        **kwargs: ``custom_reward_function.reward_kwargs``: ``preset`` (``"lenient"`` or
            ``"strict"``) and ``answer_patterns`` (``["NAME=REGEX", ...]``) are used, the rest
            ignored.

    A ground truth whose answer cannot be read, no answer in the response, and "could not
    decide" all score 0.0 (verl needs a number for every response).

    >>> compute_score("openai/gsm8k", "So the total is 18. #### 18", "18")
    1.0
    """
    question = extra_info.get("question") if isinstance(extra_info, dict) else None
    preset = kwargs.get("preset", "lenient")
    patterns = kwargs.get("answer_patterns")
    if patterns is not None and not isinstance(patterns, AnswerPatterns):
        patterns = _compiled(_key(patterns))
    if not isinstance(ground_truth, (str, int, float)) or isinstance(ground_truth, bool):
        ground_truth = str(ground_truth)
    v = grade(
        solution_str if isinstance(solution_str, str) else str(solution_str),
        ground_truth,
        question=question if isinstance(question, str) else None,
        preset=preset,
        answer_patterns=patterns,
    )
    return 1.0 if v.equivalent is True else 0.0
