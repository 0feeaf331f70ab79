"""The sha256 of every file a fixed set of builds writes, to check that a change to the build's
speed changes no output byte: ``.venv/bin/python bench/digest.py > before.json``, change, then
``.venv/bin/python bench/digest.py --compare before.json`` (exit 1 and the differences if any).

The builds: ``source/``, every source of ``tests/fixtures`` and ``tests/corpus`` (the corpus's
cases that fail write nothing: what they print is compared instead), generated banks of every
question type and of four-option single-choice questions (in one process and with two, the
split into chunks and workers), the calculated fixture with ``--qti-variants 2``, each target
alone, and the seed through a ``--templates`` overlay (the sandboxed environment). What a build
prints (its diagnostics) is compared too, with the temporary folder's path taken out.

``--contents`` digests what each package holds instead of its bytes (a zip's members, by name,
a gzipped tar's tar), for a change meant to compress differently and nothing else; ``--exe``
runs another checkout's ``qti-builder`` on these sources (a base to compare with).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from bank import KINDS, write_bank

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
EXE = ROOT / ".venv" / "bin" / "qti-builder"


def builds(work: Path) -> dict[str, list[str]]:
    """Name -> the arguments of ``qti-builder build`` (without ``--out``)."""
    out: dict[str, list[str]] = {"source": ["source"]}
    for folder in ("tests/fixtures", "tests/corpus"):
        for path in sorted((ROOT / folder).iterdir()):
            if path.is_file() and path.suffix in (".md", ".yaml", ".yml"):
                out[f"{folder}/{path.name}"] = [str(path.relative_to(ROOT))]
    mixed = write_bank(work, 1_500)["md"]
    single = write_bank(work, 1_000, ("single_choice",), section_size=500)["md"]
    for jobs in ("1", "2"):
        out[f"mixed-1500-jobs-{jobs}"] = [str(mixed), "--jobs", jobs]
        out[f"single-1000-jobs-{jobs}"] = [str(single), "--jobs", jobs]
    for target in ("qti21", "moodle", "canvas"):
        out[f"mixed-1500-{target}"] = [str(mixed), "--format", target, "--jobs", "2"]
        out[f"seed-{target}"] = ["source/ray-train-tune.md", "--format", target]
    out["calculated-variants-2"] = ["tests/fixtures/calculated.md", "--qti-variants", "2"]
    overlay = work / "overlay"
    for name in ("qti21/item_choice.xml.j2", "moodle/question_multichoice.xml.j2", "canvas/item_choice.xml.j2"):
        (overlay / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "templates" / name, overlay / name)
    out["seed-overlay"] = ["source/ray-train-tune.md", "--templates", str(overlay)]
    return out


def content_digest(path: Path) -> str:
    """The sha256 of what a package holds (each zip member's name and bytes in order; a gzipped
    tar's tar), or of the file's bytes for any other file."""
    data = path.read_bytes()
    digest = hashlib.sha256()
    if data.startswith(b"PK\x03\x04"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                digest.update(f"{info.filename}\0{info.file_size}\0".encode())
                digest.update(archive.read(info))
    elif data.startswith(b"\x1f\x8b"):
        digest.update(b"gzip\0" + gzip.decompress(data))
    else:
        digest.update(data)
    return digest.hexdigest()


def digest(keep: Path | None, contents: bool = False, exe: Path = EXE) -> dict[str, object]:
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, args in builds(work / "banks").items():
            out = work / "out" / name.replace("/", "_")
            run = subprocess.run([str(exe), "build", *args, "--out", str(out)], cwd=ROOT, capture_output=True,
                                 text=True, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})
            printed = (run.stdout + run.stderr).replace(str(work), "<tmp>")
            files = {p.name: content_digest(p) if contents else hashlib.sha256(p.read_bytes()).hexdigest()
                     for p in sorted(out.glob("*"))} if out.exists() else {}
            results[name] = {"exit": run.returncode, "files": files, "printed": hashlib.sha256(printed.encode()).hexdigest()}
            if keep:
                (keep / name.replace("/", "_")).mkdir(parents=True, exist_ok=True)
                (keep / name.replace("/", "_") / "printed.txt").write_text(printed, "utf-8")
                if out.exists():
                    shutil.copytree(out, keep / name.replace("/", "_"), dirs_exist_ok=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", type=Path, help="an earlier run's JSON: print what differs, exit 1 if anything does")
    parser.add_argument("--keep", type=Path, help="copy every output and what each build printed into this folder")
    parser.add_argument("--contents", action="store_true", help="digest what each package holds, not its compressed bytes")
    parser.add_argument("--exe", type=Path, default=EXE, help="the qti-builder to run (default: this checkout's)")
    args = parser.parse_args()
    os.environ.setdefault("QTI_BUILDER_SCHEMAS", str(ROOT.parent / "shared" / "schemas"))
    results = digest(args.keep, args.contents, args.exe)
    if not args.compare:
        print(json.dumps(results, indent=1, sort_keys=True))
        return
    before = json.loads(args.compare.read_text("utf-8"))
    differ = [name for name in sorted(set(before) | set(results)) if before.get(name) != results.get(name)]
    for name in differ:
        print(f"{name}: {json.dumps(before.get(name))}\n  now: {json.dumps(results.get(name))}")
    files = sum(len(r["files"]) for r in results.values())  # type: ignore[index]
    print(f"{len(results)} builds, {files} files: " + (f"{len(differ)} differ" if differ else "identical"))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
