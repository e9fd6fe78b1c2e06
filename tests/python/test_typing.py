"""mypy --strict over the package (its stubs and __init__.py), the Python
examples, the benchmarks' Python scripts and the code of the docs: the stubs must say what the module does, and
a program written as the docs show must type-check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import abstracts
from conftest import ROOT
from docs_code import as_script

HERE = Path(__file__).resolve().parent


def mypy(*paths: Path) -> subprocess.CompletedProcess[str]:
    # The package as built (beside the module), with its stubs; mypy loads no module.
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
    env["MYPYPATH"] = str(Path(abstracts.__file__).parent.parent)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(HERE / "mypy.ini"), "--no-incremental",
         "--cache-dir", os.devnull, *map(str, paths)],
        capture_output=True, text=True, env=env,
    )  # fmt: skip


def test_examples_docs_and_stubs_pass_mypy_strict(tmp_path: Path) -> None:
    docs = tmp_path / "docs_python.py"
    docs.write_text(as_script(ROOT / "docs" / "python.md") + as_script(ROOT / "README.md"), encoding="utf-8")
    done = mypy(ROOT / "examples" / "python" / "reading_list.py", docs, HERE / "test_index.py",
                ROOT / "bench" / "python" / "throughput.py", ROOT / "bench" / "relevance" / "python_run.py")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_a_misuse(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import abstracts\n"
        "index = abstracts.Index('x')\n"
        "hit: str = index.search('q').hits[0]\n"
        "index.search('q', sort='newest')\n"
        "abstracts.Writer('x').index(['a'], keep_going=1, nonsense=True)\n"
    )
    out = mypy(bad).stdout
    assert 'Incompatible types in assignment (expression has type "Hit"' in out
    assert 'Argument "sort" to "search" of "Index" has incompatible type' in out
    assert 'Unexpected keyword argument "nonsense"' in out


def test_the_stubs_name_what_the_module_has() -> None:
    stub = (Path(abstracts.__file__).parent / "_abstracts.pyi").read_text()
    for name in dir(abstracts._abstracts):
        if name.startswith("__"):
            continue
        if not (f"class {name}" in stub or f"def {name}(" in stub or f"{name}:" in stub):
            pytest.fail(f"abstracts._abstracts.{name} is not in _abstracts.pyi")
    for cls in (abstracts.Index, abstracts.Writer, abstracts.Hit, abstracts.Abstract, abstracts.SearchResult):
        body = stub.split(f"\nclass {cls.__name__}:")[1].split("\nclass ")[0]
        for member in dir(cls):
            if not member.startswith("_") and f"def {member}(" not in body:
                pytest.fail(f"{cls.__name__}.{member} is not in _abstracts.pyi")
