"""Imports are hostile input (SECURITY.md, "Imports"): entities, zip slips, links and zip bombs are
refused with a clear diagnostic, nothing of them is imported or written, and nothing is fetched."""

from __future__ import annotations

import io
import os
import stat
import time
import zipfile
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.importing import FIXTURES

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import import_path
from qti_builder.importers.safety import MAX_ENTRIES, ImportLimits

QUESTION = """<question type="truefalse"><name><text>T</text></name>
<questiontext format="html"><text>{text}</text></questiontext>
<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>"""


def refused(path: Path, code: str) -> list[str]:
    sink = DiagnosticSink()
    assert import_path(path, path.name, sink) == []
    found = [d.render() for d in sink.errors]
    assert any(f"error[{code}]" in m for m in found), found
    return found


def test_xxe_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    path = tmp_path / "xxe.xml"
    path.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file://{secret}">]>\n<quiz>'
                    + QUESTION.format(text="&xxe;") + "</quiz>", encoding="utf-8")
    found = refused(path, "QB702")
    assert "XXE" in " ".join(found) and "TOP-SECRET" not in " ".join(found)
    code, out, err = run("import", str(path), "--out", str(tmp_path / "source"))
    assert code == 1 and not (tmp_path / "source").exists() and "TOP-SECRET" not in out + err


def test_billion_laughs_is_refused_quickly(tmp_path: Path) -> None:
    entities = ['<!ENTITY lol "lol">'] + [f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10)]
    path = tmp_path / "laughs.xml"
    path.write_text('<?xml version="1.0"?>\n<!DOCTYPE quiz [' + "".join(entities) + "]>\n<quiz>"
                    + QUESTION.format(text="&lol9;") + "</quiz>", encoding="utf-8")
    start = time.monotonic()
    refused(path, "QB702")
    assert time.monotonic() - start < 5


