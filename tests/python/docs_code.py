"""The ```python blocks of a Markdown page, for the tests that run and type-check
them (test_docs.py, test_typing.py)."""

from __future__ import annotations

import re
from pathlib import Path

FENCE = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)


def python_blocks(page: Path) -> list[str]:
    """Each ```python block of `page`, in order."""
    return FENCE.findall(page.read_text(encoding="utf-8"))


def as_script(page: Path) -> str:
    """The blocks of `page` as one script, a comment naming each block's page."""
    return "".join(f"# {page.name}, block {n}\n{code}\n" for n, code in enumerate(python_blocks(page), 1))
