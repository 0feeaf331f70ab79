"""``qti-builder schemas fetch`` and where the schemas are found: the official files fetched and
checked against their pins (from a local HTTP server standing in for a mirror, and through a
stand-in for the official servers), relative --schemas and QTI_BUILDER_SCHEMAS, and one clear
message for a wrong folder."""

from __future__ import annotations

import functools
import os
import hashlib
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import SCHEMAS, SEED_SOURCE
from helpers.cli import run

from qti_builder.schemas import pins

FILES = pins()["files"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """An HTTP server on 127.0.0.1 serving a copy of the schema folder: (its URL, the copy)."""
    root = tmp_path / "served"
    shutil.copytree(SCHEMAS, root)
    handler = functools.partial(_Quiet, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/", root
    finally:
        httpd.shutdown()
        httpd.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def same_files(folder: Path) -> bool:
    return all(hashlib.sha256((folder / rel).read_bytes()).hexdigest() == pin["sha256"] for rel, pin in FILES.items())


def test_fetch_from_a_mirror_over_http_then_build_with_the_folder(tmp_path: Path, server: tuple[str, Path]) -> None:
    url, _ = server
    code, out, err = run("schemas", "fetch", "--to", "schemas", "--mirror", url, cwd=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines()[-2:] == [
        f"schemas: {len(FILES)} official schema files, each matching its pinned sha256 ({len(FILES)} fetched, 0 already there)",
        "use it with --schemas schemas or QTI_BUILDER_SCHEMAS=schemas",
    ]
    assert same_files(tmp_path / "schemas")
    code, out, _ = run("schemas", "fetch", "--to", "schemas", "--mirror", url, cwd=tmp_path)
    assert code == 0 and f"(0 fetched, {len(FILES)} already there)" in out
    code, out, err = run("build", str(SEED_SOURCE), "--schemas", "schemas", "--out", "dist", cwd=tmp_path)
    assert (code, err) == (0, "")


def test_a_file_that_does_not_match_its_pin_is_not_stored(tmp_path: Path, server: tuple[str, Path]) -> None:
    url, served = server
    xml = served / "w3c" / "xml.xsd"
    xml.chmod(0o644)
    xml.write_bytes(xml.read_bytes() + b"<!-- changed -->\n")
    code, out, err = run("schemas", "fetch", "--to", "schemas", "--mirror", url, cwd=tmp_path)
    assert code == 1
    assert f"{url}w3c/xml.xsd does not match its pinned sha256; not stored" in err
    assert not (tmp_path / "schemas" / "w3c" / "xml.xsd").exists()
    assert (tmp_path / "schemas" / "qti21" / "imsqti_v2p1.xsd").is_file()  # the others were kept


def test_fetch_from_the_official_urls_into_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    by_url = {pin["url"]: SCHEMAS / rel for rel, pin in FILES.items()}
    asked: list[str] = []

    def official_server(url: str) -> bytes:  # stands in for the 1EdTech, W3C and GitHub servers
        asked.append(url)
        return by_url[url].read_bytes()

    monkeypatch.setattr("qti_builder.schemas._http_get", official_server)
    monkeypatch.setattr("qti_builder.schemas.default_cache_dir", lambda: tmp_path / "cache")
    monkeypatch.delenv("QTI_BUILDER_SCHEMAS")
    code, out, err = run("schemas", "fetch", cwd=tmp_path)
    assert (code, err) == (0, "") and sorted(asked) == sorted(by_url)
    assert same_files(tmp_path / "cache")
    # The cache is where a build looks when neither --schemas nor the variable is given.
    asked.clear()
    assert run("check", str(SEED_SOURCE), cwd=tmp_path)[0] == 0 and asked == []


def test_relative_schema_folders_are_taken_from_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(SCHEMAS, tmp_path / "shared" / "schemas")
    work = tmp_path / "project" / "sub"
    work.mkdir(parents=True)
    monkeypatch.setenv("QTI_BUILDER_SCHEMAS", "../../shared/schemas")
    code, _, err = run("build", str(SEED_SOURCE), "--out", "dist", "--jobs", "2", cwd=work)
    assert (code, err) == (0, "")
    monkeypatch.delenv("QTI_BUILDER_SCHEMAS")
    code, _, err = run("check", str(SEED_SOURCE), "--schemas", "../../shared/schemas", cwd=work)
    assert (code, err) == (0, "")


@pytest.mark.parametrize(("given", "says"), [
    ("../../shared", f"has none of the {len(FILES)} official schema files (a schema folder holds qti21/imsqti_v2p1.xsd, "
                     "qti12/imscp_v1p1.xsd, ...); did you mean ../../shared/schemas?"),
    ("../../shraed/schemas", "does not exist (a schema folder holds qti21/imsqti_v2p1.xsd, qti12/imscp_v1p1.xsd, ...)"),
])
def test_a_wrong_folder_is_one_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str, says: str) -> None:
    shutil.copytree(SCHEMAS, tmp_path / "shared" / "schemas")
    work = tmp_path / "project" / "sub"
    work.mkdir(parents=True)
    monkeypatch.setenv("QTI_BUILDER_SCHEMAS", given)
    code, out, err = run("check", str(SEED_SOURCE), cwd=work)
    assert code == 1
    first = err.splitlines()[0]
    assert first == f"error[QB401]: QTI_BUILDER_SCHEMAS={given} (= {os.path.abspath(work / given)}) {says}"
    assert err.count("error[QB401]") == 1


def test_a_build_whose_sources_all_fail_downloads_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The schemas compile while the sources are read, but a download into an empty cache waits
    until a quiz needs it: a build whose every source fails fetches nothing and reports only its
    sources' errors; with a good source it fetches every file and builds."""
    asked: list[str] = []
    by_url = {pin["url"]: SCHEMAS / rel for rel, pin in FILES.items()}

    def official_server(url: str) -> bytes:
        asked.append(url)
        return by_url[url].read_bytes()

    monkeypatch.setattr("qti_builder.schemas._http_get", official_server)
    monkeypatch.setattr("qti_builder.schemas.default_cache_dir", lambda: tmp_path / "cache")
    monkeypatch.delenv("QTI_BUILDER_SCHEMAS")
    broken = tmp_path / "broken.md"
    broken.write_text("---\ntitle: Broken\n---\n\n1. A question with no options\n", encoding="utf-8")
    code, _, err = run("build", str(broken), "--out", "dist", cwd=tmp_path)
    assert code == 1 and "broken.md:" in err and "QB40" not in err
    assert asked == [] and not (tmp_path / "cache").exists() and not (tmp_path / "dist").exists()
    code, _, err = run("build", str(SEED_SOURCE), "--out", "dist", cwd=tmp_path)
    assert (code, err) == (0, "") and sorted(asked) == sorted(by_url)


def test_an_unusable_folder_is_reported_only_when_a_quiz_needs_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder is tried while the sources are read; its error is the build's only when some
    quiz is good enough to validate, as before (the build then cannot start)."""
    monkeypatch.setenv("QTI_BUILDER_SCHEMAS", str(tmp_path / "nowhere"))
    broken = tmp_path / "broken.md"
    broken.write_text("---\ntitle: Broken\n---\n\n1. A question with no options\n", encoding="utf-8")
    code, _, err = run("build", str(broken), "--out", "dist", cwd=tmp_path)
    assert code == 1 and "broken.md:" in err and "QB401" not in err
    code, _, err = run("build", str(broken), str(SEED_SOURCE), "--out", "dist", cwd=tmp_path)
    assert code == 1 and err.count("error[QB401]") == 1
    assert not (tmp_path / "dist").exists()
