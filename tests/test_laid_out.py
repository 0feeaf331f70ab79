"""Zip members laid out once where they are compressed (``package.LaidOut``: a chunk's QTI 2.1
items as one block of local headers and data, and one of central records with offsets from the
block's start) give the zip the same bytes as laying each member out on its own, wherever the
block lands (its records' offsets moved by one addition), whatever else the zip holds, in any
order; a block whose paths do not fall together, or laid out at another build time, is laid out
member by member; a block past the 4 GiB a zip without ZIP64 holds fails as one by one. And a
rebuild takes an unchanged chunk's block from the build cache without making its entries."""

from __future__ import annotations

import io
import pickle
import zipfile
from pathlib import Path

import pytest
from helpers.cli import run
from hypothesis import given, settings
from hypothesis import strategies as st
from test_watch_parted import _bank as _bank_of

from qti_builder import package, pipeline
from qti_builder.package import Entry, LaidOut, compress, zip_parts

_PATH = st.text(st.sampled_from("abq/é9"), min_size=1, max_size=4)


@st.composite
def _members(draw: st.DrawFn) -> tuple[list[Entry], list[Entry | LaidOut]]:
    """Entries (their paths may repeat), and the same cut in groups, some laid out, in any order."""
    paths = draw(st.lists(_PATH, min_size=1, max_size=14))
    entries = [compress(path, draw(st.binary(max_size=40))) for path in paths]
    groups: list[list[Entry]] = []
    rest = list(entries)
    while rest:
        size = draw(st.integers(1, len(rest)))
        groups.append(rest[:size])
        rest = rest[size:]
    groups = draw(st.permutations(groups))
    mixed: list[Entry | LaidOut] = []
    for group in groups:
        if draw(st.booleans()):
            mixed.append(LaidOut.of(draw(st.permutations(group))))
        else:
            mixed += group
    return entries, mixed


def _bank(sizes: tuple[int, ...], edits: dict[int, str] | None = None, ids: bool = False) -> str:
    """``test_watch_parted``'s bank, each question with an id of its number (``ids``), else one
    made from its text."""
    edits = edits or {}
    if ids:
        edits = {n: edits.get(n, f"Question {n}: which worker fails first? {{#q{n:03d}}}") for n in range(1, sum(sizes) + 1)}
    return _bank_of(sizes, edits)


def _one_by_one(mixed: list[Entry | LaidOut]) -> list[Entry]:
    return [e for m in mixed for e in (m if isinstance(m, LaidOut) else [m])]


@settings(max_examples=400, deadline=None)
@given(_members())
def test_laid_out_members_give_the_zip_of_their_entries(members: tuple[list[Entry], list[Entry | LaidOut]]) -> None:
    entries, mixed = members
    assert sorted(_one_by_one(mixed), key=lambda e: (e.path, e.data)) == sorted(entries, key=lambda e: (e.path, e.data))
    assert b"".join(zip_parts(mixed)) == b"".join(zip_parts(_one_by_one(mixed)))


def _entries(*paths: str) -> list[Entry]:
    return [compress(path, f"{path}{k}".encode()) for k, path in enumerate(paths)]


@pytest.mark.parametrize("mixed", [
    # a block whose first path is another block's last, given before it: equal paths in the order given
    lambda: [LaidOut.of(_entries("b", "c")), LaidOut.of(_entries("a", "b"))],
    lambda: [LaidOut.of(_entries("b", "c")), *_entries("a", "b")],
    lambda: [*_entries("b"), LaidOut.of(_entries("a", "b"))],
    lambda: [LaidOut.of(_entries("a", "c")), *_entries("b")],  # a member between a block's first and last
    lambda: [LaidOut.of(_entries("a", "a")), LaidOut.of(_entries("a"))],
    # a block after a loose member, both among an earlier block's paths (the block's "d" falls
    # between the later block's "c" and "e"): what the members before reach is their furthest last
    lambda: [LaidOut.of(_entries("a", "d", "f")), *_entries("b"), LaidOut.of(_entries("c", "e"))],
], ids=["blocks-meet", "entry-at-first", "entry-at-last", "entry-inside", "all-equal", "block-inside-an-earlier-block"])
def test_members_at_a_block_s_edges_are_in_the_order_one_by_one_gives(mixed) -> None:  # type: ignore[no-untyped-def]
    members = mixed()
    assert b"".join(zip_parts(members)) == b"".join(zip_parts(_one_by_one(members)))


def test_a_block_lands_after_other_members_with_its_offsets_moved() -> None:
    """Three blocks of paths that fall together, after a loose member, the zip read back."""
    data = {f"items/q{n:03d}.xml": b"<q>%d</q>" % n * (n % 7) for n in range(30)}
    entries = [compress(path, content) for path, content in data.items()]
    mixed: list[Entry | LaidOut] = [LaidOut.of(entries[20:]), entries[0], LaidOut.of(entries[1:10]), LaidOut.of(entries[10:20])]
    mine = b"".join(zip_parts(mixed))
    assert mine == b"".join(zip_parts(entries))
    with zipfile.ZipFile(io.BytesIO(mine)) as archive:
        assert archive.testzip() is None
        assert {name: archive.read(name) for name in archive.namelist()} == data


def test_a_block_laid_out_at_another_time_is_laid_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = [compress(f"items/q{n}.xml", b"%d" % n) for n in range(5)]
    block = LaidOut.of(entries)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert b"".join(zip_parts([block])) == b"".join(zip_parts(entries)) != block.local


