"""VerifyFast's answer extraction and grading, in Python.

The same Rust core as the ``verifyfast`` command line and the browser app: a verdict here is
the line ``verifyfast grade`` writes for the same input, item by item.

>>> import verifyfast
>>> v = verifyfast.grade(r"so the answer is \\boxed{1/2}", "0.5")
>>> v.equivalent, v.method
(True, 'exact_rational')

Functions:

- :func:`grade` -- one output against its ground truth, a :class:`Verdict`;
- :func:`grade_many` -- many at once, in parallel, with the GIL released;
- :func:`extract` -- the final answer of one text, an :class:`Extraction`;
- :func:`check` -- the audit's model-free check of an output against its context (numbers the
  context does not state, directions it reverses), a :class:`CheckReport`;
- :func:`check_many` -- many at once, in parallel, with the GIL released.

Reward functions for trainers: :mod:`verifyfast.rewards` (TRL's ``accuracy_reward``) and
:mod:`verifyfast.verl` (verl's ``compute_score``).

Every function is safe to call from any thread, ``asyncio.to_thread``, thread pools and
worker processes (forked or spawned): no signals, no global state, bounded work (texts are
read from their last 1 MiB; values past the exact size bound are "could not decide").
"""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass, field, fields
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._native import InternalError

__all__ = [
    "AnswerPatterns",
    "Candidate",
    "CheckReport",
    "CheckedNumber",
    "DeterministicFinding",
    "Extraction",
    "InternalError",
    "PRESETS",
    "Verdict",
    "NumberGrounding",
    "UncountedNumber",
    "__version__",
    "check",
    "check_many",
    "extract",
    "grade",
    "grade_many",
]

__version__: str = _native.VERSION

#: The equivalence presets, as ``verifyfast grade --preset`` names them.
PRESETS: Tuple[str, ...] = tuple(_native.presets())

#: What ``answer_patterns=`` accepts: compiled :class:`AnswerPatterns`, a sequence of
#: ``"NAME=REGEX"`` strings / ``(name, regex)`` pairs, or a mapping ``{name: regex}``.
PatternsLike = Union["AnswerPatterns", Sequence[Union[str, Tuple[str, str]]], Mapping[str, str]]

#: A ground truth: text, or a number (written as ``str()`` writes it, every digit kept).
GroundTruth = Union[str, int, float]


class AnswerPatterns:
    """Named answer regexes, tried in order before the built-in rules, on both sides.

    The CLI's ``--answer-pattern NAME=REGEX``: each regex has exactly one capture group (the
    answer) and is read at its **last** match in the text; the first pattern that matches
    wins and its name is the ``method``. Syntax is regex-lite's (the ``regex`` crate's,
    ``\\d``/``\\w``/``\\s``/``\\b`` ASCII-only); see docs/extract.md, "Answer patterns".

    >>> p = AnswerPatterns(["gsm8k=#### (\\\\-?[0-9.,]+)"])
    >>> p.names
    ('gsm8k',)

    A bad pattern raises :class:`ValueError` with the CLI's message, e.g.
    ``answer pattern `two`: needs exactly one capture group (the answer), found 2; ...``.
    Compile once and pass the object to every call: compiling costs far more than a grade.
    """

    __slots__ = ("_specs", "_native")

    def __init__(self, patterns: Union[Sequence[Union[str, Tuple[str, str]]], Mapping[str, str]]):
        if isinstance(patterns, str):
            raise TypeError('answer_patterns must be a list of "NAME=REGEX" strings, not one string')
        items: List[Union[str, Tuple[str, str]]]
        if isinstance(patterns, Mapping):
            items = [(str(k), str(v)) for k, v in patterns.items()]
        else:
            items = [p if isinstance(p, str) else tuple(p) for p in patterns]  # type: ignore[misc]
        self._native = _native.compile_patterns(items)
        self._specs = items

    @property
    def names(self) -> Tuple[str, ...]:
        """The pattern names, in the order they are tried."""
        return tuple(self._native.names())

    def __len__(self) -> int:
        return len(self._native)

    def __repr__(self) -> str:
        return f"AnswerPatterns({self._specs!r})"

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        # Compiled regexes do not pickle; the specs do (spawned workers compile them again).
        return (AnswerPatterns, (self._specs,))


