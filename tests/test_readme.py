"""The README's Python examples run as written (doctest over its ```python blocks).

Each ``##`` section runs in a namespace of its own, so a reader can copy any one
section into a fresh interpreter: it carries its own imports.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _sections() -> list[tuple[str, str]]:
    """``(heading, python code of the section)`` for every section with Python blocks."""
    text = (ROOT / "README.md").read_text()
    out = []
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        heading = part.splitlines()[0].strip()
        blocks = re.findall(r"```python\n(.*?)```", part, re.S)
        if blocks:
            out.append((heading, "\n".join(blocks)))
    return out


def test_readme_has_python_examples():
    sections = _sections()
    assert len(sections) >= 5
    examples = sum(len(doctest.DocTestParser().get_examples(code)) for _, code in sections)
    assert examples >= 10


@pytest.mark.parametrize("heading,code", _sections(), ids=[h for h, _ in _sections()])
def test_readme_section_runs_alone(heading: str, code: str):
    parser = doctest.DocTestParser()
    test = parser.get_doctest(code, {}, f"README.md: {heading}", str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 1
    assert result.failed == 0, f"the section '{heading}' does not run on its own"
