"""Big banks (issue 13): the importer's shortcuts give exactly what the long way gives, nothing in
it grows with the square of the bank, and a bank in the shape bench/import_bank.py measures
(questions of every type in sections, built to Moodle XML by qti-builder itself) imports, is
written as a source that reads back, and builds again."""

from __future__ import annotations

import re
import string
import sys
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.cli import run
from helpers.importing import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers.base import Ids, MediaStore
from qti_builder.importers.markup import _converted, html_to_markdown
from qti_builder.importers.markup.escaping import renders_as_text
from qti_builder.pipeline import BuildOptions, build
from qti_builder.readers import read_quiz
from qti_builder.limits import Limits
from qti_builder.writers import markdown_source

sys.path.insert(0, str(ROOT / "bench"))
from bank import generate, to_markdown  # noqa: E402  (bench/ is not a package)

#: Text runs near the edge of the one-paragraph shortcut: Markdown's and HTML's special
#: characters, spaces of all kinds, digits that start lists, Korean.
_EDGY = st.text(alphabet=string.ascii_letters[:6] + " 1.)-*_#>|[]$\\`~!:=+<&'\"\u00a0\t\n가", min_size=1, max_size=14)


@settings(max_examples=400, deadline=None)
@given(_EDGY)
def test_one_paragraph_shortcut_gives_what_the_converter_gives(text: str) -> None:
    fragment = f"<p>{text}</p>".strip()
    assert html_to_markdown(fragment) == _converted.__wrapped__(fragment)


def test_one_paragraph_shortcut_by_hand() -> None:
    # Plain: the text itself, exact.
    assert html_to_markdown("<p>The trial</p>").markdown == "The trial"
    assert html_to_markdown("<p>트라이얼 / 데이터셋: 설명입니다.</p>").markdown == "트라이얼 / 데이터셋: 설명입니다."
    # Not plain: the converter escapes what would otherwise mean something.
    assert html_to_markdown("<p>a [[b]]</p>").markdown == "a \\[\\[b]]"
    # A number that would start a list: not the shortcut's (the converter keeps it as HTML).
    assert html_to_markdown("<p>1. item</p>").raw
    assert html_to_markdown("<p>*not em*</p>").markdown == "\\*not em\\*"
    assert html_to_markdown("<p>a  b</p>").markdown == "a b"


def test_renders_as_text_by_hand() -> None:
    assert renders_as_text("The trial, again.")
    assert renders_as_text("a < b")  # escaped as the expected paragraph is
    assert not renders_as_text("*em*")
    assert not renders_as_text("- item")


def test_ids_take_the_next_free_suffix_and_reuse_a_released_one() -> None:
    ids = Ids()
    assert [ids.claim(None, "Question") for _ in range(4)] == ["Question", "Question-2", "Question-3", "Question-4"]
    assert ids.claim("Question-6", "x") == "Question-6"
    assert ids.claim(None, "Question") == "Question-5"
    assert ids.claim(None, "Question") == "Question-7"  # 6 was taken by name
    ids.release("Question-3")
    assert ids.claim(None, "Question") == "Question-3"
    assert ids.claim(None, "Question") == "Question-8"


def test_ids_of_many_alike_titles_stay_unique_and_in_order() -> None:
    ids = Ids()
    claimed = [ids.claim(None, "q") for _ in range(20_000)]
    assert claimed[:3] == ["q", "q-2", "q-3"] and claimed[-1] == "q-20000"
    assert len(set(claimed)) == 20_000


def test_media_of_the_same_bytes_is_one_file() -> None:
    media = MediaStore()
    assert media.add("a.png", b"one") == "media/a.png"
    assert media.add("b.png", b"one") == "media/a.png"
    second = media.add("a.png", b"two")
    assert second.startswith("media/a-") and second.endswith(".png")  # same name, other bytes: hashed
    assert media.add("c.png", b"two") == second
    assert list(media.files) == ["media/a.png", second]


# -- a bank, end to end -------------------------------------------------------------------------

#: The shape bench/import_bank.py measures at 10,000 and 50,000 questions: bench/bank.py's mixed
#: bank (every type in turn, Korean and English, code and math) in sections of 200, built to
#: Moodle XML by qti-builder. 1,500 questions: eight sections, the last one short.
BANK_SIZE = 1_500