def _patterns(p: Optional[PatternsLike]) -> Any:
    if p is None:
        return None
    if isinstance(p, AnswerPatterns):
        return p._native
    return AnswerPatterns(p)._native


def _text(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    # A number field is graded with exactly the digits `str()` writes (as the CLI reads a
    # JSON number from its own text); `bool` is an `int` but never an answer.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise TypeError(f"{what} must be a str (or a number), not {type(value).__name__}")


def _batches(**named: Any) -> None:
    """Each argument of a ``_many`` function is one entry per item, never a single text."""
    # A str is a sequence of characters: grading "12" against "12" item by item would grade
    # "1" against "1" and "2" against "2", silently.
    for name, value in named.items():
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a sequence of str (one per item), not a single {type(value).__name__}")


def _threads(threads: Any) -> None:
    """The ``threads=`` of a ``_many`` function: ``None`` or an int of at least 1."""
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if threads is not None and threads < 1:
        raise ValueError("threads must be at least 1")


def _question(value: Any) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"question must be a str or None, not {type(value).__name__}")


@dataclass(frozen=True)
class Verdict:
    """One grading verdict: the fields of a ``verifyfast grade`` line.

    Attributes:
        equivalent: ``True`` when the answers are equal, ``False`` when they differ, ``None``
            when the grader could not decide (an exact comparison was impossible: a value
            past the size bound, the strict preset facing a float, ...). The CLI writes
            ``false`` for that last case; :meth:`as_record` does too.
        verdict: ``"equal"``, ``"different"`` or ``"undecided"``.
        predicted: the normalised answer read from the output (``None``: no answer found).
        gold: the normalised ground-truth answer (``None``: none could be read).
        method: the comparison path that decided (``exact_rational``, ``symbolic``,
            ``no_answer``, ...; docs/extract.md lists them).
        reason: both normalised answers, the rules that found them, and why they are (not)
            equal, in words.
        low_confidence: the extractor doubts the predicted answer (or found none).
        doubts: why, as the CLI writes them: ``{"kind": "rules_disagree", ...}``.
        predicted_method: the rule (or answer pattern) that found the predicted answer,
            ``"none"`` when nothing was found.
        gold_method: the same for the ground truth.
    """

    equivalent: Optional[bool]
    verdict: str
    predicted: Optional[str]
    gold: Optional[str]
    method: str
    reason: str
    low_confidence: bool
    doubts: Tuple[Dict[str, Any], ...] = field(default=(), repr=False)
    predicted_method: str = "none"
    gold_method: str = "none"

    def __bool__(self) -> bool:
        """True only for an equal verdict (undecided is not equal)."""
        return self.equivalent is True

    def as_record(self) -> Dict[str, Any]:
        """The line ``verifyfast grade`` writes for this item (without its ``id``).

        Written by the CLI's own record type (``extract::records::GradeRecord``), read from
        this verdict's attributes by name: the same keys, order and values as the CLI's line.
        """
        record: Dict[str, Any] = json.loads(_native.grade_record_json(self))
        del record["id"]
        return record


def _copy(cls: Any, native: Any, **converted: Any) -> Any:
    """``cls`` (a dataclass here) with every field read from ``native`` by its name.

    The native result types (``_native.GradeResult``, ...) have exactly the fields of the
    public dataclasses, by name (tests/test_stubs.py checks both against the stub): no field
    order is written anywhere. ``converted`` gives the fields that need converting.
    """
    # The frozen dataclass's generated __init__ sets each field through object.__setattr__,
    # which was most of a grade() call's Python time: its fields (it has no __post_init__)
    # are filled in as copy and pickle do. Each class's field names are read once.
    names, read = _readers.get(cls) or _readers.setdefault(cls, _reader(cls))
    made = object.__new__(cls)
    made.__dict__.update(zip(names, read(native)))
    made.__dict__.update(converted)
    return made


#: Per dataclass: its field names and a getter of those attributes (as a tuple).
_readers: Dict[Any, Any] = {}


def _reader(cls: Any) -> Any:
    names = tuple(f.name for f in fields(cls))
    getter = operator.attrgetter(*names)
    return names, (getter if len(names) > 1 else lambda n: (getter(n),))


