"""Type stub of the Rust extension ``verifyfast._native`` (python/src/lib.rs).

Use the typed wrappers in :mod:`verifyfast` (``grade``, ``grade_many``, ``extract``,
``check``, ``check_many``). The grading functions return frozen result objects whose attributes
are, by name, the fields of :class:`verifyfast.Verdict`, :class:`verifyfast.Extraction` and
:class:`verifyfast.Candidate`; the check functions return the JSON ``verifyfast check`` prints,
which :func:`verifyfast.check` reads into a :class:`verifyfast.CheckReport`.
python/tests/test_stubs.py checks this file against the built module, both ways.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, final

VERSION: str

class InternalError(RuntimeError):
    """A bug in VerifyFast (a Rust panic), raised instead of aborting the process."""

@final
class Patterns:
    """Compiled answer patterns."""

    def names(self) -> List[str]: ...
    def __len__(self) -> int: ...

@final
class GradeResult:
    """One grading verdict: the CLI's grade record, and the predicted side's doubts."""

    @property
    def equivalent(self) -> Optional[bool]: ...
    @property
    def verdict(self) -> str: ...
    @property
    def predicted(self) -> Optional[str]: ...
    @property
    def gold(self) -> Optional[str]: ...
    @property
    def method(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def low_confidence(self) -> bool: ...
    @property
    def doubts(self) -> Tuple[Dict[str, Any], ...]: ...
    @property
    def predicted_method(self) -> str: ...
    @property
    def gold_method(self) -> str: ...

@final
class CandidateResult:
    """An answer another rule found; ``span`` in characters, ``byte_span`` in UTF-8 bytes."""

    @property
    def method(self) -> str: ...
    @property
    def answer(self) -> str: ...
    @property
    def raw(self) -> str: ...
    @property
    def span(self) -> Tuple[int, int]: ...
    @property
    def byte_span(self) -> Tuple[int, int]: ...
    @property
    def several(self) -> Tuple[str, ...]: ...

@final
class ExtractResult:
    """The final answer of a text: the CLI's extract record (spans also in characters)."""

    @property
    def answer(self) -> Optional[str]: ...
    @property
    def raw(self) -> Optional[str]: ...
    @property
    def span(self) -> Optional[Tuple[int, int]]: ...
    @property
    def byte_span(self) -> Optional[Tuple[int, int]]: ...
    @property
    def method(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def low_confidence(self) -> bool: ...
    @property
    def confidence_reason(self) -> str: ...
    @property
    def doubts(self) -> Tuple[Dict[str, Any], ...]: ...
    @property
    def candidates(self) -> Tuple[CandidateResult, ...]: ...
    @property
    def several(self) -> Tuple[str, ...]: ...

def compile_patterns(items: Sequence[Union[str, Tuple[str, str]]]) -> Patterns: ...
def grade(
    output: str,
    ground_truth: str,
    question: Optional[str] = None,
    preset: str = "lenient",
    patterns: Optional[Patterns] = None,
    into: Optional[type] = None,
) -> Any: ...
def grade_many(
    outputs: Sequence[str],
    ground_truths: Sequence[str],
    questions: Optional[Sequence[Optional[str]]] = None,
    preset: str = "lenient",
    patterns: Optional[Patterns] = None,
    threads: Optional[int] = None,
    into: Optional[type] = None,
) -> List[Any]: ...
def grade_record_json(verdict: Any) -> str:
    """The ``verifyfast grade`` line (``id`` null) of anything with :class:`verifyfast.Verdict`'s attributes."""
def extract_record_json(extraction: Any) -> str:
    """The ``verifyfast extract`` line (``id`` null) of anything with :class:`verifyfast.Extraction`'s attributes."""
def extract(text: str, question: Optional[str] = None, patterns: Optional[Patterns] = None) -> ExtractResult: ...
def presets() -> List[str]: ...
def check_json(context: str, output: str, numeric_deviation_threshold: Optional[float] = None) -> str:
    """The report ``verifyfast check`` prints for one case, as JSON."""
def check_many_json(
    contexts: Sequence[str],
    outputs: Sequence[str],
    numeric_deviation_threshold: Optional[float] = None,
    threads: Optional[int] = None,
) -> List[str]:
    """:func:`check_json` of every pair, in parallel, with the GIL released."""