def test_a_bank_imports_into_a_source_that_reads_back_and_builds(tmp_path: Path) -> None:
    source = tmp_path / f"bank-{BANK_SIZE}.md"
    source.write_text(to_markdown(generate(BANK_SIZE), f"bank-{BANK_SIZE}"), encoding="utf-8")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"], jobs=1))
    moodle = tmp_path / "dist" / f"bank-{BANK_SIZE}.moodle.xml"

    code, out, err = run("import", str(moodle), "--out", "imported", cwd=tmp_path)
    assert code == 0, err
    # 1,500 questions cycle through the 11 types: 136 rounds and 4 more (the first four types).
    assert out.splitlines()[0] == (
        "imported 1500 questions from dist/bank-1500.moodle.xml as quiz 'bank-1500': 137 single choice, 137 multiple response, "
        "137 true/false, 137 short answer, 136 numerical, 136 essay, 136 file upload, 136 matching, 136 ordering, "
        "136 fill-in-the-blank, 136 text-only item")
    assert sorted(p.name for p in (tmp_path / "imported").iterdir()) == ["bank-1500.md"]  # Markdown, not YAML

    sink = DiagnosticSink()
    read = read_quiz(tmp_path / "imported" / "bank-1500.md", sink)
    assert read is not None and not sink.errors
    quiz, _ = read
    assert [s.title for s in quiz.sections] == [f"Part {n}" for n in range(1, 9)]
    assert [len(s.questions) for s in quiz.sections] == [200] * 7 + [100]
    assert [q.id for q in quiz.iter_questions()] == [f"q{n:05d}" for n in range(BANK_SIZE)]
    # The imported source builds the same Moodle XML as the bank it came from.
    build(BuildOptions(sources=[tmp_path / "imported"], out_dir=tmp_path / "again", formats=["moodle"], jobs=1))
    assert (tmp_path / "again" / "bank-1500.moodle.xml").read_bytes() == moodle.read_bytes()


def test_a_quiz_no_source_can_hold_is_refused_naming_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The reader's size limit, made small: neither the Markdown nor the YAML of the quiz fits.
    small = Limits(max_source_bytes=1024)  # its Markdown is 1,824 bytes
    monkeypatch.setattr(markdown_source, "read_quiz", lambda path, sink: read_quiz(path, sink, small))
    probe = tmp_path / "probe.yaml"
    probe.write_text("x" * 2000, encoding="utf-8")
    sink = DiagnosticSink()
    assert read_quiz(probe, sink, small) is None
    (refusal,) = sink.errors  # what the build would say of the source, limit and all

    def not_built(quiz: object) -> str:
        raise AssertionError("the YAML form was built for a quiz whose Markdown is past the size limit")

    monkeypatch.setattr(markdown_source, "to_yaml", not_built)
    moodle = FIXTURES / "messy-moodle.xml"
    code, out, err = run("import", str(moodle), "--out", "imported", cwd=tmp_path)
    assert code == 1 and "AssertionError" not in err
    errors = [line for line in err.splitlines() if "error[" in line]
    assert len(errors) == 1 and errors[0].startswith(f"{moodle}:1:1: error[QB721]: quiz '")
    # Past the size limit as Markdown, the smaller form: the YAML is not built (issue 22: seconds
    # spent on a large bank's YAML that the reader refuses as well).
    assert "cannot be written as a source the build reads: as Markdown (its smaller form: the YAML is larger still), " in errors[0]
    sizes = re.compile(r"\d+")  # the files' sizes differ from the probe's
    assert sizes.sub("N", errors[0]).endswith(sizes.sub("N", refusal.message))
    assert "    hint: import it in parts (one quiz per category or section), so that each source is within the build's limits" \
        " (qti-builder docs source-format#limits)" in err.splitlines()
    assert "failed: 1 error; nothing was written" in err
    assert not (tmp_path / "imported").exists()


#: Paragraphs with inline code and math, and code blocks, as the build writes them: the direct
#: way (markup._direct) must give what the checked converter gives, or leave them to it.
_CODE = st.text(alphabet=string.ascii_letters[:4] + " <>&\"'`*_\\$()[]\n가", min_size=1, max_size=10)
_BLOCKS = st.lists(st.one_of(
    st.tuples(st.just("p"), st.lists(st.tuples(_EDGY, _CODE, st.booleans()), min_size=1, max_size=3)),
    st.tuples(st.just("pre"), st.tuples(_CODE, st.sampled_from(["", "python", "c++"]))),
), min_size=1, max_size=3)


@settings(max_examples=300, deadline=None)
@given(_BLOCKS)
def test_the_direct_way_gives_what_the_converter_gives(blocks: list) -> None:
    from html import escape

    parts = []
    for kind, body in blocks:
        if kind == "p":
            inline = "".join(escape(text, quote=False) + (f"<code>{escape(code, quote=False)}</code>" if with_code else "")
                             + (" \\(x^2\\)" if with_code and len(code) % 2 else "") for text, code, with_code in body)
            parts.append(f"<p>{inline}</p>")
        else:
            code, language = body
            attribute = f' class="language-{language}"' if language else ""
            parts.append(f"<pre><code{attribute}>{escape(code, quote=False)}\n</code></pre>")
    fragment = "\n".join(parts)
    assert html_to_markdown(fragment) == _converted.__wrapped__(fragment)


def test_the_direct_way_by_hand() -> None:
    from qti_builder.importers.markup import _direct

    assert _direct("<p>Which (<code>tune.Tuner</code>) \\(x^2\\)</p>") == "Which (`tune.Tuner`) $x^2$"
    assert _direct('<p>Run it:</p>\n<pre><code class="language-python">print("a &lt; b")\n</code></pre>') == \
        'Run it:\n\n```python\nprint("a < b")\n```'
    assert _direct("<p>a <b>bold</b></p>") is None  # other markup: the converter's
    assert _direct("<p>*not em*</p>") is None  # renders otherwise: the converter escapes it
