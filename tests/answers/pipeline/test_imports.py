"""The pipeline is a pure library (§7): importing every module of it loads no Django."""
import subprocess
import sys
from pathlib import Path


def test_pipeline_never_imports_django():
    package = Path(__file__).resolve().parents[3] / "answers" / "pipeline"
    modules = sorted(
        ".".join(("answers", "pipeline", *p.relative_to(package).with_suffix("").parts))
        for p in package.rglob("*.py") if p.stem != "__init__"
    )
    assert "answers.pipeline.retrieve.bm25" in modules and "answers.pipeline.text.tokens" in modules
    code = (
        f"import sys, importlib\nfor m in {modules!r}: importlib.import_module(m)\n"
        "assert 'django' not in sys.modules"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=package.parents[1], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
