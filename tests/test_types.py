"""The package type-checks: mypy, configured in pyproject.toml ([tool.mypy]), finds no errors."""

from __future__ import annotations

from pathlib import Path

from mypy import api

from helpers import ROOT


def test_package_type_checks(tmp_path: Path) -> None:
    stdout, stderr, status = api.run([
        "--config-file", str(ROOT / "pyproject.toml"),
        "--cache-dir", str(tmp_path / "mypy-cache"),  # never into the checkout
        str(ROOT / "src" / "qti_builder"),
    ])
    assert status == 0, f"mypy found problems:\n{stdout}{stderr}"
