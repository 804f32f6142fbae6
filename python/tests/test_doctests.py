"""The examples in the docstrings (what `help()` shows) run and print what they say."""

from __future__ import annotations

import doctest

import pytest

import verifyfast
import verifyfast.rewards
import verifyfast.verl


@pytest.mark.parametrize("module", [verifyfast, verifyfast.rewards, verifyfast.verl], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0, result
