"""The reward function for verl's ``custom_reward_function`` hook.

verl loads a reward function from a file (``custom_reward_function.path``) by its name
(``custom_reward_function.name``, default ``compute_score``) and calls it as its reward
manager does:

- ``naive``, ``prime``, ``dapo``: once per response,
  ``compute_score(data_source=, solution_str=, ground_truth=, extra_info=, **reward_kwargs)``;
- ``batch``: once per batch,
  ``compute_score(data_sources=, solution_strs=, ground_truths=, extra_infos=, **reward_kwargs)``,
  graded in parallel through :func:`verifyfast.grade_many`.

:func:`compute_score` answers both. Point verl at a file that builds it with your settings
(python/examples/verl_reward.py), so that a bad setting stops the run when verl loads the file,
not at every call:

.. code-block:: python

    from verifyfast.verl import make_compute_score

    compute_score = make_compute_score(preset="reward", result="dict")

.. code-block:: bash

    python -m verl.trainer.main_ppo ... \\
        custom_reward_function.path=examples/verl_reward.py \\
        custom_reward_function.name=compute_score

Settings (arguments of :func:`make_compute_score`, or ``custom_reward_function.reward_kwargs``):
``preset`` (``"reward"`` by default), ``answer_patterns``, ``answer_format`` and
``low_confidence`` (as :class:`verifyfast.rewards.AccuracyReward`), ``result`` (``"float"``, or
``"dict"``: ``{"score", "acc", "pred"}`` as verl's ``math_dapo`` returns, so the reward manager
logs ``acc`` and ``pred``) and ``scale`` (``"unit"``: 1.0 / 0.0, or ``"signed"``: 1.0 / -1.0).
A ground truth may be a str or a number, or several accepted answers: a list, a tuple, a numpy
array, or ``{"target": [...]}`` (any of them is right).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import grade_many
from ._scoring import DEFAULT_PRESET, Settings, text_of

__all__ = ["VerlReward", "compute_score", "make_compute_score"]

RESULTS = ("float", "dict")
SCALES = {"unit": (1.0, 0.0), "signed": (1.0, -1.0)}
#: ``pred`` of a response in which no answer was found (verl's ``math_dapo`` logs "[INVALID]").
NO_ANSWER = "[INVALID]"

Score = Union[float, Dict[str, Any]]


def _golds(ground_truth: Any) -> List[Union[str, int, float]]:
    """The accepted answers of one ground truth (any of them is right)."""
    if isinstance(ground_truth, Mapping):
        ground_truth = ground_truth.get("target", ground_truth.get("ground_truth"))
    if ground_truth is None:
        return []
    if isinstance(ground_truth, bool):
        return [str(ground_truth)]
    if isinstance(ground_truth, (str, int, float)):
        return [ground_truth]
    if hasattr(ground_truth, "tolist"):  # a numpy array or scalar
        ground_truth = ground_truth.tolist()
        if not isinstance(ground_truth, list):
            return _golds(ground_truth)
    if isinstance(ground_truth, (list, tuple)):
        out: List[Union[str, int, float]] = []
        for g in ground_truth:
            out.extend(_golds(g))
        return out
    return [str(ground_truth)]


class VerlReward:
    """A verl reward function with its settings checked once, when it is made (see the module
    docs); calling it with ``reward_kwargs`` of its own overrides them (checked once per
    distinct setting, then cached)."""

    def __init__(
        self,
        preset: str = DEFAULT_PRESET,
        answer_patterns: Any = None,
        answer_format: Optional[str] = None,
        low_confidence: str = "keep",
        result: str = "float",
        scale: str = "unit",
    ) -> None:
        self.settings = Settings.make(preset, answer_patterns, answer_format, low_confidence)
        if result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, not {result!r}")
        if scale not in SCALES:
            raise ValueError(f"scale must be one of {', '.join(SCALES)}, not {scale!r}")
        self.result = result
        self.scale = scale
        self._kw = dict(
            preset=preset,
            answer_patterns=answer_patterns,
            answer_format=answer_format,
            low_confidence=low_confidence,
            result=result,
            scale=scale,
        )
        self.__name__ = "compute_score"

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (_rebuild, (self._kw,))

    def __call__(
        self,
        data_source: Any = None,
        solution_str: Any = None,
        ground_truth: Any = None,
        extra_info: Optional[dict] = None,
        *,
        data_sources: Optional[Sequence[Any]] = None,
        solution_strs: Optional[Sequence[Any]] = None,
        ground_truths: Optional[Sequence[Any]] = None,
        extra_infos: Optional[Sequence[Any]] = None,
        **kwargs: Any,
    ) -> Union[Score, List[Score]]:
        me = self._with(kwargs) if kwargs else self
        if solution_strs is not None:
            return me.batch(solution_strs, ground_truths, extra_infos)
        return me.batch([solution_str], [ground_truth], [extra_info])[0]

    def _with(self, kwargs: Dict[str, Any]) -> "VerlReward":
        known = {k: v for k, v in kwargs.items() if k in self._kw}
        if not known:
            return self
        merged = {**self._kw, **known}
        return _cached(_freeze(merged))

    def batch(
        self,
        solution_strs: Sequence[Any],
        ground_truths: Optional[Sequence[Any]],
        extra_infos: Optional[Sequence[Any]] = None,
    ) -> List[Score]:
        """Scores of a batch, graded in parallel in one :func:`verifyfast.grade_many` call."""
        texts = [text_of(s) for s in solution_strs]
        n = len(texts)
        golds = list(ground_truths) if ground_truths is not None else [None] * n
        infos = list(extra_infos) if extra_infos is not None else [None] * n
        if len(golds) != n or len(infos) != n:
            raise ValueError(
                f"solution_strs, ground_truths and extra_infos differ in length: {n}, {len(golds)}, {len(infos)}"
            )
        # One grade per (response, accepted answer): any of the answers is right.
        owner: List[int] = []
        outs: List[str] = []
        answers: List[Union[str, int, float]] = []
        questions: List[Optional[str]] = []
        for i, (text, gold, info) in enumerate(zip(texts, golds, infos)):
            q = info.get("question") if isinstance(info, Mapping) else None
            for g in _golds(gold):
                owner.append(i)
                outs.append(text)
                answers.append(g)
                questions.append(q if isinstance(q, str) else None)
        s = self.settings
        verdicts = grade_many(outs, answers, questions=questions, preset=s.preset, answer_patterns=s.answer_patterns)
        right, wrong = SCALES[self.scale]
        best: List[Optional[Tuple[float, Optional[str]]]] = [None] * n
        for i, v in zip(owner, verdicts):
            score, _ = s.score(texts[i], v) if v.gold is not None else (0.0, None)
            if best[i] is None or score > best[i][0]:  # type: ignore[index]
                best[i] = (score, v.predicted)
        results: List[Score] = []
        for i in range(n):
            # No readable ground truth: verl needs a number, so it scores as wrong.
            score, pred = best[i] or (0.0, None)
            value = right if score == 1.0 else wrong
            if self.result == "dict":
                results.append({"score": value, "acc": score == 1.0, "pred": NO_ANSWER if pred is None else pred})
            else:
                results.append(value)
        return results


def _freeze(kw: Dict[str, Any]) -> Tuple[Tuple[str, Any], ...]:
    def f(v: Any) -> Any:
        if isinstance(v, Mapping):
            return ("__map__",) + tuple((str(k), f(x)) for k, x in v.items())
        if isinstance(v, (list, tuple)):
            return tuple(f(x) for x in v)
        return v

    return tuple(sorted((k, f(v)) for k, v in kw.items()))


def _thaw(v: Any) -> Any:
    if isinstance(v, tuple):
        if v[:1] == ("__map__",):
            return {k: _thaw(x) for k, x in v[1:]}
        return [_thaw(x) for x in v]
    return v


@lru_cache(maxsize=16)
def _cached(frozen: Tuple[Tuple[str, Any], ...]) -> VerlReward:
    # verl passes the same reward_kwargs at every call: checked and compiled once.
    return VerlReward(**{k: _thaw(v) for k, v in frozen})


def _rebuild(kw: Dict[str, Any]) -> VerlReward:
    return VerlReward(**kw)


def make_compute_score(**settings: Any) -> VerlReward:
    """A ``compute_score`` with these settings, checked now (a typo raises here, when verl
    loads your reward file, not at every call).

    >>> score = make_compute_score(result="dict", scale="signed")
    >>> score(data_source="gsm8k", solution_str="So 3 + 4 = 7. #### 7", ground_truth="7")
    {'score': 1.0, 'acc': True, 'pred': '7'}
    """
    return VerlReward(**settings)


#: The default reward function (reward preset, 1.0 / 0.0). Answers verl's per-response and
#: batch reward managers alike.
#:
#: >>> compute_score("openai/gsm8k", "So the total is 18. #### 18", "18")
#: 1.0
compute_score = VerlReward()
