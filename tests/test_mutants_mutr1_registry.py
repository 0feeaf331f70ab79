"""Which reader reads a source, and reading one within the limits (readers/registry.py), as the
author meets it: the file read as Markdown or YAML, or the QB100 printed for it.

Each source is written here by hand, with its expected reading written out. (Issue 35's mutation
run over the readers: these tests kill the survivors of ``reader_for`` and ``read_quiz``.)
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from helpers import write
from helpers.cli import run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.limits import Limits
from qti_builder.model import EssayQuestion
from qti_builder.readers import read_quiz

MARKDOWN = "---\ntitle: Optics\n---\n\n1. Why is the sky blue? {#q1 type=essay}\n"
YAML = "title: Optics\nsections:\n  - id: s1\n    title: Part 1\n    questions:\n      - {type: essay, id: q1, stem: Why is the sky blue?}\n"


def problems(sink: DiagnosticSink) -> list[str]:
    return [f"{d.span.line}:{d.span.column}: {d.severity.value}[{d.code}]: {d.message} | hint: {d.hint}"
            for d in sink.sorted() if d.span]


def read(path: Path, limits: Limits = Limits(), partial: bool = False):  # type: ignore[no-untyped-def]
    sink = DiagnosticSink()
    # Without ``partial``, as the build and the importers call it (a quiz with errors is never theirs).
    return (read_quiz(path, sink, limits, partial=True) if partial else read_quiz(path, sink, limits)), problems(sink)


@pytest.mark.parametrize("name, text", [("OPTICS.MD", MARKDOWN), ("optics.Markdown", MARKDOWN), ("OPTICS.YML", YAML),
                                        ("optics.Yaml", YAML)])
def test_a_suffix_in_capitals_is_read_by_its_reader(tmp_path: Path, name: str, text: str) -> None:
    result, found = read(write(tmp_path, name, text))
    assert found == [] and result is not None
    (question,) = result[0].sections[0].questions
    assert isinstance(question, EssayQuestion) and question.stem == "Why is the sky blue?"


@pytest.mark.parametrize("name", ["optics.txt", "optics"])
def test_a_file_of_another_suffix_or_none_is_qb100_naming_the_suffixes_read(tmp_path: Path, name: str) -> None:
    suffix = os.path.splitext(name)[1]
    result, found = read(write(tmp_path, name, MARKDOWN))
    assert result is None
    assert found == [f"1:1: error[QB100]: no reader for '{suffix}' files | hint: quiz sources end in .md, .markdown, .yaml, .yml"]


def read_pipe(tmp_path: Path, name: str, text: str):  # type: ignore[no-untyped-def]
    """A named pipe (what `<(...)` gives: neither a file nor a folder) fed ``text``, read."""
    pipe = tmp_path / name
    os.mkfifo(pipe)

    def feed() -> None:
        with open(pipe, "w", encoding="utf-8") as out:
            out.write(text)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        return read(pipe)
    finally:
        writer.join(timeout=2)
        if writer.is_alive():  # the reader never opened it: a reader that does not wait lets the writer go
            drain = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
            writer.join()
            os.close(drain)


def stems(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [q.stem for q in result[0].iter_questions()]


def test_a_pipe_without_a_suffix_is_read_as_markdown(tmp_path: Path) -> None:
    result, found = read_pipe(tmp_path, "pasted", MARKDOWN)
    assert found == [] and result is not None and stems(result) == ["Why is the sky blue?"]


def test_a_pipe_with_a_suffix_is_read_by_its_suffix(tmp_path: Path) -> None:
    result, found = read_pipe(tmp_path, "pasted.yaml", YAML)
    assert found == [] and result is not None and stems(result) == ["Why is the sky blue?"]
    result, found = read_pipe(tmp_path, "pasted.txt", MARKDOWN)
    assert result is None
    assert found == ["1:1: error[QB100]: no reader for '.txt' files | hint: quiz sources end in .md, .markdown, .yaml, .yml"]


def test_standard_input_and_a_descriptor_are_read_as_markdown_even_from_a_file(tmp_path: Path) -> None:
    # `qti-builder check - < quiz` and `/dev/fd/N`: the shell hands over a regular file, which
    # has no suffix to go by; what is typed or pasted is Markdown.
    source = write(tmp_path, "typed", MARKDOWN.replace("title:", "id: typed\ntitle:"))  # /dev/fd/3 is no id
    with open(source, "rb") as typed:
        result, found = read(Path(f"/dev/fd/{typed.fileno()}"))
    assert found == [] and result is not None and stems(result) == ["Why is the sky blue?"]
    saved = os.dup(0)
    try:
        with open(source, "rb") as typed:
            os.dup2(typed.fileno(), 0)
        result, found = read(Path("/dev/stdin"))
    finally:
        os.dup2(saved, 0)
        os.close(saved)
    assert found == [] and result is not None and stems(result) == ["Why is the sky blue?"]


def test_a_missing_file_is_qb100_saying_why(tmp_path: Path) -> None:
    result, found = read(tmp_path / "gone.md")
    assert result is None
    assert found == ["1:1: error[QB100]: cannot read the file: No such file or directory | "
                     "hint: check that the file exists and that you may read it"]


def test_a_source_larger_than_the_limit_is_refused_and_one_of_the_limit_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, "optics.md", MARKDOWN + "\nSome words.\n" * 100)
    size = path.stat().st_size  # 64 + 100 * 13 = 1,364 bytes: over a thousand, written with a comma
    assert size == 1364
    result, found = read(path, Limits(max_source_bytes=size))
    assert found == [] and result is not None
    result, found = read(path, Limits(max_source_bytes=size - 1))
    assert result is None
    assert found == ["1:1: error[QB100]: the file is 1,364 bytes, more than the 1,363 bytes a source may have | "
                     "hint: raise the limit with --max-source-mb 1, or split it into several quizzes"]


BROKEN = "---\ntitle: Optics\n---\n\n1. Why is the sky blue? {#q1 type=essay}\n\n2. And red at dusk? {#q2 type=essay points=-1}\n"


def test_a_source_with_an_error_gives_its_good_questions_only_to_who_asks(tmp_path: Path) -> None:
    path = write(tmp_path, "optics.md", BROKEN)
    result, found = read(path)
    assert result is None and len(found) == 1 and "[QB201]" in found[0]
    result, found = read(path, partial=True)
    assert result is not None and result[1].partial
    assert [q.id for q in result[0].iter_questions()] == ["q1"]


def test_the_file_no_reader_takes_is_named_where_its_error_is_printed(tmp_path: Path) -> None:
    # Checking a folder of sources, the author must see which file has no reader: its path starts
    # the error line, at line 1, as for every other problem of a file.
    write(tmp_path, "optics.txt", MARKDOWN)
    code, _, err = run("check", "optics.txt", "--lang", "en", cwd=tmp_path)
    assert code == 1 and err.splitlines()[0] == "optics.txt:1:1: error[QB100]: no reader for '.txt' files", err