def test_entities_inside_a_qti_package_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "package.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for file in (FIXTURES / "onyx-package").rglob("*"):
            if file.is_file() and file.name != "Item_tf.xml":
                archive.write(file, file.relative_to(FIXTURES / "onyx-package").as_posix())
        archive.writestr("Item_tf.xml", '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                                        '<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1">&e;</assessmentItem>')
    sink = DiagnosticSink()
    quizzes = import_path(path, path.name, sink)
    assert any("QB702" in d.render() and "Item_tf.xml" in d.render() for d in sink.errors)
    assert "root:" not in str([q.quiz.model_dump() for q in quizzes])


def test_external_dtd_is_not_fetched(tmp_path: Path) -> None:
    """A DOCTYPE naming a remote DTD, without entities: parsed without loading it (no network)."""
    path = tmp_path / "dtd.xml"
    path.write_text('<?xml version="1.0"?>\n<!DOCTYPE quiz SYSTEM "http://198.51.100.1/quiz.dtd">\n<quiz>'
                    + QUESTION.format(text="Fine.") + "</quiz>", encoding="utf-8")
    start = time.monotonic()
    sink = DiagnosticSink()
    quizzes = import_path(path, path.name, sink)
    assert time.monotonic() - start < 5 and quizzes and not sink.errors


def test_deep_nesting_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "deep.xml"
    path.write_text("<quiz>" + "<a>" * 100_000 + "</a>" * 100_000 + "</quiz>", encoding="utf-8")
    refused(path, "QB701")


def zip_with(path: Path, entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("imsmanifest.xml", (FIXTURES / "onyx-package/imsmanifest.xml").read_bytes())
        for info, data in entries:
            archive.writestr(info, data)
    return path


def onyx_zip_with(path: Path, entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> Path:
    """The whole Onyx package, and ``entries`` besides."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted((FIXTURES / "onyx-package").rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(FIXTURES / "onyx-package").as_posix())
        for info, data in entries:
            archive.writestr(info, data)
    return path


def skipped_entries(path: Path) -> str:
    """Import ``path``: it gives its quiz, and one warning names the entries skipped."""
    sink = DiagnosticSink()
    quizzes = import_path(path, path.name, sink)
    assert len(quizzes) == 1 and not sink.errors, [d.render() for d in sink.sorted()]
    (warning,) = [d.render() for d in sink.sorted() if d.code == "QB717"]
    return warning


# A zip entry whose path leaves the package is never written, or read, outside it. An absolute
# path (or a drive) is skipped and named. A path that climbs out ('../x') is read as the file it
# names below the package's root (issue 32: Blackboard and R/exams exports repeat every file under
# '../', and may hold the manifest that links a pool only there); a copy of a file the package
# holds is left alone. A zip of nothing but unreadable entries is still refused.
@pytest.mark.parametrize("name", ["/etc/evil.xml", "C:/evil.xml"])
def test_absolute_entries_are_skipped_and_named(tmp_path: Path, name: str) -> None:
    path = onyx_zip_with(tmp_path / "slip.zip", [(name, b"<x/>")])
    warning = skipped_entries(path)
    assert "slip.zip:1:1: warning[QB717]: 1 unsafe entry of the zip skipped, the rest read" in warning
    assert f"'{name}' points outside the package" in warning
    code, out, err = run("import", str(path), "--out", str(tmp_path / "out" / "source"), "--allow-skipped")  # the package's hot spot item is skipped
    assert code == 0, err
    assert not (tmp_path / "evil.xml").exists() and not (tmp_path / "out" / "evil.xml").exists()
    assert [p.name for p in (tmp_path / "out" / "source").glob("*.md")]


@pytest.mark.parametrize(("name", "inside"), [("../evil.xml", "evil.xml"), ("../../tmp/evil.xml", "tmp/evil.xml"),
                                              ("items/../../evil.xml", "evil.xml"), ("..\\evil.xml", "evil.xml")])
def test_climbing_entries_are_read_inside_the_package(tmp_path: Path, name: str, inside: str) -> None:
    path = onyx_zip_with(tmp_path / "slip.zip", [(name, b"<x/>")])
    warning = skipped_entries(path)
    assert f"slip.zip:1:1: warning[QB717]: entry '{name}' points outside the package; read as '{inside}', inside it" in warning
    code, out, err = run("import", str(path), "--out", str(tmp_path / "out" / "source"), "--allow-skipped")
    assert code == 0, err
    assert not (tmp_path / "evil.xml").exists() and not (tmp_path / "out" / "evil.xml").exists()
    assert not (tmp_path / "tmp").exists() and not list((tmp_path / "out").rglob("evil.xml"))


def test_a_zip_of_only_unsafe_entries_is_refused(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "evil.zip", "w") as archive:
        archive.writestr("/imsmanifest.xml", b"<manifest/>")
        archive.writestr("C:/item.xml", b"<x/>")
    found = refused(tmp_path / "evil.zip", "QB703")
    assert "every entry is unsafe: '/imsmanifest.xml' points outside the package" in " ".join(found)


def test_every_file_repeated_under_dotdot_is_read_once(tmp_path: Path) -> None:
    """R/exams' Blackboard export: each file twice, once under '../'. The copies are counted, not read."""
    files = sorted(p for p in (FIXTURES / "onyx-package").rglob("*") if p.is_file())
    path = onyx_zip_with(tmp_path / "rexams.zip", [("../" + f.relative_to(FIXTURES / "onyx-package").as_posix(), f.read_bytes())
                                                   for f in files])
    warning = skipped_entries(path)
    assert f"{len(files)} entries under '../' repeat files the package holds; the package's own copies are read" in warning


def test_symlink_entry_is_skipped(tmp_path: Path) -> None:
    info = zipfile.ZipInfo("extra/passwd.xml")
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    assert "'extra/passwd.xml' is a symbolic link" in skipped_entries(onyx_zip_with(tmp_path / "link.zip", [(info, b"/etc/passwd")]))


def test_symlink_out_of_a_package_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "package"
    folder.mkdir()
    (folder / "imsmanifest.xml").write_bytes((FIXTURES / "onyx-package/imsmanifest.xml").read_bytes())
    outside = tmp_path / "outside.xml"
    outside.write_text("<secret/>", encoding="utf-8")
    os.symlink(outside, folder / "Item_tf.xml")
    found = refused(folder, "QB703")
    assert "outside the package" in " ".join(found)


def test_zip_bomb_is_refused(tmp_path: Path) -> None:
    bomb = b"\0" * (8 * 1024 * 1024)  # compresses about 1000:1
    found = refused(zip_with(tmp_path / "bomb.zip", [("Item_tf.xml", bomb)]), "QB703")
    assert "zip bomb" in " ".join(found)


def test_too_many_entries_are_refused(tmp_path: Path) -> None:
    # The limit is an option (250,000 by default: a QTI 2.1 bank holds a file per question); a
    # package past the one given is refused, and the error says how to raise it.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for n in range(101):
            archive.writestr(f"f{n}.txt", b"")
    path = tmp_path / "many.zip"
    path.write_bytes(buffer.getvalue())
    sink = DiagnosticSink()
    assert import_path(path, "many.zip", sink, "qti21", ImportLimits(max_entries=100)) == []
    assert [(d.code, d.message, d.hint) for d in sink.items] == [
        ("QB703", "refused: the zip has 101 entries, more than the 100 a package may have",
         "if the input is a real export, raise the limit with --max-entries")]
    assert MAX_ENTRIES >= 100_000


def test_scripts_in_imported_html_are_reported_and_kept_out_of_the_source(tmp_path: Path) -> None:
    path = tmp_path / "hostile.xml"
    path.write_text("<quiz>" + QUESTION.format(text='<![CDATA[<p onclick="steal()">Hi<script>alert(1)</script>'
                                               '<img src="javascript:alert(2)" alt="x"></p>]]>') + "</quiz>", encoding="utf-8")
    code, out, err = run("import", str(path), "--out", str(tmp_path / "source"))
    assert code == 0, err
    assert "QB712" in err and "<script>" in err and "onclick" in err
    text = (tmp_path / "source/hostile.md").read_text(encoding="utf-8")
    assert "script" not in text and "onclick" not in text and "javascript" not in text