@settings(max_examples=200, deadline=None)
@given(_members(), st.integers(0, 400))
def test_a_block_past_the_zip_s_limit_fails_as_its_entries_do(members: tuple[list[Entry], list[Entry | LaidOut]],
                                                              limit: int) -> None:
    """With the limit of a member's offset and sizes made small, laid out or not, the same
    members give the same bytes, or both fail."""
    _, mixed = members
    real = package._ZIP32_LIMIT
    package._ZIP32_LIMIT = limit
    try:
        def made(members: list[Entry | LaidOut]) -> bytes | str:
            try:
                return b"".join(zip_parts(members))
            except ValueError as error:
                return str(error)

        assert made(mixed) == made(_one_by_one(mixed))
    finally:
        package._ZIP32_LIMIT = real


def test_a_block_pickles_and_reads_as_its_entries_in_their_order() -> None:
    entries = [compress(path, path.encode() * 3) for path in ("b", "a", "é", "a")]
    block = pickle.loads(pickle.dumps(LaidOut.of(entries)))
    assert list(block) == entries and block == entries and block[1:3] == entries[1:3]
    assert block.paths == ["b", "a", "é", "a"] and len(block) == 4


@pytest.mark.parametrize("damage", ["column", "offsets"])
def test_a_damaged_block_is_refused_when_unpickled(damage: str) -> None:
    block = LaidOut.of([compress("a", b"x"), compress("b", b"y")])
    stamp, local, central, offsets, columns = block.__reduce__()[1]
    if damage == "column":
        columns = (*columns[:-1], columns[-1][:1])
    else:
        offsets = offsets[:-1]
    with pytest.raises(ValueError):
        LaidOut(stamp, local, central, offsets, columns)


def test_a_rebuild_makes_no_entry_of_an_unchanged_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        build_cache: Path) -> None:
    """A bank in chunks of 4, built, one question edited, rebuilt: the QTI 2.1 package a
    ``--no-cache`` build's, and of the chunks taken from the cache none read as entries but the
    edited question's, which the rebuild parts (``pipeline._parted_by_hand``)."""
    monkeypatch.setattr(pipeline, "CHUNK", 4)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", 2)
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 10_000)
    monkeypatch.setattr(pipeline, "_SUMMARIES", {})
    source, out, fresh = tmp_path / "bank.md", tmp_path / "out", tmp_path / "fresh"
    # ids that sort in the quiz's order, as the plain bank's (q00000...): each chunk's items fall
    # together in the zip
    source.write_text(_bank((12, 12), ids=True), "utf-8")
    assert run("build", str(source), "--format", "qti21", "--out", str(out))[0] == 0
    source.write_text(_bank((12, 12), edits={10: "Question 10: edited? {#q010}"}, ids=True), "utf-8")
    read: list[int] = []
    real = LaidOut.__getitem__

    def counted(self: LaidOut, index: int | slice):  # type: ignore[no-untyped-def]
        read.append(len(self))
        return real(self, index)

    monkeypatch.setattr(LaidOut, "__getitem__", counted)
    stored: list[tuple[int, str]] = []  # each chunk's entry written: its questions, how its zip members are kept
    real_store = pipeline.store_chunk

    def storing(key: str, result: pipeline.TaskResult, *rest: object, **options: object) -> None:
        stored.append((len(result.task.questions), type(result.entries).__name__))
        real_store(key, result, *rest, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "store_chunk", storing)
    assert run("build", str(source), "--format", "qti21", "--out", str(out))[0] == 0
    assert zipfile.ZipFile(out / "bank.qti21.zip").namelist()[2:5] == ["items/q001.xml", "items/q002.xml", "items/q003.xml"]
    # the edited question's chunk of 4, parted (each entry read once), and its small chunk of 2
    # rendered again, put together with the other (each read once): none of the five others
    assert sorted(read) == [2, 2, 4, 4, 4, 4], read
    # the chunk put together again (pipeline._Rejoined), laid out; the small chunk rendered is not
    # kept under its own key (pipeline._State.parted: no rebuild by hand looks it up)
    assert stored == [(4, "LaidOut")], stored
    assert run("build", str(source), "--format", "qti21", "--no-cache", "--out", str(fresh))[0] == 0
    assert (out / "bank.qti21.zip").read_bytes() == (fresh / "bank.qti21.zip").read_bytes()


def test_chunks_whose_items_fall_among_each_other_s_are_laid_out_member_by_member(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                                  build_cache: Path) -> None:
    """Ids made from the questions' texts do not sort in the quiz's order: each chunk's items fall
    among other chunks' in the zip, and the rebuild's package is still a ``--no-cache`` build's."""
    monkeypatch.setattr(pipeline, "CHUNK", 4)
    monkeypatch.setattr(pipeline, "WARM_CHUNK", 2)
    source, out, fresh = tmp_path / "bank.md", tmp_path / "out", tmp_path / "fresh"
    source.write_text(_bank((12, 12)), "utf-8")
    assert run("build", str(source), "--format", "qti21", "--out", str(out))[0] == 0
    source.write_text(_bank((12, 12), edits={10: "Question 10: edited?"}), "utf-8")
    assert run("build", str(source), "--format", "qti21", "--out", str(out))[0] == 0
    assert run("build", str(source), "--format", "qti21", "--no-cache", "--out", str(fresh))[0] == 0
    assert (out / "bank.qti21.zip").read_bytes() == (fresh / "bank.qti21.zip").read_bytes()