@dataclass(frozen=True)
class Candidate:
    """An answer another rule found (a runner-up of :class:`Extraction`).

    ``span`` is a character range of the text (``text[span[0]:span[1]] == raw``);
    ``byte_span`` is the CLI's UTF-8 byte range; ``several`` the distinct answers when the
    rule found several (``\\boxed{2}`` and ``\\boxed{3}``), in order, empty otherwise.
    """

    method: str
    answer: str
    raw: str
    span: Tuple[int, int]
    byte_span: Tuple[int, int]
    several: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Extraction:
    """The final answer of a text: the fields of a ``verifyfast extract`` line.

    Attributes:
        answer: the normalised answer, ``None`` when no rule found one (no answer is not a
            wrong answer).
        raw: the matched text, verbatim.
        span: its character range in the text (``text[span[0]:span[1]] == raw``).
        byte_span: its UTF-8 byte range, as the CLI writes ``span``.
        method: the rule that found it (``boxed``, ``final_answer_marker``, an answer
            pattern's name, ...), ``"none"`` when nothing was found.
        confidence: the rule's trust, lowered below 0.7 by any doubt.
        low_confidence: ``confidence < 0.7`` (what asks the CLI's LLM fallback).
        confidence_reason: why, in words.
        doubts: the reasons to doubt the answer, as the CLI writes them.
        candidates: the other rules' answers, best first.
        several: the distinct boxed answers when there were several, in order.
    """

    answer: Optional[str]
    raw: Optional[str]
    span: Optional[Tuple[int, int]]
    byte_span: Optional[Tuple[int, int]]
    method: str
    confidence: float
    low_confidence: bool
    confidence_reason: str
    doubts: Tuple[Dict[str, Any], ...] = field(default=(), repr=False)
    candidates: Tuple[Candidate, ...] = field(default=(), repr=False)
    several: Tuple[str, ...] = ()

    def __bool__(self) -> bool:
        """True when an answer was found."""
        return self.answer is not None

    def as_record(self) -> Dict[str, Any]:
        """The line ``verifyfast extract`` writes for this text (without its ``id``).

        Written by the CLI's own record type (``extract::records::ExtractRecord``), read from
        this extraction's attributes by name: the same keys, order and values as the CLI's
        line. A doubt the CLI does not write is a :class:`ValueError`.
        """
        record: Dict[str, Any] = json.loads(_native.extract_record_json(self))
        del record["id"]
        return record


def grade(
    output: str,
    ground_truth: GroundTruth,
    *,
    question: Optional[str] = None,
    preset: str = "lenient",
    answer_patterns: Optional[PatternsLike] = None,
) -> Verdict:
    """Grades a model output against its ground truth.

    Both sides may be a full solution or a bare answer: each is extracted (``\\boxed{}``,
    "the answer is", ``#### N``, ...), normalised, and compared exactly (big rationals,
    symbolic sampling, sets, intervals, units, ...), as ``verifyfast grade`` does.

    Args:
        output: the model's text.
        ground_truth: the gold answer or solution (a number is read with every digit).
        question: the question, when known (it decides the percent policy: "what percent").
        preset: ``"lenient"`` (default) or ``"strict"`` (exact values only), as the CLI's
            ``--preset``.
        answer_patterns: answer regexes tried first on both sides (:class:`AnswerPatterns`).

    Returns:
        a :class:`Verdict`; ``verdict.equivalent`` is ``True``/``False``, or ``None`` when the
        grader could not decide.

    Raises:
        ValueError: an unknown preset or a bad answer pattern (the CLI's message).
        TypeError: an argument of the wrong type.
        InternalError: a bug (a Rust panic), instead of aborting the process.

    >>> grade("so the answer is \\\\boxed{1/2}", "0.5").verdict
    'equal'
    """
    # The native side fills the dataclass as `_copy` would (`into`), without the round trip.
    return _native.grade(
        _text(output, "output"),
        _text(ground_truth, "ground_truth"),
        _question(question),
        preset,
        _patterns(answer_patterns),
        into=Verdict,
    )


