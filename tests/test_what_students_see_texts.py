"""Every question's text reaches the student, in every output and for every kind.

Written for survivors of the template mutation run (issue 35): a Canvas short answer whose
``<material>`` with the question's text was left out passed every test. The expected texts are
read here from the source file itself (yaml.safe_load, not the project's reader), and each output
is read as what its LMS shows: Canvas's ``mattext`` and Moodle's ``questiontext`` hold HTML as
text (its text content is what students read), QTI 2.1's ``itemBody`` is XHTML.
"""

from __future__ import annotations

import base64
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

import lxml.html
import pytest
import yaml
from lxml import etree

from helpers import QTI_NS, ROOT, write, zip_members
from helpers.outputs import Outputs, build_all
from qti_builder import BuildOptions, build

FIXTURE = ROOT / "tests" / "fixtures" / "all-types.yaml"


def _questions(section: dict) -> Iterator[dict]:
    yield from section.get("questions", [])
    for inner in section.get("sections", []):
        yield from _questions(inner)


def _stated_texts() -> dict[str, str]:
    """Each question's text as the source states it, its Markdown emphasis marks and its blanks
    left out: the longest run of plain words, which every output must show as it is."""
    source = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
    texts = {}
    for section in source["sections"]:
        for question in _questions(section):
            plain = re.sub(r"[*_`]", "", question["stem"])
            texts[question["id"]] = max(re.split(r"\[\[[^\]]*\]\]", plain), key=len).strip()
    return texts


STATED = _stated_texts()


def _words(html: str) -> str:
    return " ".join(lxml.html.fromstring(f"<div>{html}</div>").text_content().split())


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    return build_all(tmp_path_factory.mktemp("texts"), FIXTURE)


def test_the_fixture_has_a_question_of_every_kind_with_a_text() -> None:
    kinds = {q["type"] for s in yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))["sections"] for q in _questions(s)}
    assert {"single_choice", "multiple_response", "true_false", "short_answer", "numerical", "essay", "file_upload",
            "matching", "ordering", "fill_in_blank", "text_only"} <= kinds
    assert all(len(text) >= 10 for text in STATED.values()), STATED


@pytest.mark.parametrize("question_id", sorted(STATED))
def test_canvas_shows_each_question_s_text(outputs: Outputs, question_id: str) -> None:
    item = outputs.canvas_item(question_id)
    shown = " ".join(_words("".join(m.itertext())) for m in item.iterfind("presentation/material/mattext"))
    assert STATED[question_id] in shown, f"Canvas shows {shown!r} for {question_id!r}"


@pytest.mark.parametrize("question_id", sorted(STATED))
def test_moodle_shows_each_question_s_text(outputs: Outputs, question_id: str) -> None:
    question = outputs.moodle_question(question_id)
    shown = _words(question.findtext("questiontext/text") or "")
    assert STATED[question_id] in shown, f"Moodle shows {shown!r} for {question_id!r}"


@pytest.mark.parametrize("question_id", sorted(STATED))
def test_qti21_shows_each_question_s_text(outputs: Outputs, question_id: str) -> None:
    body = outputs.qti_item(question_id).find(f"{{{QTI_NS}}}itemBody")
    shown = " ".join("".join(body.itertext()).split())
    assert STATED[question_id] in shown, f"the QTI 2.1 item shows {shown!r} for {question_id!r}"


PASSAGE = """---
title: 지문 읽기
language: ko
---

[1~2] 다음 글을 읽고 물음에 답하시오.

강물은 봄이 되면 얼음을 깨고 바다로 흘러간다.

1. 윗글에서 강물이 흘러가는 곳은?
① 바다
② 산
정답: ①

2. 윗글에서 강물이 얼음을 깨는 때는?
① 봄
② 겨울
정답: ①
"""


def test_a_shared_passage_is_shown_with_each_of_its_questions_in_every_output(tmp_path: Path) -> None:
    """docs/source-format.md: every question of a passage's range shows it above its own text, in
    all three outputs (survivor: the Canvas item's text without its passage)."""
    outputs = build_all(tmp_path, write(tmp_path, "passage.md", PASSAGE))
    ids = [q.id for q in outputs.quiz.iter_questions()]
    assert len(ids) == 2
    passage, stems = "강물은 봄이 되면 얼음을 깨고 바다로 흘러간다.", ["강물이 흘러가는 곳은?", "강물이 얼음을 깨는 때는?"]
    for question_id, stem in zip(ids, stems):
        canvas = " ".join(_words("".join(m.itertext()))
                          for m in outputs.canvas_item(question_id).iterfind("presentation/material/mattext"))
        moodle = _words(outputs.moodle_question(question_id).findtext("questiontext/text") or "")
        qti = " ".join("".join(outputs.qti_item(question_id).find(f"{{{QTI_NS}}}itemBody").itertext()).split())
        for name, shown in (("Canvas", canvas), ("Moodle", moodle), ("QTI 2.1", qti)):
            assert passage in shown and stem in shown, f"{name} shows {shown!r}"
            assert shown.index(passage) < shown.index(stem), f"{name} shows the passage after the question: {shown!r}"


