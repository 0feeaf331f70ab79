"""The record of verified schema files (``schemas._Verified``): a schema folder whose files have
not changed since they matched their pins is not hashed again, in the process or the next run;
anything changed, and a damaged record, means hashing again."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import SCHEMAS, SEED_SOURCE

from qti_builder import schemas
from qti_builder.schemas import SchemaError, resolve_schema_dir

MAIN = "qti21/imsqti_v2p1.xsd"

#: The user's cache folder, where the stand-ins' file and the record live: each test's own.
pytestmark = pytest.mark.usefixtures("user_cache")


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the files the schemas' check hashes; each test starts as a fresh process."""
    sizes: list[int] = []
    real = hashlib.sha256

    def counting(data: bytes = b"") -> hashlib._Hash:
        sizes.append(len(data))
        return real(data)

    monkeypatch.setattr(schemas, "hashlib", SimpleNamespace(sha256=counting))
    monkeypatch.setattr(schemas._Verified, "_process", None)
    return sizes


def settled_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the schemas whose files count as settled (changed over 0.1 s ago)."""
    copy = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, copy)
    for path in copy.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    monkeypatch.setattr(schemas, "_SETTLED_NS", 100_000_000)
    time.sleep(0.2)
    return copy


def record() -> Path:
    return Path(os.environ["XDG_CACHE_HOME"]) / "qti-builder" / "schemas-verified.json"


def new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schemas._Verified, "_process", None)


def test_an_unchanged_folder_is_hashed_once_per_process_and_not_again_in_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int]) -> None:
    copy = settled_copy(tmp_path, monkeypatch)
    count = len(schemas.pins()["files"])
    assert resolve_schema_dir(copy) == copy
    assert len(hashed) == count and sum(hashed) > 900_000
    assert resolve_schema_dir(copy) == copy  # the build's second look at the folder
    assert len(hashed) == count
    written = json.loads(record().read_bytes())
    assert sorted(written["folders"][str(copy)]) == sorted(schemas.pins()["files"])
    new_process(monkeypatch)
    assert resolve_schema_dir(copy) == copy
    assert len(hashed) == count  # the next run reads the record, and hashes nothing


def test_a_file_changed_in_place_with_its_mtime_set_back_is_hashed_and_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int]) -> None:
    copy = settled_copy(tmp_path, monkeypatch)
    resolve_schema_dir(copy)
    main = copy / MAIN
    before = main.stat()
    with open(main, "r+b") as handle:  # the same size, the same inode
        handle.seek(100)
        handle.write(b"X")
    os.utime(main, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = main.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    for fresh in (False, True):  # in the process that recorded it, and in the next run
        if fresh:
            new_process(monkeypatch)
        hashed.clear()
        with pytest.raises(SchemaError) as failed:
            resolve_schema_dir(copy)
        assert [d.message for d in failed.value.diagnostics] == [
            f"--schemas {copy}: {MAIN} does not match its pinned sha256 "
            f"(got {hashlib.new('sha256', main.read_bytes()).hexdigest()[:12]}…, expected {schemas.pins()['files'][MAIN]['sha256'][:12]}…)"]
        assert len(hashed) == 1


def test_a_file_replaced_by_another_is_hashed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int]) -> None:
    copy = settled_copy(tmp_path, monkeypatch)
    resolve_schema_dir(copy)
    main = copy / MAIN
    shutil.copy2(SCHEMAS / MAIN, tmp_path / "same.xsd")
    os.replace(tmp_path / "same.xsd", main)  # the same bytes and mtime, another inode
    new_process(monkeypatch)
    hashed.clear()
    assert resolve_schema_dir(copy) == copy
    assert len(hashed) == 1


def test_a_fresh_file_is_not_recorded(tmp_path: Path, hashed: list[int]) -> None:
    """A file changed within the clock's tick after its stat would keep every number: a file is
    recorded only once its last change is some seconds old."""
    copy = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, copy)
    count = len(schemas.pins()["files"])
    resolve_schema_dir(copy)
    resolve_schema_dir(copy)
    assert len(hashed) == 2 * count
    assert not record().exists()


@pytest.mark.parametrize("damage", [
    b"", b"{not json", b"\xff\xfe", b"[]", b'{"version": 2, "folders": {}}', b'{"version": 1, "folders": []}',
    b'{"version": 1, "folders": {"FOLDER": []}}', b'{"version": 1, "folders": {"FOLDER": {"' + MAIN.encode() + b'": 7}}}',
    b'{"version": 1, "folders": {"FOLDER": {"' + MAIN.encode() + b'": [1, 2, 3, 4, 5, "00"]}}}',
])
def test_a_damaged_record_is_ignored_and_written_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int], damage: bytes) -> None:
    copy = settled_copy(tmp_path, monkeypatch)
    record().parent.mkdir(parents=True, exist_ok=True)
    record().write_bytes(damage.replace(b"FOLDER", str(copy).encode()))
    assert resolve_schema_dir(copy) == copy
    assert len(hashed) == len(schemas.pins()["files"])
    assert sorted(json.loads(record().read_bytes())["folders"][str(copy)]) == sorted(schemas.pins()["files"])


def test_a_record_claiming_a_changed_file_is_not_believed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int]) -> None:
    """The record is a cache, never the judge: an entry for a file whose stat is not the one
    recorded (here, a record made for the folder before a file was changed) is hashed."""
    copy = settled_copy(tmp_path, monkeypatch)
    resolve_schema_dir(copy)
    kept = record().read_bytes()
    (copy / MAIN).write_bytes((copy / MAIN).read_bytes() + b"\n")
    record().write_bytes(kept)
    new_process(monkeypatch)
    with pytest.raises(SchemaError):
        resolve_schema_dir(copy)


def test_a_check_hashes_each_schema_file_at_most_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int]) -> None:
    """The build looks at the folder twice (compiling the schemas beside the pipeline's import,
    then in the pipeline): the first look's verdicts serve the second."""
    from qti_builder.cached_build import build
    from qti_builder.results import BuildOptions

    copy = settled_copy(tmp_path, monkeypatch)
    monkeypatch.setenv("QTI_BUILDER_SCHEMAS", str(copy))
    result = build(BuildOptions(sources=[SEED_SOURCE], out_dir=tmp_path / "out", write=False))
    assert result.outputs and not result.diagnostics
    assert len(hashed) == len(schemas.pins()["files"])