def grade_many(
    outputs: Iterable[str],
    ground_truths: Iterable[GroundTruth],
    *,
    questions: Optional[Iterable[Optional[str]]] = None,
    preset: str = "lenient",
    answer_patterns: Optional[PatternsLike] = None,
    threads: Optional[int] = None,
) -> List[Verdict]:
    """Grades many outputs at once, in parallel, with the GIL released.

    The same verdicts as :func:`grade` on each item, in the input order. Other Python threads
    keep running while it computes.

    Args:
        outputs: the model texts.
        ground_truths: one ground truth per output.
        questions: one question (or ``None``) per output, or ``None`` for none.
        preset: ``"lenient"`` or ``"strict"``.
        answer_patterns: as in :func:`grade` (compiled once for the whole batch).
        threads: how many threads (default: the CPUs available, at most one per 32 items).

    Raises:
        ValueError: lengths differ, ``threads < 1``, an unknown preset or a bad pattern.
        InternalError: a bug (a Rust panic) on some item, named by its index.
    """
    _batches(outputs=outputs, ground_truths=ground_truths, questions=questions)
    outs = [_text(o, "output") for o in outputs]
    golds = [_text(g, "ground_truth") for g in ground_truths]
    qs = None if questions is None else [_question(q) for q in questions]
    _threads(threads)
    return _native.grade_many(outs, golds, qs, preset, _patterns(answer_patterns), threads, into=Verdict)


def extract(
    text: str,
    *,
    question: Optional[str] = None,
    answer_patterns: Optional[PatternsLike] = None,
) -> Extraction:
    """Finds the final answer in a text, as ``verifyfast extract`` does.

    Rules by priority: ``<answer>`` tags, a JSON ``"answer"`` field, ``\\boxed{}``, a final
    answer marker / ``# Answer`` heading / ``#### N``, a bare answer, the final equation, the
    last line's main clause, the last number (docs/extract.md, "Extraction rules").

    Returns:
        an :class:`Extraction`; its ``answer`` is ``None`` (and ``method`` ``"none"``) when
        no rule found one.

    >>> extract("So he bought 80-26=54 more").answer
    '54'
    """
    n = _native.extract(_text(text, "text"), _question(question), _patterns(answer_patterns))
    return _copy(Extraction, n, candidates=tuple(_copy(Candidate, c) for c in n.candidates))


@dataclass(frozen=True)
class CheckedNumber:
    """A number of the output and what the number check found for it.

    ``status`` is ``"verbatim"``, ``"notation"`` (the context writes it otherwise: ``1,520``
    for ``1520``), ``"rounded"``, ``"derived"`` (one step of arithmetic from context numbers,
    ``operation`` names it) or ``"not_found"``; ``source`` is the context's writing or the
    step. ``kind`` is ``"number"``, ``"quantity"``, ``"percent"`` or ``"date"``.
    """

    text: str
    kind: str
    value: float
    status: str
    source: Optional[str] = None
    operation: Optional[str] = None


@dataclass(frozen=True)
class NumberGrounding:
    """The number check: every number of the output, and how many the context holds.

    ``unchecked`` counts output numbers past the check's bound that were not checked.
    """

    numbers: Tuple[CheckedNumber, ...]
    context_numbers: int
    unchecked: int = 0


@dataclass(frozen=True)
class DeterministicFinding:
    """A High finding of a fixed rule (docs/audit.md, "Deterministic findings").

    ``check`` is ``"unsupported_number"`` (a number the context states in no form) or
    ``"direction"`` (a quantity the context states with the opposite direction, bound or
    ranking); ``output_text`` / ``context_text`` are the words of each side;
    ``explanation`` says why in a sentence. Without a model every finding counts
    (``status == "counted"``).
    """

    check: str
    severity: str
    output_text: str
    context_text: str
    explanation: str
    status: str
    derivation: Optional[str] = None
    also_reported_by: Optional[int] = None


@dataclass(frozen=True)
class UncountedNumber:
    """A number not found in the context that the rules do not count, and why.

    ``leniency``: ``"in_score"`` (judged with its score), ``"count_in_words"`` (a bare
    count up to a dozen, maybe the output's own count of a list), ``"slight_change"`` (within
    the deviation threshold of the context's ``near``: the rubric's Low) or ``"round_bound"``
    (a round bound the context's ``near`` meets). Nothing judges these without a model:
    they are not "supported".
    """

    text: str
    leniency: str
    near: Optional[str] = None


