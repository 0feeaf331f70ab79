"""One exam reader (issue 29): a paper built as a source and the same paper pasted, imported, then
built give the same bytes in every output (Canvas zip, QTI 2.1 zip, Moodle XML), for every exam
fixture; and what import writes imports and builds again to the same bytes.

The exam fixtures are walked, not listed: every ``tests/fixtures/exam/*.md`` (a source, pasted as a
teacher pastes it: its title on the first line, then its body) and every pasted paper of
``tests/fixtures/import/exam/`` (whose source is written here by hand from its file name: its
language, and its first line as the title). The quiz page beside them (the scraped Ray quiz) is a
web page, read by the quiz page reader, and is no exam paper.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.cli import run
from helpers.importing import pasted

from qti_builder.importers.quizpage.paper import page_form
from qti_builder.writers import DEFAULT_FORMATS

SOURCES = sorted((ROOT / "tests" / "fixtures" / "exam").glob("*.md"))
PASTED = [p for p in sorted((ROOT / "tests" / "fixtures" / "import" / "exam").glob("*.txt"))
          if page_form(p.read_text(encoding="utf-8"), markdown=False) is None]


def test_the_walk_finds_the_papers() -> None:
    # Eleven sources in nine languages (two matching tables among them), three pasted papers: a
    # fixture that stops being an exam paper (a page form slipped in) is seen here, not skipped.
    assert len(SOURCES) == 11 and len(PASTED) == 3
    assert {p.name.split(".")[1] for p in SOURCES} == {"ko", "ja", "zh", "en", "de", "fr", "es", "pt", "it"}


def by_hand(paper: Path, folder: Path) -> Path:
    """The source of a pasted paper as an author writes it: its language (from its file name) and
    its first line as the title in front matter, then the rest of the paper as pasted."""
    title, _, body = paper.read_text(encoding="utf-8").partition("\n")
    source = folder / (paper.stem + ".md")
    source.write_text(f"---\ntitle: \"{title}\"\nlanguage: {paper.stem.split('.')[-1]}\n---\n{body}", encoding="utf-8")
    return source


def built(source: Path, out: Path) -> dict[str, str]:
    """Every output of ``build`` (no cache), by file name, as a hash of its bytes."""
    code, _, err = run("build", str(source), "--out", str(out), "--no-cache")
    assert code == 0, err
    outputs = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir())}
    assert {Path(name).suffix for name in outputs} >= {".zip", ".xml"} and len(outputs) == len(DEFAULT_FORMATS), outputs
    return outputs


def said(err: str) -> list[str]:
    """The codes of the warnings printed, in order."""
    return [line.split("warning[", 1)[1][:5] for line in err.splitlines() if "warning[QB" in line]


def imported(text: Path, out: Path) -> tuple[Path, list[str]]:
    """The source import writes, and the codes of the warnings it printed (exit 0 all the same)."""
    code, _, err = run("import", str(text), "--out", str(out))
    assert code == 0 and all("warning[" in line or line.startswith(" ") for line in err.splitlines()), err
    (source,) = out.glob("*.md")
    return source, said(err)


@pytest.mark.parametrize("paper", SOURCES + PASTED, ids=lambda p: p.name)
def test_build_and_import_then_build_give_the_same_bytes(paper: Path, tmp_path: Path) -> None:
    source = paper if paper.suffix == ".md" else by_hand(paper, tmp_path)
    text = pasted(paper, tmp_path) if paper.suffix == ".md" else paper
    written, warned = imported(text, tmp_path / "source")
    assert written.name == source.name  # the same file name: the same quiz id, and the ids derived from it
    assert built(source, tmp_path / "a") == built(written, tmp_path / "b")
    # What the import warns about is what build warns about (biology-unit3's '46', QB171), nothing more.
    assert warned == said(run("check", str(source))[2])


@pytest.mark.parametrize("paper", SOURCES[:3] + PASTED[:1], ids=lambda p: p.name)
def test_what_import_writes_imports_and_builds_again_the_same(paper: Path, tmp_path: Path) -> None:
    text = pasted(paper, tmp_path) if paper.suffix == ".md" else paper
    first, _ = imported(text, tmp_path / "one")
    again, _ = imported(first, tmp_path / "two")
    assert again.read_bytes() == first.read_bytes()
    once = built(first, tmp_path / "a")
    assert built(again, tmp_path / "b") == once == built(first, tmp_path / "c")


def test_a_paper_with_an_error_is_refused_at_the_line_build_names(tmp_path: Path) -> None:
    """The reader's own errors, at the pasted paper's own lines and columns (build's, shifted by
    its front matter), and nothing written."""
    body = "1. 물이 끓는 온도는?\n① 0℃ ② 50℃ ③ 100℃\n정답: ⑤\n\n2. 지구의 위성은?\n① 달 ② 화성\n"
    source = tmp_path / "paper.md"
    source.write_text(f"---\ntitle: 시험\nlanguage: ko\n---\n{body}", encoding="utf-8")
    code, _, built_err = run("check", str(source))
    text = tmp_path / "paper.txt"
    text.write_text(f"시험\n{body}", encoding="utf-8")
    result, _, import_err = run("import", str(text), "--out", str(tmp_path / "source"))
    assert code == result == 1 and not (tmp_path / "source").exists()

    def located(err: str, name: str, shift: int) -> list[tuple[int, str]]:
        found = []
        for line in err.splitlines():
            if line.startswith(name + ":") and "error[" in line:
                where, _, what = line.partition(": ")
                _, row, column = where.split(":")
                found.append((int(row) + shift, column, what.split("]")[0]))  # the code (the message is in the quiz's language on build)
        return found

    from_build = located(built_err, str(source), -3)
    assert len(from_build) == 2 and from_build == located(import_err, str(text), 0)


def test_a_scraped_quiz_page_is_still_a_page() -> None:
    """The seed's forms: a bulleted question, glued options, '정답 보기' toggles, HTML, a table."""
    assert page_form("Quiz\n- Which?\n- A) x\n- B) y\n정답 보기\n정답: A\n", markdown=False)
    assert page_form("Quiz\n1. Which?\nA) x - B) y\nAnswer: A\n", markdown=False)
    assert page_form("Quiz\n1. Which?\nA) x\nB) y\n정답 보기\n정답: A\n", markdown=False)
    assert page_form("Quiz\n\n<details><summary>Answer</summary>A</details>\n", markdown=True)
    assert page_form("Quiz\n\n| Question | Answer |\n|---|---|\n| 1+1? | 2 |\n", markdown=True)
    assert page_form("Quiz\n1. Which?\nA) x\nB) y\nAnswer\nAnswer: A\n", markdown=False)
    assert page_form("시험\n\n1. 물이 끓는 온도는?\n① 0℃ ② 100℃\n정답: ②\n", markdown=False) is None
    # A bank's question without a number (an Aiken-like file), not a paper's; a title line before
    # a paper's '( 2 )학년' line is no question with options.
    assert page_form("What is it?\nA. one\nB. two\nANSWER: B\n\nAnd this?\nA. x\nB. y\nANSWER: A\n", markdown=False)
    assert page_form("시험\n( 2 )학년 (    )반\n1. 물이 끓는 온도는?\n① 0℃ ② 100℃\n정답: ②\n", markdown=False) is None
    # 'Answer' alone, then the answer: a paper's label on its own line, not a page's toggle.
    assert page_form("Quiz\n\n1. Name the process.\nAnswer\nmitosis\n", markdown=False) is None


