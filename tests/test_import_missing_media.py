"""Every media reference an importer writes points at a file it extracted, or at a named
placeholder the build accepts (issue 32): one pass for every importer (base.localise_media). A
loose input's images are read beside it, never outside its folder; a package's are its own files.
Each input here is imported with ``qti-builder import``, then built with ``qti-builder build``,
and what the packages carry is read back from them."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from helpers.cli import run

#: A PNG's signature and some bytes: a file the import must carry as it is.
CAT = b"\x89PNG\r\n\x1a\n" + b"a cat beside the file"
#: A file outside the input's folder: no import may ever read it.
SECRET = b"\x89PNG\r\n\x1a\n" + b"SECRET-outside-the-input-folder"


def import_and_build(path: Path, tmp_path: Path, quiz_id: str) -> tuple[str, Path]:
    """Import ``path`` into ``tmp_path/src``, build its source; the import's messages and the
    source folder. Both commands must succeed."""
    code, out, err = run("import", str(path), "--out", str(tmp_path / "src"), cwd=tmp_path)
    assert code == 0, out + err
    source = tmp_path / "src" / f"{quiz_id}.md"
    assert [p.name for p in (tmp_path / "src").glob("*.md")] == [source.name], out + err
    code, bout, berr = run("build", str(source), "--out", str(tmp_path / "dist"), cwd=tmp_path)
    assert code == 0, bout + berr
    return err, tmp_path / "src"


def canvas_files(tmp_path: Path, quiz_id: str) -> list[bytes]:
    """The files the built Canvas package carries."""
    with zipfile.ZipFile(tmp_path / "dist" / f"{quiz_id}.canvas.zip") as archive:
        return [archive.read(name) for name in archive.namelist()]


def assert_placeholder(source: Path, name: str, missing: str) -> bytes:
    """The placeholder ``media/<name>`` was written, says which file is missing, and the source shows it."""
    placeholder = source / "media" / name
    assert placeholder.is_file(), sorted(p.name for p in (source / "media").iterdir())
    data = placeholder.read_bytes()
    assert data.startswith(b"<svg") and f"missing: {missing}".encode() in data
    assert f"media/{name}" in next(source.glob("*.md")).read_text(encoding="utf-8")
    return data


def qb714(err: str) -> list[str]:
    return [line for line in err.splitlines() if "warning[QB714]" in line]


def test_a_gift_image_that_is_missing_is_a_named_placeholder(tmp_path: Path) -> None:
    """The case of the issue: the GIFT file's image is not beside it. It was written as it was
    (pic/cat.png), with no warning, and the build refused the source (QB160)."""
    gift = tmp_path / "in" / "q.gift"
    gift.parent.mkdir()
    gift.write_text('::Q1:: Look <img src="pic/cat.png" alt="a cat"> here {=yes ~no}\n', encoding="utf-8")
    err, source = import_and_build(gift, tmp_path, "q")
    (warning,) = qb714(err)
    assert warning.endswith("q.gift:1:1: warning[QB714]: media file 'pic/cat.png' is not beside q.gift; the placeholder "
                            "media/missing-cat.png.svg shows where it was"), err
    assert "put the file in the source's media/ folder and refer to it instead of media/missing-cat.png.svg" in err
    placeholder = assert_placeholder(source, "missing-cat.png.svg", "cat.png")
    assert "pic/cat.png" not in (source / "q.md").read_text(encoding="utf-8")
    assert placeholder in canvas_files(tmp_path, "q")


def test_an_image_beside_a_loose_input_is_extracted(tmp_path: Path) -> None:
    """GIFT, text2qti and Moodle XML files: an image in a folder beside the file comes along with
    its bytes, and no warning is given."""
    folder = tmp_path / "in"
    (folder / "pic").mkdir(parents=True)
    (folder / "pic" / "cat.png").write_bytes(CAT)
    inputs = {
        "q.gift": '::Q1:: Look <img src="pic/cat.png" alt="a cat"> here {=yes ~no}\n',
        "t.txt": "Quiz title: t\n\n1.  What is this? ![a cat](pic/cat.png)\n*a) a cat\nb) a dog\n",
        "m.xml": ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz><question type="multichoice"><name><text>Q</text></name>\n'
                  '<questiontext format="html"><text><![CDATA[<p>See <img src="pic/cat.png" alt="a cat"></p>]]></text></questiontext>\n'
                  '<single>true</single><answer fraction="100"><text>a cat</text></answer>'
                  '<answer fraction="0"><text>a dog</text></answer></question></quiz>\n'),
    }
    for name, text in inputs.items():
        (folder / name).write_text(text, encoding="utf-8")
        run_dir = tmp_path / name.replace(".", "-")
        run_dir.mkdir()
        quiz_id = {"q.gift": "q", "t.txt": "t", "m.xml": "quiz-6158dde9"}[name]  # Moodle XML names no quiz: its id is a hash
        err, source = import_and_build(folder / name, run_dir, quiz_id)
        assert not qb714(err), (name, err)
        assert [p.name for p in (source / "media").iterdir()] == ["cat.png"], name
        assert (source / "media" / "cat.png").read_bytes() == CAT
        assert "media/cat.png" in (source / f"{quiz_id}.md").read_text(encoding="utf-8")
        assert CAT in canvas_files(run_dir, quiz_id), name


def test_a_loose_input_never_reads_outside_its_folder(tmp_path: Path) -> None:
    """A hostile file names files outside its folder: by climbing out of it, by an absolute path,
    through a link that leaves it, and a hidden file inside it. None is read: each is a
    placeholder, with a warning naming it, and the source builds."""
    (tmp_path / "secret.png").write_bytes(SECRET)
    folder = tmp_path / "in"
    (folder / ".keys").mkdir(parents=True)
    (folder / ".keys" / "key.png").write_bytes(SECRET)
    (folder / "link.png").symlink_to(tmp_path / "secret.png")
    absolute = (tmp_path / "secret.png").as_posix()
    refs = ["../secret.png", "../../etc/passwd", absolute, "link.png", ".keys/key.png"]
    text = " ".join(f'<img src="{ref}" alt="r{n}">' for n, ref in enumerate(refs))
    (folder / "h.gift").write_text(f"::H:: Which? {text} {{=yes ~no}}\n", encoding="utf-8")
    err, source = import_and_build(folder / "h.gift", tmp_path, "h")
    warnings = qb714(err)
    assert len(warnings) == len(refs), err
    for ref in refs:
        assert any(f"media file '{ref}'" in w for w in warnings), (ref, err)
    assert "media file '../secret.png' leaves the folder of h.gift, and is not read" in err
    assert f"media file '{absolute}' is an absolute path, which is not read" in err
    assert "media file '.keys/key.png' is a hidden file, which is not read" in err
    assert "media file 'link.png' is a link out of the folder of h.gift, and is not read" in err
    written = b"".join(p.read_bytes() for p in (source / "media").iterdir())
    assert b"SECRET" not in written and b"root:" not in written
    assert all(b"SECRET" not in data for data in canvas_files(tmp_path, "h"))
    assert {p.name for p in (source / "media").iterdir()} == {"missing-secret.png.svg", "missing-passwd.svg", "missing-link.png.svg",
                                                            "missing-key.png.svg"}


def test_text2qti_image_that_is_missing_is_a_placeholder(tmp_path: Path) -> None:
    path = tmp_path / "in" / "cells.txt"
    path.parent.mkdir()
    path.write_text("Quiz title: cells\n\n1.  What is this? ![a cell](figures/cell%20one.png)\n*a) a cell\nb) a stone\n", encoding="utf-8")
    err, source = import_and_build(path, tmp_path, "cells")
    (warning,) = qb714(err)
    assert "cells.txt:3:1: warning[QB714]: media file 'figures/cell one.png' is not beside cells.txt" in warning
    assert_placeholder(source, "missing-cell-one.png.svg", "cell one.png")


def test_aiken_text_is_plain_and_reads_no_file(tmp_path: Path) -> None:
    """Aiken is plain text: an <img> in it is the text it shows, never a file read."""
    folder = tmp_path / "in"
    (folder / "pic").mkdir(parents=True)
    (folder / "pic" / "cat.png").write_bytes(CAT)
    (folder / "a.txt").write_text('Which tag shows <img src="pic/cat.png"> here?\nA) an image\nB) a link\nANSWER: A\n', encoding="utf-8")
    err, source = import_and_build(folder / "a.txt", tmp_path, "a")
    assert not qb714(err) and not (source / "media").exists()
    assert 'src="pic/cat.png"' in (source / "a.md").read_text(encoding="utf-8")


QTI21_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="litmus-manifest">
  <organizations/>
  <resources>
    <resource identifier="litmus" type="imsqti_item_xmlv2p1" href="items/litmus.xml"><file href="items/litmus.xml"/></resource>
  </resources>
</manifest>
"""
QTI21_ITEM = """<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="litmus" title="Litmus" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>red</value></correctResponse>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>
    <p>What colour does the paper turn?</p>
    <p><img src="images/paper.png" alt="litmus paper"/> <img src="images/here.png" alt="the scale"/></p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
      <simpleChoice identifier="red">Red <img src="../../etc/passwd" alt="red"/></simpleChoice>
      <simpleChoice identifier="blue">Blue</simpleChoice>
    </choiceInteraction>
  </itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
</assessmentItem>
"""


