"""The floor: what any tool producing the same files must at least do, timed in a fresh process.

``python bench/floor.py cold SCHEMAS FILE...``: interpreter start, importing qti-builder's runtime
dependencies and compiling the official schemas (QTI 2.1, IMS CP, Moodle XML, and for the Canvas
package QTI 1.2.1's DTD, IMS CP 1.1 and its settings file's), then parsing, validating and
zipping FILE (the seed quiz's outputs). The caller times the whole process.

``python bench/floor.py files SCHEMAS FILE...``: compile the schemas afresh, then parse,
schema-validate and zip the produced files (the members of the QTI 2.1 and Canvas packages, each
by its own schema, and a Moodle XML file); prints the seconds of each step as JSON.

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
#: The Canvas package: QTI 1.2.1's DTD, IMS CP 1.1 for its manifest, the settings file's schema.
QTI12 = "qti12/ims_qtiasiv1p2p1.dtd"
CONTENT_PACKAGE = "qti12/imscp_v1p1.xsd"
CANVAS_META = Path(__file__).resolve().parent.parent / "schemas" / "canvas-quiz-meta.xsd"
#: The Canvas assessment's namespace and Canvas's extensions, which the DTD predates: any tool
#: validating the package against it sets them aside first (as qti-builder's canvas_rules does).
QTI12_NS = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
XSI_NS = "{http://www.w3.org/2001/XMLSchema-instance}"
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


def compile_all(folder: Path) -> dict[str, etree.XMLSchema | etree.DTD]:
    return {"qti": compile_schema(folder, folder / QTI), "manifest": compile_schema(folder, folder / MANIFEST),
            "moodle": compile_schema(folder, MOODLE), "qti12": etree.DTD(str(folder / QTI12)),
            "content-package": compile_schema(folder, folder / CONTENT_PACKAGE),
            "canvas-meta": compile_schema(folder, CANVAS_META)}


def members(paths: list[Path]) -> list[tuple[str, str, bytes]]:
    """Every document in the given files as (schema, name, data): a zip's members (a Canvas
    package's by their own schemas), or the file itself."""
    found = []
    for path in paths:
        if path.suffix == ".zip":
            canvas = path.name.endswith(".canvas.zip")
            with zipfile.ZipFile(path) as archive:
                for name in archive.namelist():
                    found.append((_schema(name, canvas), name, archive.read(name)))
        else:
            found.append(("moodle", path.name, path.read_bytes()))
    return found


def _schema(name: str, canvas: bool) -> str:
    if not name.endswith(".xml"):
        return ""  # media
    if canvas:
        return "content-package" if name == "imsmanifest.xml" else "canvas-meta" if name.endswith("/assessment_meta.xml") else "qti12"
    return "manifest" if name == "imsmanifest.xml" else "qti"


def dtd_view(root: etree._Element) -> None:
    """A QTI 1.2 document as the DTD can judge it: no namespace, no xsi: attributes, none of
    Canvas's extensions (a numerical answer's margin, a group's points per item)."""
    for element in root.iter(etree.Element):
        if element.tag.startswith(QTI12_NS):
            element.tag = element.tag[len(QTI12_NS):]
    for name in [n for n in root.attrib if n.startswith(XSI_NS)]:
        del root.attrib[name]
    for value in root.iter("varequal"):
        value.attrib.pop("margin", None)
        value.attrib.pop("margintype", None)
    for extension in root.iterfind(".//selection/selection_extension"):
        extension.getparent().remove(extension)
    etree.cleanup_namespaces(root)


def parse_validate_zip(schemas: dict[str, etree.XMLSchema | etree.DTD],
                       documents: list[tuple[str, str, bytes]]) -> dict[str, float]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    seconds = {}
    mark = time.perf_counter()
    trees = [(schema, name, etree.fromstring(data, parser)) for schema, name, data in documents if schema]
    seconds["parse"] = time.perf_counter() - mark
    mark = time.perf_counter()
    for schema_name, name, tree in trees:
        if schema_name == "qti12":
            dtd_view(tree)
        schema = schemas[schema_name]
        if not schema.validate(tree):
            raise SystemExit(f"{name} is not valid: {schema.error_log.last_error}")
    seconds["validate"] = time.perf_counter() - mark
    mark = time.perf_counter()
    for package in ("qti", "qti12"):  # each package zipped apart, as a tool writing it would
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=zlib.Z_DEFAULT_COMPRESSION) as archive:
            for schema, name, data in sorted(documents, key=lambda d: d[1]):
                if schema != "moodle" and (schema in ("qti12", "content-package", "canvas-meta")) == (package == "qti12"):
                    archive.writestr(name, data)
    seconds["zip"] = time.perf_counter() - mark
    return seconds


def main() -> None:
    mode, folder, *files = sys.argv[1:]
    schema_dir = Path(folder)
    if mode == "cold":
        for name in DEPENDENCIES:
            __import__(name)
        parse_validate_zip(compile_all(schema_dir), members([Path(f) for f in files]))
        return
    documents = members([Path(f) for f in files])
    mark = time.perf_counter()
    schemas = compile_all(schema_dir)
    seconds = {"schemas": time.perf_counter() - mark, **parse_validate_zip(schemas, documents)}
    seconds["total"] = sum(seconds.values())
    print(json.dumps(seconds))


if __name__ == "__main__":
    main()