def test_a_pasted_paper_is_decoded_as_build_decodes_a_source(tmp_path: Path) -> None:
    """A control character pasted in (a vertical tab): QB102 at its place, as build says it."""
    text = tmp_path / "paper.txt"
    text.write_text("시험\n\n1. 물이 끓는\x0b 온도는?\n① 0℃ ② 100℃\n정답: ②\n", encoding="utf-8")
    code, _, err = run("import", str(text), "--out", str(tmp_path / "source"))
    assert code == 1 and f"{text}:3:9: error[QB102]" in err, err
    assert not list(tmp_path.glob("source/**/*.md")), "a paper with an error gives no source"


def test_a_text_with_front_matter_is_a_source(tmp_path: Path) -> None:
    """Front matter with a title is a source's: read as build reads it (a misspelled key is QB106 at
    its line), never its lines read as the paper's title and text. (Another tool's key, such as
    ``author``, is left out with a warning: tests/test_foreign_front_matter.py.)"""
    text = tmp_path / "paper.txt"
    text.write_text("---\ntitle: 시험\nlangauge: ko\n---\n\n1. 물이 끓는 온도는?\n① 0℃ ② 100℃\n정답: ②\n", encoding="utf-8")
    code, _, err = run("import", str(text), "--out", str(tmp_path / "source"))
    assert code == 1 and [line.split(": ", 2)[:2] for line in err.splitlines() if "error[" in line] == [
        [f"{text}:3:1", "error[QB106]"]], err


