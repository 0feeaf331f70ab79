"""The floor: what any tool producing the same files must at least do, timed in a fresh process.

``python bench/floor.py cold SCHEMAS FILE...``: interpreter start, importing qti-builder's runtime
dependencies and compiling the official QTI 2.1 schema, then parsing, validating and zipping FILE
(the seed quiz's outputs). The caller times the whole process.

``python bench/floor.py files SCHEMAS FILE...``: compile the schemas afresh, then parse,
schema-validate and zip the produced files (a QTI package's members and a Moodle XML file);
prints the seconds of each step as JSON.

Neither uses qti-builder itself, so the floor does not move when qti-builder changes.
"""

from __future__ import annotations

import sys
import time

STARTED = time.perf_counter()

import io  # noqa: E402
import json  # noqa: E402
import zipfile  # noqa: E402
import zlib  # noqa: E402
from pathlib import Path  # noqa: E402

from lxml import etree  # noqa: E402

#: What a QTI + Moodle build needs whatever its design: the same libraries qti-builder imports.
DEPENDENCIES = ("jinja2", "pydantic", "markdown_it", "mdit_py_plugins.dollarmath", "mdit_py_plugins.texmath", "nh3",
                "latex2mathml.converter", "yaml", "typer", "platformdirs")
QTI = "qti21/imsqti_v2p1.xsd"
MANIFEST = "qti21/qtiv2p1_imscpv1p2_v1p0.xsd"
MOODLE = Path(__file__).resolve().parent.parent / "schemas" / "moodle-xml.xsd"
#: Official URLs imported by the QTI schemas -> files in the schema folder (the pins' aliases).
PINS = Path(__file__).resolve().parent.parent / "schemas" / "official-xsd.json"


class Local(etree.Resolver):
    def __init__(self, folder: Path) -> None:
        super().__init__()
        pins = json.loads(PINS.read_text("utf-8"))
        self.exact = {url: folder / rel for url, rel in pins["aliases"].items()}
        self.prefixes = [(url, folder / rel) for url, rel in pins["prefixes"].items()]

    def resolve(self, url, pubid, context):  # type: ignore[no-untyped-def]
        path = self.exact.get(url)
        for prefix, base in self.prefixes:
            if path is None and url and url.startswith(prefix):
                path = base / url[len(prefix):]
        return self.resolve_filename(str(path), context) if path else None


def compile_schema(folder: Path, entry: Path) -> etree.XMLSchema:
    parser = etree.XMLParser(no_network=True, resolve_entities=False)
    parser.resolvers.add(Local(folder))
    return etree.XMLSchema(etree.parse(str(entry), parser))


def members(paths: list[Path]) -> list[tuple[str, bytes]]:
    """Every XML document in the given files: a zip's members, or the file itself."""
    found = []
    for path in paths:
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                found += [(name, archive.read(name)) for name in archive.namelist()]
        else:
            found.append((path.name, path.read_bytes()))
    return found


def parse_validate_zip(schemas: dict[str, etree.XMLSchema], documents: list[tuple[str, bytes]]) -> dict[str, float]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    seconds = {}
    mark = time.perf_counter()
    trees = [(name, etree.fromstring(data, parser)) for name, data in documents if name.endswith(".xml")]
    seconds["parse"] = time.perf_counter() - mark
    mark = time.perf_counter()
    for name, tree in trees:
        schema = schemas["manifest" if name == "imsmanifest.xml" else "moodle" if name.endswith(".moodle.xml") else "qti"]
        if not schema.validate(tree):
            raise SystemExit(f"{name} is not valid: {schema.error_log.last_error}")
    seconds["validate"] = time.perf_counter() - mark
    mark = time.perf_counter()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=zlib.Z_DEFAULT_COMPRESSION) as archive:
        for name, data in sorted(documents):
            if not name.endswith(".moodle.xml"):
                archive.writestr(name, data)
    seconds["zip"] = time.perf_counter() - mark
    return seconds


def main() -> None:
    mode, folder, *files = sys.argv[1:]
    schema_dir = Path(folder)
    if mode == "cold":
        for name in DEPENDENCIES:
            __import__(name)
        schemas = {"qti": compile_schema(schema_dir, schema_dir / QTI)}
        schemas["manifest"] = compile_schema(schema_dir, schema_dir / MANIFEST)
        schemas["moodle"] = compile_schema(schema_dir, MOODLE)
        parse_validate_zip(schemas, members([Path(f) for f in files]))
        return
    documents = members([Path(f) for f in files])
    mark = time.perf_counter()
    schemas = {"qti": compile_schema(schema_dir, schema_dir / QTI), "manifest": compile_schema(schema_dir, schema_dir / MANIFEST),
               "moodle": compile_schema(schema_dir, MOODLE)}
    seconds = {"schemas": time.perf_counter() - mark, **parse_validate_zip(schemas, documents)}
    seconds["total"] = sum(seconds.values())
    print(json.dumps(seconds))


if __name__ == "__main__":
    main()
