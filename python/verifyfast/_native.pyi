"""Type stub of the Rust extension ``verifyfast._native`` (python/src/lib.rs).

Use the typed wrappers in :mod:`verifyfast` (``grade``, ``grade_many``, ``extract``); these
functions return the CLI's record fields as plain tuples.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

VERSION: str

class InternalError(RuntimeError):
    """A bug in VerifyFast (a Rust panic), raised instead of aborting the process."""

class Patterns:
    """Compiled answer patterns."""

    def names(self) -> List[str]: ...
    def __len__(self) -> int: ...

# (equivalent, verdict, predicted, gold, method, reason, low_confidence, doubts,
#  predicted_method, gold_method)
GradeTuple = Tuple[bool, str, Optional[str], Optional[str], str, str, bool, List[Dict[str, Any]], str, str]
# (method, answer, raw, byte_span, span)
CandidateTuple = Tuple[str, str, str, Tuple[int, int], Tuple[int, int]]
# (answer, raw, byte_span, span, method, confidence, low_confidence, confidence_reason, doubts,
#  candidates, several)
ExtractTuple = Tuple[
    Optional[str],
    Optional[str],
    Optional[Tuple[int, int]],
    Optional[Tuple[int, int]],
    str,
    float,
    bool,
    str,
    List[Dict[str, Any]],
    List[CandidateTuple],
    List[str],
]

def compile_patterns(items: Sequence[Union[str, Tuple[str, str]]]) -> Patterns: ...
def grade(
    output: str,
    ground_truth: str,
    question: Optional[str] = None,
    preset: str = "lenient",
    patterns: Optional[Patterns] = None,
) -> GradeTuple: ...
def grade_many(
    outputs: Sequence[str],
    ground_truths: Sequence[str],
    questions: Optional[Sequence[Optional[str]]] = None,
    preset: str = "lenient",
    patterns: Optional[Patterns] = None,
    threads: Optional[int] = None,
) -> List[GradeTuple]: ...
def extract(text: str, question: Optional[str] = None, patterns: Optional[Patterns] = None) -> ExtractTuple: ...
def presets() -> List[str]: ...
def _panic_for_tests() -> None: ...
def _panic_in_threads_for_tests() -> None: ...
