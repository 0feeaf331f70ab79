"""The package imports one way: no import cycle anywhere in it (a ``TYPE_CHECKING`` import counts:
it is a dependency all the same), its stages layered from the command line down to the model (no
module imports one above it: the import command once imported the command line's ``cli``), and each
importer format's reader layered package -> assessment -> item -> kinds -> what the kind readers see.

The contracts are in ``pyproject.toml`` (``[tool.importlinter]``) and checked here with
import-linter, so that the README's test command keeps them."""

from __future__ import annotations

import tomllib
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
    """The cycles issue 22 names were such: ``kinds`` typing its argument with ``item``'s class; so was
    the Markdown reader's calculated kinds typing their builder with ``questions``'s class."""
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


def _contract(contract_id: str) -> dict[str, object]:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["id"] == contract_id)


def test_the_whole_package_is_checked_for_cycles_not_only_the_importers() -> None:
    assert _contract("package-acyclic")["ancestors"] == ["qti_builder"]


@pytest.mark.parametrize(("importer", "imported", "kept"), [
    ("importers", "cli", False),      # the upward import the import command had (issue 35)
    ("writers", "pipeline", False),
    ("model", "readers", False),
    ("cli", "importers", True),       # downwards
    ("diff", "importers", True),      # within one layer
])
def test_the_package_layers_refuse_an_import_upwards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, importer: str,
                                                    imported: str, kept: bool) -> None:
    """The real contract's layers, on a package of empty modules named like ours with one import."""
    layers = _contract("package-layers")["layers"]
    assert isinstance(layers, list)
    package = tmp_path / "staged"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in (n.strip() for layer in layers for n in layer.replace("|", ":").split(":")):
        (package / f"{name}.py").write_text("")
    (package / f"{importer}.py").write_text(f"from . import {imported}\n")
    config = tmp_path / "contracts.toml"
    config.write_text('[tool.importlinter]\nroot_package = "staged"\n\n[[tool.importlinter.contracts]]\nname = "layers"\n'
                      'type = "layers"\ncontainers = ["staged"]\nlayers = [' + ", ".join(f'"{l}"' for l in layers) + "]\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert lint_imports(config_filename=str(config), cache_dir=None, no_logo=True) is kept


def test_every_module_of_the_package_has_its_layer() -> None:
    """A module in no layer may import upwards unchecked: the cache, the build from it, the results
    and five more were outside the layers until the ninth session of issue 35. Each top-level module
    and package of ``qti_builder`` (but ``__init__``) is named in exactly one layer."""
    layers = _contract("package-layers")["layers"]
    assert isinstance(layers, list)
    named = [n.strip() for layer in layers for n in layer.replace("|", ":").split(":")]
    package = ROOT / "src" / "qti_builder"
    modules = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"} \
        | {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    assert sorted(modules - set(named)) == []
    assert sorted(set(named) - modules) == []
    assert len(named) == len(set(named))