def test_a_qti21_package_image_it_lacks_is_a_placeholder(tmp_path: Path) -> None:
    """A QTI 2.1 package whose item shows a file the package lacks: the image is a placeholder,
    reported at the element that shows it; the image it holds is extracted; a path that climbs
    out of the package is missing (a package's files are only its own)."""
    package = tmp_path / "litmus.zip"
    with zipfile.ZipFile(package, "w") as archive:
        archive.writestr("imsmanifest.xml", QTI21_MANIFEST)
        archive.writestr("items/litmus.xml", QTI21_ITEM)
        archive.writestr("items/images/here.png", CAT)
    err, source = import_and_build(package, tmp_path, "litmus")
    warnings = qb714(err)
    assert len(warnings) == 2, err
    assert "litmus.zip:items/litmus.xml:9:1: warning[QB714]: media file 'images/paper.png' is not in the package; the placeholder " \
           "media/missing-paper.png.svg shows where it was" in warnings
    assert any("media file '../../etc/passwd' is not in the package" in w for w in warnings), err
    placeholder = assert_placeholder(source, "missing-paper.png.svg", "paper.png")
    assert (source / "media" / "here.png").read_bytes() == CAT
    assert placeholder in canvas_files(tmp_path, "litmus") and CAT in canvas_files(tmp_path, "litmus")


