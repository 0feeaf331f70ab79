"""A commit renames each output over the file it replaces while that file has a second name beside
it (``staging._aside``, a hard link), so the rename does not free the old file's blocks (on ext4,
8 ms for a 17 MB file, which the next rename waited for); the second names are unlinked on a
thread, which ``Staging.discard`` waits for: once the staging is done with, only the new files
are in the folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from qti_builder import staging
from qti_builder.staging import Staging, write_files


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_an_output_replaces_its_old_file_while_that_has_a_second_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = tmp_path / "a.zip", tmp_path / "b.xml"
    old.write_bytes(b"old zip")
    links: dict[str, int] = {}
    real_replace = os.replace

    def replacing(source: str, target: str | Path) -> None:
        target = Path(target)
        links[target.name] = os.stat(target).st_nlink if target.exists() else 0
        real_replace(source, target)

    monkeypatch.setattr(staging.os, "replace", replacing)
    with Staging() as stage:
        stage.write(old, [b"new ", b"zip"])
        stage.write_soon(new, [b"<quiz/>"])
        stage.commit()
        assert old.read_bytes() == b"new zip" and new.read_bytes() == b"<quiz/>"
        assert stage.dropping is not None, "the old file unlinked on a thread of its own"
    assert stage.dropping is None, "and waited for"
    assert links == {"a.zip": 2, "b.xml": 0}, "the old file had its second name when replaced; a new one none"
    assert _listing(tmp_path) == ["a.zip", "b.xml"], "the second names unlinked once the staging is done with"


def test_without_links_the_rename_replaces_the_file_as_ever(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_link(*args: object, **kwargs: object) -> None:
        raise PermissionError("no hard links here")

    monkeypatch.setattr(staging.os, "link", no_link)
    target = tmp_path / "a.mbz"
    target.write_bytes(b"old")
    write_files([(target, b"new")])
    assert target.read_bytes() == b"new" and _listing(tmp_path) == ["a.mbz"]


def test_builds_one_after_another_leave_only_their_files(tmp_path: Path) -> None:
    for k in range(3):
        write_files([(tmp_path / "a.zip", b"zip %d" % k), (tmp_path / "b.xml", b"xml %d" % k)])
        assert _listing(tmp_path) == ["a.zip", "b.xml"]
        assert (tmp_path / "a.zip").read_bytes() == b"zip %d" % k


def test_a_failed_commit_leaves_the_old_files_and_no_second_name(tmp_path: Path) -> None:
    (tmp_path / "a.zip").write_bytes(b"old zip")
    (tmp_path / "b.xml").mkdir()  # a folder where the file should go: its rename fails
    with Staging() as stage:
        stage.write(tmp_path / "a.zip", [b"new zip"])
        stage.write(tmp_path / "b.xml", [b"<quiz/>"])
        with pytest.raises(staging.WriteError):
            stage.commit()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".tmp")) == ["a.zip", "b.xml"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".old")]


def test_a_second_name_gone_before_it_is_dropped_leaves_the_others_dropped(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The thread that unlinks the replaced files' second names goes on past one already gone
    (mutant: the first FileNotFoundError ends it, and the next second name stays in the folder)."""
    real = staging._aside

    def aside_gone_at_once(target: Path) -> str | None:
        name = real(target)
        if name is not None and target.name == "a.zip":
            os.unlink(name)  # gone before the drop gets to it
        return name

    monkeypatch.setattr(staging, "_aside", aside_gone_at_once)
    for name in ("a.zip", "b.xml"):
        (tmp_path / name).write_bytes(b"old")
    write_files([(tmp_path / "a.zip", b"new zip"), (tmp_path / "b.xml", b"new xml")])
    assert _listing(tmp_path) == ["a.zip", "b.xml"]
    assert (tmp_path / "b.xml").read_bytes() == b"new xml"