PICTURE = """---
title: A picture
---

1. What does the picture show? ![Three boxes](media/boxes.png) {#pic}

A) Boxes
B) Circles

Answer: A
"""


def test_a_qti21_item_s_picture_is_a_file_of_the_package_listed_in_its_manifest(tmp_path: Path) -> None:
    """A QTI 2.1 player finds a picture by its src relative to the item's own file, and a
    content package carries only the files its manifest lists."""
    picture = (ROOT / "source" / "media" / "workers.png").read_bytes()
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "boxes.png").write_bytes(picture)
    outputs = build_all(tmp_path, write(tmp_path, "picture.md", PICTURE))
    listed = {f.get("href") for f in etree.fromstring(outputs.qti["imsmanifest.xml"]).iter(
        "{http://www.imsglobal.org/xsd/imscp_v1p1}file")}
    item_path = next(p for p in outputs.qti if p.startswith("items/") and p.endswith("pic.xml"))
    images = list(outputs.qti_item("pic").iter(f"{{{QTI_NS}}}img"))
    assert [i.get("alt") for i in images] == ["Three boxes"]
    target = posixpath.normpath(posixpath.join(posixpath.dirname(item_path), images[0].get("src")))
    assert target in listed and outputs.qti.get(target) == picture, (target, sorted(outputs.qti))


SECTION_PICTURE = """---
title: Section pictures
---

# Part one {#part}

Study the chart first: ![A bar chart](media/chart.png)

1. Is the chart about bars? {#bars type=true_false}

Answer: True
"""


def test_a_qti21_section_s_picture_is_a_file_of_the_package_listed_in_its_manifest(tmp_path: Path) -> None:
    """A section's description is shown in the assessment test: its picture is found from the
    test's own folder, and the package carries it, listed in the manifest."""
    picture = (ROOT / "source" / "media" / "workers.png").read_bytes()
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "chart.png").write_bytes(picture)
    source = write(tmp_path, "section.md", SECTION_PICTURE)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1))
    members = zip_members((tmp_path / "dist" / "section.qti21.zip").read_bytes())
    listed = {f.get("href") for f in etree.fromstring(members["imsmanifest.xml"]).iter(
        "{http://www.imsglobal.org/xsd/imscp_v1p1}file")}
    images = list(etree.fromstring(members["assessmentTest.xml"]).iter(f"{{{QTI_NS}}}img"))
    assert [i.get("alt") for i in images] == ["A bar chart"]
    target = posixpath.normpath(images[0].get("src"))
    assert target in listed and members.get(target) == picture, (target, sorted(members))


def test_a_description_s_picture_builds_every_output_and_moodle_xml_leaves_its_file_out(tmp_path: Path) -> None:
    """A quiz's and a section's description with a picture: every default output is written (the
    Moodle XML used to be refused whole, QB401, for a <file> in its category's <info>). Moodle's
    XML import keeps no files in a category's info (teachers' text), so the Moodle XML writes
    none there; the questions' own pictures are still files of their question, and the Moodle
    quiz backup carries the section's picture in its own file area."""
    picture = (ROOT / "source" / "media" / "workers.png").read_bytes()
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "chart.png").write_bytes(picture)
    text = SECTION_PICTURE.replace("title: Section pictures\n", "title: Section pictures\ndescription: 'See ![A bar chart](media/chart.png)'\n")
    text = text.replace("1. Is the chart about bars?", "1. Is ![A bar chart](media/chart.png) about bars?")
    source = write(tmp_path, "section.md", text)
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", jobs=1))  # raises BuildFailed on an error
    written = sorted(p.name for p in (tmp_path / "dist").iterdir())
    assert written == ["section.canvas.zip", "section.mbz", "section.moodle.xml", "section.qti21.zip"], written
    moodle = etree.parse(str(tmp_path / "dist" / "section.moodle.xml")).getroot()
    infos = moodle.findall("question[@type='category']/info")
    assert len(infos) == 2 and all(info.find("file") is None for info in infos)
    assert all("A bar chart" in info.findtext("text") for info in infos)
    (question,) = moodle.findall("question[@type='truefalse']")
    files = question.findall("questiontext/file")
    assert len(files) == 1 and base64.b64decode(files[0].text) == picture