QTI12 = """<?xml version="1.0" encoding="UTF-8"?>
<questestinterop>
  <assessment ident="cells" title="Cells">
    <section ident="S1">
      <item ident="I1" title="Cell">
        <presentation>
          <material><mattext texttype="text/html">&lt;p&gt;What is this? &lt;img src="pic/cat.png" alt="here"&gt; &lt;img src="gone.png" alt="gone"&gt;&lt;/p&gt;</mattext></material>
          <response_lid ident="R1" rcardinality="Single">
            <render_choice>
              <response_label ident="A"><material><mattext>a cat</mattext></material></response_label>
              <response_label ident="B"><material><mattext>a dog</mattext></material></response_label>
            </render_choice>
          </response_lid>
        </presentation>
        <resprocessing>
          <outcomes><decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="1"/></outcomes>
          <respcondition><conditionvar><varequal respident="R1">A</varequal></conditionvar><setvar action="Set" varname="SCORE">1</setvar></respcondition>
        </resprocessing>
      </item>
    </section>
  </assessment>
</questestinterop>
"""


@pytest.mark.parametrize("packed", [False, True], ids=["lone-file", "zip"])
def test_qti12_images_are_extracted_or_placeholders(tmp_path: Path, packed: bool) -> None:
    """A plain QTI 1.2 file: alone, its image beside it is extracted (it was a placeholder, "not in
    the package"); in a zip that lacks it, the same image is a placeholder. The file neither has
    is a placeholder both ways."""
    folder = tmp_path / "in"
    (folder / "pic").mkdir(parents=True)
    (folder / "pic" / "cat.png").write_bytes(CAT)
    (folder / "quiz.xml").write_text(QTI12, encoding="utf-8")
    path = folder / "quiz.xml"
    if packed:
        path = tmp_path / "quiz.zip"
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("quiz.xml", QTI12)
    err, source = import_and_build(path, tmp_path, "cells")
    warnings = qb714(err)
    assert_placeholder(source, "missing-gone.png.svg", "gone.png")
    if packed:
        assert len(warnings) == 2 and any("media file 'pic/cat.png' is not in the package" in w for w in warnings), err
        assert_placeholder(source, "missing-cat.png.svg", "cat.png")
    else:
        (warning,) = warnings
        assert "quiz.xml:5:1: warning[QB714]: media file 'gone.png' is not beside quiz.xml" in warning
        assert (source / "media" / "cat.png").read_bytes() == CAT
        assert CAT in canvas_files(tmp_path, "cells")


def test_an_image_shown_as_code_is_left_as_text(tmp_path: Path) -> None:
    """A question about HTML shows a tag as code: the build reads no image there, and the import
    neither reads a file for it nor changes the text."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "c.txt").write_text("Quiz title: c\n\n1.  What does `<img src=\"cat.png\">` show? ![a dog](dog.png)\n*a) an image\nb) a link\n",
                                  encoding="utf-8")
    err, source = import_and_build(folder / "c.txt", tmp_path, "c")
    text = (source / "c.md").read_text(encoding="utf-8")
    assert '`<img src="cat.png">`' in text and "media/missing-dog.png.svg" in text
    assert [w for w in qb714(err) if "cat.png" in w] == []


def test_an_answer_that_names_an_image_is_what_the_student_types(tmp_path: Path) -> None:
    """A short answer "<img src="a.png">" (a quiz about HTML) is what the student types, not a
    file: only a question's Markdown texts are read for media, so the answer stays as it is."""
    path = tmp_path / "in" / "tags.xml"
    path.parent.mkdir()
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<quiz><question type="shortanswer"><name><text>Tag</text></name>\n'
                    '<questiontext format="html"><text><![CDATA[<p>Write the tag that shows a.png.</p>]]></text></questiontext>\n'
                    '<answer fraction="100" format="plain_text"><text>&lt;img src="a.png"&gt;</text></answer>\n'
                    '</question></quiz>\n', encoding="utf-8")
    code, out, err = run("import", str(path), "--out", str(tmp_path / "src"), cwd=tmp_path)
    assert code == 0 and not qb714(err), out + err
    (source,) = (tmp_path / "src").glob("*.md")
    assert 'Answer: <img src="a.png">' in source.read_text(encoding="utf-8")
    assert not (tmp_path / "src" / "media").exists()
    code, bout, berr = run("build", str(source), "--out", str(tmp_path / "dist"), cwd=tmp_path)
    assert code == 0, bout + berr