def test_an_entry_recorded_against_another_pin_is_hashed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int]) -> None:
    """A new version of the tool may pin another file: a file recorded as matching the old pin,
    unchanged since, is hashed against the new one."""
    copy = settled_copy(tmp_path, monkeypatch)
    resolve_schema_dir(copy)
    written = json.loads(record().read_bytes())
    written["folders"][str(copy)][MAIN][-1] = "0" * 64
    record().write_text(json.dumps(written))
    new_process(monkeypatch)
    hashed.clear()
    assert resolve_schema_dir(copy) == copy
    assert len(hashed) == 1


def test_the_record_follows_the_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int]) -> None:
    """Read once by the process, but from the cache folder of the moment: a process whose cache
    folder moves (each test's own) neither writes into the old one nor trusts what it held."""
    copy = settled_copy(tmp_path, monkeypatch)
    resolve_schema_dir(copy)
    first = record()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "elsewhere"))
    first.unlink()
    hashed.clear()
    resolve_schema_dir(copy)
    assert len(hashed) == len(schemas.pins()["files"])
    assert record() == tmp_path / "elsewhere" / "qti-builder" / "schemas-verified.json" and record().is_file() and not first.exists()


def test_the_record_keeps_the_folders_verified_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[int]) -> None:
    monkeypatch.setattr(schemas._Verified, "FOLDERS", 2)
    copies = [settled_copy(tmp_path / str(i), monkeypatch) for i in range(3)]
    for copy in copies:
        resolve_schema_dir(copy)
    assert list(json.loads(record().read_bytes())["folders"]) == [str(copies[1]), str(copies[2])]