def test_a_pasted_papers_image_goes_with_its_source(tmp_path: Path) -> None:
    """An image beside the paper is written beside the source under the same reference, so the
    source builds the same bytes as the paper written by hand beside it; a missing one is build's
    error (QB160) at its line of the paste, and nothing is written."""
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000" "1f15c4890000000d49444154789c6360000000000500010d0a2db40000000049454e44ae426082")
    body = "1. 이 세포 소기관은? ![미토콘드리아 사진](img/cell.png)\n① 핵 ② 미토콘드리아\n정답: ②\n"
    (tmp_path / "hand" / "img").mkdir(parents=True)
    (tmp_path / "hand" / "img" / "cell.png").write_bytes(png)
    source = tmp_path / "hand" / "paper.md"
    source.write_text(f"---\ntitle: 세포\nlanguage: ko\n---\n\n{body}", encoding="utf-8")
    (tmp_path / "paste" / "img").mkdir(parents=True)
    (tmp_path / "paste" / "img" / "cell.png").write_bytes(png)
    text = tmp_path / "paste" / "paper.txt"
    text.write_text(f"세포\n\n{body}", encoding="utf-8")
    written, _ = imported(text, tmp_path / "source")
    assert (tmp_path / "source" / "img" / "cell.png").read_bytes() == png
    assert built(source, tmp_path / "a") == built(written, tmp_path / "b")
    (tmp_path / "paste" / "img" / "cell.png").unlink()
    code, _, err = run("import", str(text), "--out", str(tmp_path / "again"))
    assert code == 1 and f"{text}:3:" in err and "error[QB160]" in err and not (tmp_path / "again").exists(), err


@pytest.mark.parametrize("first", ["Part I. Multiple Choice (2 pts each)", "1. Which organelle releases energy?"])
def test_a_paper_pasted_without_a_title_keeps_its_first_line(first: str, tmp_path: Path) -> None:
    """A paper whose first line is already its own (a section heading, a question) takes its
    title from the file's name, and that line stays the paper's, as build reads it."""
    body = f"{first}\nA) Nucleus\nB) Mitochondrion\nAnswer: B\n" if first.startswith("1.") else \
        f"{first}\n\n1. Which organelle releases energy?\nA) Nucleus\nB) Mitochondrion\nAnswer: B\n"
    text = tmp_path / "bio.txt"
    text.write_text(body, encoding="utf-8")
    written, _ = imported(text, tmp_path / "source")
    assert written.read_text(encoding="utf-8") == f"---\ntitle: bio\nlanguage: en\n---\n{body}"


def test_import_id_names_a_written_paper(tmp_path: Path) -> None:
    """``import --id``: the paper's source is written under that name, and a source that gives its
    own ``id:`` says the new one, so build gives the quiz the id asked for."""
    text = tmp_path / "paper.txt"
    text.write_text("---\ntitle: 시험\nid: old-id\nlanguage: ko\n---\n\n1. 물이 끓는 온도는?\n① 0℃ ② 100℃\n정답: ②\n", encoding="utf-8")
    code, _, err = run("import", str(text), "--out", str(tmp_path / "source"), "--id", "science-1")
    assert code == 0, err
    written = (tmp_path / "source" / "science-1.md").read_text(encoding="utf-8")
    assert "\nid: science-1\n" in written and "old-id" not in written
    assert {name.split(".")[0] for name in built(tmp_path / "source" / "science-1.md", tmp_path / "dist")} == {"science-1"}


def test_import_says_a_papers_errors_in_its_language_as_build_does(tmp_path: Path) -> None:
    """A Korean paper's error in Korean on both routes (the quiz's language), in English with --lang en."""
    body = "1. 물이 끓는 온도는?\n① 0℃ ② 100℃\n정답: ⑤\n"
    source = tmp_path / "paper.md"
    source.write_text(f"---\ntitle: 시험\nlanguage: ko\n---\n{body}", encoding="utf-8")
    text = tmp_path / "paper.txt"
    text.write_text(f"시험\n{body}", encoding="utf-8")
    built_err = run("check", str(source))[2]
    import_err = run("import", str(text), "--out", str(tmp_path / "source"))[2]
    message = next(line for line in built_err.splitlines() if "error[QB126]" in line).split("error[QB126]: ")[1]
    assert f"{text}:4:5: error[QB126]: {message}" in import_err and message.isascii() is False
    english = run("import", str(text), "--out", str(tmp_path / "source"), "--lang", "en")[2]
    assert f"{text}:4:5: error[QB126]: the answer names option 5, which does not exist" in english
