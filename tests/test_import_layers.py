"""The importers' packages import one way (issue 22): no import cycle anywhere under
``importers/`` (a ``TYPE_CHECKING`` import counts: it is a dependency all the same), and each
format's reader is layered package -> assessment -> item -> kinds -> what the kind readers see.

The contracts are in ``pyproject.toml`` (``[tool.importlinter]``) and checked here with
import-linter, so that the README's test command keeps them."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from importlinter import configuration
from importlinter.application.use_cases import lint_imports

configuration.configure()  # what import-linter's command line does first: its adapters


def test_every_importer_package_keeps_its_contracts(capsys: pytest.CaptureFixture[str]) -> None:
    kept = lint_imports(config_filename=str(ROOT / "pyproject.toml"), cache_dir=None, no_logo=True)
    assert kept, capsys.readouterr().out


def test_the_check_catches_a_cycle_made_only_for_type_hints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The cycles issue 22 names were such: ``kinds`` typing its argument with ``item``'s class."""
    package = tmp_path / "cyclic" / "importers" / "fmt"
    package.mkdir(parents=True)
    for folder in (tmp_path / "cyclic", tmp_path / "cyclic" / "importers", package):
        (folder / "__init__.py").write_text("")
    (package / "item.py").write_text("from .kinds import READERS\n")
    (package / "kinds.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .item import ItemReader\nREADERS = {}\n")
    config = tmp_path / "contracts.toml"
    config.write_text('[tool.importlinter]\nroot_package = "cyclic"\n\n[[tool.importlinter.contracts]]\nname = "acyclic"\n'
                      'type = "acyclic_siblings"\nancestors = ["cyclic.importers"]\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert not lint_imports(config_filename=str(config), cache_dir=None, no_logo=True)