@dataclass(frozen=True)
class CheckReport:
    """The model-free check of one output: the report ``verifyfast check`` prints.

    Attributes:
        number_grounding: every number of the output and what the check found for it.
        deterministic_findings: the rules' High findings (each counts: see :attr:`counted`).
        uncounted_numbers: the numbers not found that the rules leave to a fact check.
    """

    number_grounding: NumberGrounding
    deterministic_findings: Tuple[DeterministicFinding, ...]
    uncounted_numbers: Tuple[UncountedNumber, ...]

    @property
    def counted(self) -> int:
        """How many findings count (each is High: an audit would score the output 2 or 1)."""
        return sum(f.status == "counted" for f in self.deterministic_findings)

    @property
    def passed(self) -> bool:
        """No finding counts: ``verifyfast check`` would exit 0 (5 otherwise)."""
        return self.counted == 0

    def as_record(self) -> Dict[str, Any]:
        """The report as ``verifyfast check`` prints it (the ``check`` object of a
        ``--batch`` line): the same keys, order and values."""
        return _record_of(self)


def _record_of(value: Any) -> Any:
    # An optional field left at None is absent from the CLI's JSON (serde's
    # `skip_serializing_if`); python/tests/test_check.py compares the two on real cases.
    if hasattr(value, "__dataclass_fields__"):
        return {
            f.name: _record_of(getattr(value, f.name))
            for f in fields(value)
            if not (f.default is None and getattr(value, f.name) is None)
        }
    if isinstance(value, tuple):
        return [_record_of(v) for v in value]
    return value


def _report(text: str) -> CheckReport:
    r = json.loads(text)
    g = r["number_grounding"]
    return CheckReport(
        number_grounding=NumberGrounding(
            numbers=tuple(CheckedNumber(**n) for n in g["numbers"]),
            context_numbers=g["context_numbers"],
            unchecked=g["unchecked"],
        ),
        deterministic_findings=tuple(DeterministicFinding(**d) for d in r["deterministic_findings"]),
        uncounted_numbers=tuple(UncountedNumber(**u) for u in r["uncounted_numbers"]),
    )


def _threshold(value: Any) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"numeric_deviation_threshold must be a float, not {type(value).__name__}")
    return float(value)


def check(
    context: str,
    output: str,
    *,
    numeric_deviation_threshold: Optional[float] = None,
) -> CheckReport:
    """Checks an output against its context with no model, as ``verifyfast check`` does.

    The audit's number check and its two deterministic rules (docs/audit.md, "A check
    without a model"): a number the context states in no form (not verbatim, in another
    notation, rounded, one plausible step of arithmetic, nor a slight change of the same
    quantity) and a quantity stated with the opposite direction are High findings.

    Args:
        context: the source material (an audit's ``context_input``).
        output: the text under audit (``model_output``).
        numeric_deviation_threshold: the relative change of the same quantity left to a fact
            check as the rubric's Low (default the strategy's, 0.10).

    Returns:
        a :class:`CheckReport`; ``report.passed`` is ``False`` when a finding counts.

    Raises:
        ValueError: a threshold outside 0..1, or a text over the audit's size limits
            (context 1 MiB, output 512 KiB).
        TypeError: an argument of the wrong type.
        InternalError: a bug (a Rust panic), instead of aborting the process.

    >>> check("Exports fell 12% in March.", "Exports rose 12% in March.").passed
    False
    >>> check("Revenue was $4.2 billion.", "Revenue reached $4.2bn.").passed
    True
    """
    if not isinstance(context, str) or not isinstance(output, str):
        raise TypeError("context and output must be str")
    return _report(_native.check_json(context, output, _threshold(numeric_deviation_threshold)))


def check_many(
    contexts: Iterable[str],
    outputs: Iterable[str],
    *,
    numeric_deviation_threshold: Optional[float] = None,
    threads: Optional[int] = None,
) -> List[CheckReport]:
    """Checks many outputs at once, in parallel, with the GIL released.

    The same reports as :func:`check` on each pair, in the input order. Every text's size is
    checked before any work starts.

    Raises:
        ValueError: lengths differ, ``threads < 1``, a bad threshold, or a text over the size
            limits (named by its index).
        InternalError: a bug (a Rust panic) on some item, named by its index.
    """
    _batches(contexts=contexts, outputs=outputs)
    cs, os_ = list(contexts), list(outputs)
    if not all(isinstance(t, str) for t in cs + os_):
        raise TypeError("every context and output must be a str")
    _threads(threads)
    texts = _native.check_many_json(cs, os_, _threshold(numeric_deviation_threshold), threads)
    return [_report(t) for t in texts]


# The reward modules are part of the package's surface (`verifyfast.rewards.accuracy_reward`
# after `import verifyfast`); imported last, since they use the names above.
from . import rewards, verl  # noqa: E402,F401
