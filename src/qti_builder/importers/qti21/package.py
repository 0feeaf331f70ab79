"""One QTI 2.1 package: the manifest (title, description, language, which files are items and
tests), the test (sections, their selection and ordering, item weights) and the text and media
files the items show. Each item is then read by :class:`.item.ItemReader`."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from lxml import etree

from ...diagnostics import DiagnosticSink, SourceSpan
from ...plurals import plural
from ..base import LOST, MEDIA, UNSUPPORTED, ImportedQuiz, QuizBuilder, markdown_from_html, one_line
from ..markup import plain_to_markdown, qti_fragment
from ..safety import Package, normalise_member, parse_xml
from .context import ItemRef
from .item import ItemReader
from .settings import test_settings
from .xml import Data, _float, child, children, descendants, local


#: An image, or a recording with its sources, in HTML; the attributes that name a file; a URL
#: that is not a file of the package (a scheme, or a fragment).
MEDIA_ELEMENT = re.compile(r"<img\b[^>]*>|<(audio|video)\b[^>]*>.*?</\1>", re.S)
ATTRIBUTE = re.compile(r"\b(src|data)=(\"|')([^\"']+)\2")
EXTERNAL = re.compile(r"^([a-z][a-z0-9+.-]*:|#)", re.I)


class PackageReader:
    def __init__(self, path: Path, package: Package, sink: DiagnosticSink) -> None:
        self.path, self.package, self.sink = path, package, sink
        self.display = package.display
        self.builder = QuizBuilder(self.display, sink)
        self.ours = False
        self.quiz_id: str | None = None
        self.languages: list[str] = []

    def span(self, member: str, element: etree._Element | None = None) -> SourceSpan:
        """A place inside the package: ``package.zip:items/q1.xml:12:1``; for a loose input, the
        file beside it: ``quiz/items/q1.xml:12:1``."""
        line = (element.sourceline or 1) if element is not None else 1
        if member == PurePosixPath(self.display).name or member == self.display:
            return SourceSpan(self.display, line, 1)
        if self.package.folder is not None:
            parent = PurePosixPath(self.display).parent
            return SourceSpan(str(parent / member) if str(parent) != "." else member, line, 1)
        return SourceSpan(f"{self.display}:{member}", line, 1)

    def xml(self, member: str, where: SourceSpan | None = None, kind: str | None = None) -> etree._Element | None:
        """The root of an XML file of the package; a missing one is reported (and, when it is a
        question's, ``kind``, counted as a question skipped)."""
        data = self.package.file(member)
        if data is None:
            place = f"no such file beside {PurePosixPath(self.display).name}" if self.package.folder is not None else "the package has no such file"
            hint = "import the whole package (its folder or zip) instead" if self.package.folder is not None else None
            if kind:
                self.builder.skip(kind, MEDIA, f"{kind} '{member}' is referred to here, but {place}; skipped",
                                  where or SourceSpan(self.display), hint=hint)
            else:
                self.builder.warn(MEDIA, f"'{member}' is referred to here, but {place}; skipped", where or SourceSpan(self.display), hint=hint)
            return None
        tree = parse_xml(data, self.span(member).path, self.sink)
        return tree.getroot() if tree is not None else None

    # -- package structure ---------------------------------------------------------------------

    def read(self) -> ImportedQuiz | None:
        manifest_name = min((n for n in self.package.files if n.lower().rsplit("/", 1)[-1] == "imsmanifest.xml"),
                            key=lambda n: n.count("/"), default=None)
        title: str = self.path.stem
        description: str | None = None
        refs: list[ItemRef] = []
        tests: list[str] = []
        settings: Data = {}
        manifest, refused = self._readable_manifest(manifest_name) if manifest_name is not None else (None, False)
        if refused:
            return None
        if manifest_name is not None and manifest is not None:
            title, description, refs, tests = self._manifest(manifest, manifest_name)
        else:
            for name, data in sorted(self.package.files.items()):
                if name.endswith(".xml") and re.search(rb"<(\w+:)?assessmentItem[\s>]", data[:4096]):
                    refs.append(ItemRef(name))
                elif name.endswith(".xml") and re.search(rb"<(\w+:)?assessmentTest[\s>]", data[:4096]):
                    tests.append(name)
        if tests:
            test = self.xml(tests[0])
            if test is None:
                return None
            title = test.get("title") or title
            self.quiz_id = test.get("identifier") or self.quiz_id
            settings = test_settings(self, test, tests[0])
            listed = {r.href for r in refs}
            refs = self._test(test, tests[0])
            missing = [r for r in sorted(listed - {r.href for r in refs})]
            if missing:
                self.builder.warn(LOST, f"{plural(len(missing), 'item')} of the package {'are' if len(missing) > 1 else 'is'} in no section of its test: {', '.join(missing[:5])}; imported into a section of their own",
                                  SourceSpan(self.display))
                extra = self.builder.section("Other items")
                refs += [ItemRef(m, section=extra) for m in missing]
        else:
            section = self.builder.section(title)
            for ref in refs:
                ref.section = section
        for ref in refs:
            self._item(ref)
        language = self.languages[0] if self.languages else "en"
        quiz = self.builder.build(self.quiz_id or title, title, language, description, settings)
        return self.builder.imported(quiz) if quiz else None

    def _readable_manifest(self, name: str) -> tuple[etree._Element | None, bool]:
        """The manifest; one that is not well-formed XML (LiveInspect's: a literal ``\\n`` after its
        declaration) is reported, and the package is read without it, by its items and tests."""
        data = self.package.file(name)
        if data is None:
            return None, False
        probe = DiagnosticSink()
        tree = parse_xml(data, self.span(name).path, probe)
        if tree is not None:
            return tree.getroot(), False
        if any(d.code != "QB701" for d in probe.items):  # hostile XML (entities) stays refused, whole
            self.sink.items.extend(probe.items)
            return None, True
        problem = probe.items[0].message if probe.items else "it cannot be read"
        self.builder.warn(LOST, f"the manifest is not read ({problem}); the package's items and tests are read without it, "
                                "and its title and description are lost", probe.items[0].span if probe.items else self.span(name),
                          hint="export the package again, or fix its imsmanifest.xml")
        return None, False

    def _manifest(self, manifest: etree._Element, name: str) -> tuple[str, str | None, list[ItemRef], list[str]]:
        base = str(PurePosixPath(name).parent)
        base = "" if base == "." else base
        self.ours = any((e.text or "").strip() == "qti-builder" for e in descendants(manifest, "catalog"))
        lom_general = next(iter(descendants(manifest, "general")), None)
        title = self.path.stem
        description = None
        if lom_general is not None:
            title_el = next(iter(descendants(lom_general, "title")), None)
            if title_el is not None and "".join(title_el.itertext()).strip():
                title = one_line("".join(title_el.itertext()))
            entry = next(iter(descendants(lom_general, "entry")), None)
            if entry is not None and (entry.text or "").strip():
                self.quiz_id = entry.text.strip()
            desc_el = next(iter(descendants(lom_general, "description")), None)
            if desc_el is not None and "".join(desc_el.itertext()).strip():
                description = plain_to_markdown("".join(desc_el.itertext()).strip())
                if self.ours:
                    self.builder.warn(LOST, "the quiz description comes from the manifest, as plain text: its formatting is lost",
                                      self.span(name, desc_el))
            language = next(iter(descendants(lom_general, "language")), None)
            if language is not None and (language.text or "").strip():
                self.languages.append(language.text.strip())
        refs, tests = [], []
        for resource in descendants(manifest, "resource"):
            kind = (resource.get("type") or "").lower()
            href = normalise_member(f"{base}/{resource.get('href', '')}" if base else resource.get("href", ""))
            if not href:
                continue
            if kind.startswith("imsqti_item_xmlv2"):
                refs.append(ItemRef(href, span=self.span(name, resource)))
            elif kind.startswith("imsqti_test_xmlv2"):
                tests.append(href)
            elif kind.startswith("imsqti_xmlv1") or kind.startswith("imsqti_item_xmlv1"):
                self.builder.skip(kind, UNSUPPORTED, f"resource '{href}' ({kind}) is QTI 1.x, which the QTI 2.1 importer does not "
                                                     "read; skipped",
                                  self.span(name, resource), hint="import the package with --format canvas (Canvas's QTI 1.2)")
        return title, description, refs, tests

    def _test(self, test: etree._Element, member: str) -> list[ItemRef]:
        refs: list[ItemRef] = []

        def walk(section_el: etree._Element, parent: Data | None) -> None:
            selection = child(section_el, "selection")
            ordering = child(section_el, "ordering")
            rubric = [r for r in children(section_el, "rubricBlock") if "candidate" in (r.get("view") or "candidate")]
            description = self.rich([c for r in rubric for c in children(r)], member,
                                     f"the introduction of section '{section_el.get('title')}'",
                                     rubric[0].text if rubric else None) if rubric else None
            section = self.builder.section(section_el.get("title") or section_el.get("identifier") or "Section", parent,
                                           section_el.get("identifier"), description=description,
                                           shuffle=(ordering is not None and ordering.get("shuffle") == "true") or None,
                                           select=int(selection.get("select")) if selection is not None and (selection.get("select") or "").isdigit() else None)
            for node in children(section_el):
                if local(node) == "assessmentItemRef":
                    weight = next((w for w in children(node, "weight")), None)
                    value = _float(weight.get("value")) if weight is not None else None
                    href = normalise_member(str(PurePosixPath(member).parent / node.get("href", "")))
                    if href:
                        refs.append(ItemRef(href, value, section, self.span(member, node)))
                    else:
                        outside = f"the folder of {PurePosixPath(self.display).name}" if self.package.folder is not None else "the package"
                        self.builder.skip("assessmentItemRef", MEDIA, f"item '{node.get('href', '')}' (assessmentItemRef) lies "
                                                                      f"outside {outside}; skipped",
                                          self.span(member, node),
                                          hint="import the folder that holds the test and its items" if self.package.folder is not None else None)
                elif local(node) == "assessmentSection":
                    walk(node, section)
                elif local(node) == "assessmentSectionRef":
                    self.builder.warn(LOST, "a section referenced from another file (assessmentSectionRef) is not imported", self.span(member, node))

        for part in children(test, "testPart"):
            for section_el in children(part, "assessmentSection"):
                walk(section_el, None)
        return refs

    # -- one item ------------------------------------------------------------------------------

    def _item(self, ref: ItemRef) -> None:
        item = self.xml(ref.href, ref.span, kind="assessmentItem")
        if item is None:
            return
        if local(item) != "assessmentItem":
            self.builder.skip(local(item), UNSUPPORTED, f"'{ref.href}' is a {local(item)}, not an assessmentItem; skipped",
                              self.span(ref.href, item))
            return
        reader = ItemReader(self, item, ref)
        result = reader.read()
        if result is not None:
            assert ref.section is not None, "read() places every ref in a section before its item is read"
            self.builder.add(ref.section, result, reader.span(), reader.label, reader.preferred_id, kind=reader.interactions)

    def rich(self, elements: list[etree._Element], member: str, where: str, text: str | None = None,
              span: SourceSpan | None = None, root: etree._Element | None = None) -> str:
        # A lone <div> without attributes only wraps the content (our feedback, Canvas's habit).
        while len(elements) == 1 and local(elements[0]) == "div" and not elements[0].attrib and not (text or "").strip() \
                and not (elements[0].tail or "").strip():
            text, elements = elements[0].text, children(elements[0])
        fragment = qti_fragment(elements, text)
        fragment = self._media(fragment, member, span or self.span(member), root)
        if not fragment.strip():
            return ""
        return markdown_from_html(self.builder, fragment, span or self.span(member), where)

    def _media(self, fragment: str, member: str, span: SourceSpan, root: etree._Element | None = None) -> str:
        """Package files the text shows (img/src, audio, video) -> media files next to the source.
        An image or a recording that is missing is reported (at the element that shows it, when
        ``root``, the document, has it) and becomes a link to where it was: a source cannot show a
        file it does not have, and would not build."""
        def found(url: str) -> tuple[str, bytes] | None:
            target = normalise_member(str(PurePosixPath(member).parent / unquote(url)))
            data = self.package.file(target) if target else None
            return (target, data) if target and data is not None else None

        def missing(match: re.Match[str]) -> str:
            urls = [u for _, _, u in ATTRIBUTE.findall(match.group(0)) if not EXTERNAL.match(u)]
            absent = [u for u in urls if found(u) is None]
            if not absent:
                return match.group(0)
            where = "beside the item" if self.package.folder is not None else "in the package"
            image = match.group(0).startswith("<img")
            for url in absent:
                shown = next((e for e in (root.iter() if root is not None else ()) if isinstance(e.tag, str)
                              and url in (e.get("src"), e.get("data"))), None)
                at = SourceSpan(span.path, shown.sourceline or span.line, 1) if shown is not None else span
                if image:
                    # An image the item lacks is a named placeholder, as in every importer (base.localise_media).
                    ref = self.builder.media.placeholder(unquote(url))
                    self.builder.warn(MEDIA, f"media file '{url}' is not {where}; the placeholder {ref} shows where it was", at,
                                      hint=f"put the file in the source's media/ folder and refer to it instead of {ref}")
                else:
                    self.builder.warn(MEDIA, f"media file '{url}' is not {where}; it is kept as a link", at,
                                      hint="put the file beside the source and show it again (![...](media/...)), or remove the link")
            if image:
                return ATTRIBUTE.sub(lambda m: m.group(0) if m.group(3) not in absent else
                                     f"{m.group(1)}={m.group(2)}{self.builder.media.placeholder(unquote(m.group(3)))}{m.group(2)}",
                                     match.group(0))
            alt = re.search(r"\balt=(\"|')([^\"']*)\1", match.group(0))
            inner = " ".join(html.unescape(re.sub(r"<[^>]*>", " ", match.group(0).split(">", 1)[-1])).split())
            label = (html.unescape(alt.group(2)).strip() if alt and alt.group(2).strip() else inner
                     or PurePosixPath(unquote(absent[0])).name)
            # A source's media/ folder holds its media: a link into it would claim a file it lacks.
            href = "./" + absent[0] if absent[0].startswith("media/") else absent[0]
            return f'<a href="{href}">{html.escape(label, quote=False)}</a>'

        def replace(match: re.Match[str]) -> str:
            attribute, quote_char, url = match.group(1), match.group(2), match.group(3)
            file = None if EXTERNAL.match(url) else found(url)
            if file is None:
                return match.group(0)
            target, data = file
            return f"{attribute}={quote_char}{self.builder.media.add(target.rsplit('/', 1)[-1], data)}{quote_char}"

        fragment = MEDIA_ELEMENT.sub(missing, fragment)
        return ATTRIBUTE.sub(replace, fragment)
