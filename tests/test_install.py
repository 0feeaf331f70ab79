"""A regular (non-editable) install carries its templates, the project's Moodle XSD, the starter project and the docs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import ROOT, SEED_SOURCE

from qti_builder.manual import for_reading


def test_wheel_install_finds_its_data_files(tmp_path: Path) -> None:
    wheels, target, work = tmp_path / "wheels", tmp_path / "site", tmp_path / "work"
    work.mkdir()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)], check=True)
    [wheel] = wheels.glob("qti_builder-*.whl")
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)

    script = (
        "import qti_builder, sys\n"
        "from pathlib import Path\n"
        "from qti_builder.resources import data_dir\n"
        "from qti_builder.cli import main\n"
        "print(qti_builder.__file__, data_dir('templates'), data_dir('schemas'), data_dir('starter'), sep='\\n')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    shown = subprocess.run([sys.executable, "-c", script], cwd=work, env=env, capture_output=True, text=True, check=True)
    module, templates, schemas, starter = shown.stdout.split()
    for path in (module, templates, schemas, starter):
        assert Path(path).is_relative_to(target), path
    assert (Path(schemas) / "moodle-xml.xsd").is_file()
    assert (Path(templates) / "qti21" / "item_choice.xml.j2").is_file()

    init = subprocess.run([sys.executable, "-c", "from qti_builder.cli import main; main()", "init", "project"],
                          cwd=work, env=env, capture_output=True, text=True)
    assert init.returncode == 0, init.stderr
    assert (work / "project" / ".github" / "workflows" / "quizzes.yml").is_file()

    build = subprocess.run(
        [sys.executable, "-c", "from qti_builder.cli import main; main()", "build", str(SEED_SOURCE), "--out", "out"],
        cwd=work, env=env, capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr
    assert sorted(p.name for p in (work / "out").iterdir()) == ["ray-train-tune.canvas.zip", "ray-train-tune.mbz", "ray-train-tune.moodle.xml",
                                                           "ray-train-tune.qti21.zip"]

    # The docs travel with the wheel: every page of docs/ prints from the installed copy.
    for page in sorted((ROOT / "docs").glob("*.md")):
        shown = subprocess.run([sys.executable, "-c", "from qti_builder.cli import main; main()", "docs", page.stem],
                               cwd=work, env=env, capture_output=True, text=True)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == for_reading(page.read_text(encoding="utf-8")), page.name
