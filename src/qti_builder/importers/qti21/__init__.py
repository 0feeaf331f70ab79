"""QTI 2.1 (a content package as a zip or a folder, or a single item file) -> one quiz per package.

The package is found through ``imsmanifest.xml`` (with or without a namespace prefix); the
``assessmentTest``, when there is one, gives the sections (nested ``assessmentSection``s, their
``selection``/``ordering``, ``rubricBlock``s) and each item's points (``weight``); without one the
items are one section in manifest order. Elements are matched by local name, so QTI 2.0/2.1/2.2
namespaces and prefixes all read.

Each item becomes the kind its interactions say (:data:`KINDS`). Scores come from the response
declarations' ``mapping``, from written-out response conditions (``stringMatch``,
``patternMatch``, bounds on a float) or from ``correctResponse`` (the standard templates
``match_correct`` and ``map_response`` need nothing else). Feedback is placed by its identifier
and by the condition that shows it. An item with an interaction the model has no kind for
(hotspots, sliders, drawing, gap match, ...) is reported and skipped.

Packages written by qti-builder (catalog ``qti-builder`` in the manifest) list answers in a fixed
scrambled order (writers.qti21.scrambled); that order is undone, so distractors and drop-down
options come back in the order they were written.
"""

from __future__ import annotations

import re
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from lxml import etree

from ...diagnostics import DiagnosticSink, SourceSpan
from ...i18n import TRUE_FALSE
from ...writers.qti21 import UPLOAD_TYPES, item_title, scrambled
from ...model.questions import QuestionBase
from ..base import (INVALID, LOST, MEDIA, UNSUPPORTED, ImportedQuiz, QuizBuilder, choice_ids, markdown_from_html,
                    one_line, same_title, sanitise_id, set_choice_scores)
from ..markup import plain_to_markdown, qti_fragment
from ..safety import Package, normalise_member, parse_xml, read_folder, read_input, read_zip

Data = dict[str, Any]

#: Interactions the model has a kind for; any other in an item makes it unimportable.
KNOWN_INTERACTIONS = {"choiceInteraction", "textEntryInteraction", "inlineChoiceInteraction", "extendedTextInteraction",
                      "uploadInteraction", "matchInteraction", "orderInteraction"}
ALL_INTERACTIONS = KNOWN_INTERACTIONS | {"associateInteraction", "gapMatchInteraction", "hotspotInteraction",
                                         "graphicOrderInteraction", "graphicAssociateInteraction", "graphicGapMatchInteraction",
                                         "hottextInteraction", "selectPointInteraction", "positionObjectInteraction",
                                         "sliderInteraction", "drawingInteraction", "mediaInteraction", "customInteraction",
                                         "endAttemptInteraction", "positionObjectStage"}
TRUE_WORDS = {w.casefold() for w, _ in TRUE_FALSE.values()} | {"true", "t", "yes"}
FALSE_WORDS = {w.casefold() for _, w in TRUE_FALSE.values()} | {"false", "f", "no"}
MIME_EXTENSIONS = {mime: ext for ext, mime in reversed(list(UPLOAD_TYPES.items()))}


def local(node: Any) -> str:
    return etree.QName(node).localname if isinstance(getattr(node, "tag", None), str) else ""


def children(element: etree._Element, name: str | None = None) -> list[etree._Element]:
    return [c for c in element if isinstance(c.tag, str) and (name is None or local(c) == name)]


def child(element: etree._Element, name: str) -> etree._Element | None:
    found = children(element, name)
    return found[0] if found else None


def descendants(element: etree._Element, *names: str) -> list[etree._Element]:
    return [e for e in element.iter() if isinstance(e.tag, str) and local(e) in names]


def sniff(path: Path, head: bytes) -> bool:
    if path.is_dir():
        return (path / "imsmanifest.xml").is_file()
    return head.startswith(b"PK") or re.search(rb"<(\w+:)?(assessmentItem|assessmentTest|manifest)[\s>]", head) is not None


def import_qti21(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    if path.is_dir():
        package = read_folder(path, display, sink)
    elif path.suffix.lower() == ".zip" or (read_input(path, display, DiagnosticSink()) or b"")[:2] == b"PK":
        package = read_zip(path, display, sink)
    else:
        data = read_input(path, display, sink)
        if data is None:
            return []
        package = Package(display, {path.name: data})
    if package is None:
        return []
    quiz = _PackageReader(path, package, sink).read()
    return [quiz] if quiz else []


@dataclass
class _ItemRef:
    href: str
    weight: float | None = None
    section: Data | None = None


@dataclass
class _Response:
    identifier: str
    cardinality: str = "single"
    base_type: str = "identifier"
    correct: list[str] = field(default_factory=list)
    mapping: dict[str, float] = field(default_factory=dict)
    case_sensitive: bool | None = None


class _PackageReader:
    def __init__(self, path: Path, package: Package, sink: DiagnosticSink) -> None:
        self.path, self.package, self.sink = path, package, sink
        self.display = package.display
        self.builder = QuizBuilder(self.display, sink)
        self.ours = False
        self.quiz_id: str | None = None
        self.languages: list[str] = []

    def span(self, member: str, element: etree._Element | None = None) -> SourceSpan:
        """A place inside the package: ``package.zip:items/q1.xml:12:1``."""
        where = self.display if member == PurePosixPath(self.display).name or member == self.display else f"{self.display}:{member}"
        return SourceSpan(where, (element.sourceline or 1) if element is not None else 1, 1)

    def xml(self, member: str) -> etree._Element | None:
        data = self.package.files.get(member)
        if data is None:
            self.builder.warn(MEDIA, f"'{member}' is listed but not in the package", SourceSpan(self.display))
            return None
        tree = parse_xml(data, f"{self.display}:{member}", self.sink)
        return tree.getroot() if tree is not None else None

    # -- package structure ---------------------------------------------------------------------

    def read(self) -> ImportedQuiz | None:
        manifest_name = min((n for n in self.package.files if n.lower().rsplit("/", 1)[-1] == "imsmanifest.xml"),
                            key=lambda n: n.count("/"), default=None)
        title, description, refs, tests = self.path.stem, None, [], []
        if manifest_name is not None:
            manifest = self.xml(manifest_name)
            if manifest is None:
                return None
            title, description, refs, tests = self._manifest(manifest, manifest_name)
        else:
            for name, data in sorted(self.package.files.items()):
                if name.endswith(".xml") and re.search(rb"<(\w+:)?assessmentItem[\s>]", data[:4096]):
                    refs.append(_ItemRef(name))
                elif name.endswith(".xml") and re.search(rb"<(\w+:)?assessmentTest[\s>]", data[:4096]):
                    tests.append(name)
        if tests:
            test = self.xml(tests[0])
            if test is None:
                return None
            title = test.get("title") or title
            self.quiz_id = test.get("identifier") or self.quiz_id
            listed = {r.href for r in refs}
            refs = self._test(test, tests[0])
            missing = [r for r in sorted(listed - {r.href for r in refs})]
            if missing:
                self.builder.warn(LOST, f"{len(missing)} item(s) of the package are in no section of its test: {', '.join(missing[:5])}; imported into a section of their own",
                                  SourceSpan(self.display))
                extra = self.builder.section("Other items")
                refs += [_ItemRef(m, section=extra) for m in missing]
        else:
            section = self.builder.section(title)
            for ref in refs:
                ref.section = section
        for ref in refs:
            self._item(ref)
        language = self.languages[0] if self.languages else "en"
        quiz = self.builder.build(self.quiz_id or title, title, language, description)
        return ImportedQuiz(quiz, self.builder.media.files, self.display) if quiz else None

    def _manifest(self, manifest: etree._Element, name: str) -> tuple[str, str | None, list[_ItemRef], list[str]]:
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
                refs.append(_ItemRef(href))
            elif kind.startswith("imsqti_test_xmlv2"):
                tests.append(href)
            elif kind.startswith("imsqti_xmlv1") or kind.startswith("imsqti_item_xmlv1"):
                self.builder.warn(UNSUPPORTED, f"resource '{href}' is QTI 1.x, which cannot be imported; skipped",
                                  self.span(name, resource), hint="export QTI 2.1 from the original system")
        return title, description, refs, tests

    def _test(self, test: etree._Element, member: str) -> list[_ItemRef]:
        refs: list[_ItemRef] = []

        def walk(section_el: etree._Element, parent: Data | None) -> None:
            selection = child(section_el, "selection")
            ordering = child(section_el, "ordering")
            rubric = [r for r in children(section_el, "rubricBlock") if "candidate" in (r.get("view") or "candidate")]
            description = self._rich([c for r in rubric for c in children(r)], member,
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
                        refs.append(_ItemRef(href, value, section))
                elif local(node) == "assessmentSection":
                    walk(node, section)
                elif local(node) == "assessmentSectionRef":
                    self.builder.warn(LOST, "a section referenced from another file (assessmentSectionRef) is not imported", self.span(member, node))

        for part in children(test, "testPart"):
            for section_el in children(part, "assessmentSection"):
                walk(section_el, None)
        return refs

    # -- one item ------------------------------------------------------------------------------

    def _item(self, ref: _ItemRef) -> None:
        item = self.xml(ref.href)
        if item is None:
            return
        if local(item) != "assessmentItem":
            self.builder.warn(UNSUPPORTED, f"'{ref.href}' is not an assessmentItem; skipped", self.span(ref.href, item))
            return
        reader = _ItemReader(self, item, ref)
        result = reader.read()
        if result is not None:
            self.builder.add(ref.section, result, reader.span(), reader.label, reader.preferred_id)

    def _rich(self, elements: list[etree._Element], member: str, where: str, text: str | None = None,
              span: SourceSpan | None = None) -> str:
        # A lone <div> without attributes only wraps the content (our feedback, Canvas's habit).
        while len(elements) == 1 and local(elements[0]) == "div" and not elements[0].attrib and not (text or "").strip() \
                and not (elements[0].tail or "").strip():
            text, elements = elements[0].text, children(elements[0])
        fragment = qti_fragment(elements, text)
        fragment = self._media(fragment, member, span or self.span(member))
        if not fragment.strip():
            return ""
        return markdown_from_html(self.builder, fragment, span or self.span(member), where)

    def _media(self, fragment: str, member: str, span: SourceSpan) -> str:
        """Package files the text shows (img/src, audio, video) -> media files next to the source."""
        def replace(match: re.Match[str]) -> str:
            attribute, quote_char, url = match.group(1), match.group(2), match.group(3)
            if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I) or url.startswith("#"):
                return match.group(0)
            from urllib.parse import unquote
            target = normalise_member(str(PurePosixPath(member).parent / unquote(url)))
            data = self.package.files.get(target) if target else None
            if data is None:
                self.builder.warn(MEDIA, f"media file '{url}' is not in the package", span)
                return match.group(0)
            return f"{attribute}={quote_char}{self.builder.media.add(target.rsplit('/', 1)[-1], data)}{quote_char}"

        return re.sub(r"\b(src|data)=(\"|')([^\"']+)\2", replace, fragment)


class _ItemReader:
    def __init__(self, reader: _PackageReader, item: etree._Element, ref: _ItemRef) -> None:
        self.reader, self.item, self.ref = reader, item, ref
        identifier = item.get("identifier") or PurePosixPath(ref.href).stem
        quiz_id = reader.quiz_id
        self.model_id = identifier[len(quiz_id) + 1:] if quiz_id and identifier.startswith(quiz_id + ".") else identifier
        self.preferred_id = sanitise_id(self.model_id)
        self.label = item.get("title") or identifier
        self.lost: list[str] = []
        self.responses = {r.identifier: r for r in (self._response(d) for d in descendants(item, "responseDeclaration"))}
        self.feedback_texts: dict[str, etree._Element] = {f.get("identifier", ""): f for f in descendants(item, "modalFeedback")}
        self.conditions = _FeedbackConditions(item)
        #: Feedback identifiers already placed on a choice or an answer.
        self.used_feedback: set[str] = set()
        #: Response identifiers of the blanks, in the order of the text.
        self.blank_order: list[str] = []
        language = item.get("{http://www.w3.org/XML/1998/namespace}lang")
        if language:
            reader.languages.append(language)

    def span(self, element: etree._Element | None = None) -> SourceSpan:
        return self.reader.span(self.ref.href, element if element is not None else self.item)

    def rich(self, elements: list[etree._Element], where: str, text: str | None = None) -> str:
        return self.reader._rich(elements, self.ref.href, f"{where} of '{self.label}'", text, self.span())

    def warn(self, code: str, message: str) -> None:
        self.reader.builder.warn(code, f"item '{self.label}': {message}", self.span())

    # -- reading -------------------------------------------------------------------------------

    def read(self) -> Data | None:
        body = child(self.item, "itemBody")
        if body is None:
            self.warn(INVALID, "it has no itemBody; skipped")
            return None
        interactions = [e for e in body.iter() if isinstance(e.tag, str) and local(e) in ALL_INTERACTIONS]
        unknown = sorted({local(e) for e in interactions if local(e) not in KNOWN_INTERACTIONS})
        if unknown:
            self.warn(UNSUPPORTED, f"{', '.join(unknown)} cannot be imported (no question type of the source has it); skipped")
            return None
        kinds = [local(e) for e in interactions]
        kind = self._kind(body, interactions, kinds)
        if kind is None:
            return None
        data: Data = {"type": kind, "feedback": {}}
        points = self._points()
        if points is not None:
            data["points"] = points
        data["stem"] = self._stem(body, interactions, kind)
        READERS[kind](self, data, interactions)
        self._feedback(data)
        if data.get("stem") is not None and self.item.get("title"):
            model_like = QuestionBase.model_construct(title=None, stem=data["stem"])
            if not same_title(self.item.get("title"), item_title(model_like)):
                data["title"] = one_line(self.item.get("title"))
        if self.lost:
            self.warn(LOST, "not kept: " + "; ".join(self.lost))
        return data

    def _kind(self, body: etree._Element, interactions: list[etree._Element], kinds: list[str]) -> str | None:
        if not interactions:
            return "text_only"
        distinct = set(kinds)
        if distinct <= {"textEntryInteraction", "inlineChoiceInteraction"}:
            if len(interactions) == 1 and kinds[0] == "textEntryInteraction" and self._stands_alone(interactions[0]):
                response = self.responses.get(interactions[0].get("responseIdentifier", ""))
                return "numerical" if response and response.base_type in ("float", "integer") else "short_answer"
            return "fill_in_blank"
        if distinct == {"extendedTextInteraction"} or distinct == {"extendedTextInteraction", "uploadInteraction"}:
            if kinds.count("extendedTextInteraction") > 1:
                self.warn(UNSUPPORTED, "several text answers in one item cannot be imported; skipped")
                return None
            return "essay"
        if distinct == {"uploadInteraction"}:
            return "file_upload"
        if len(interactions) > 1:
            self.warn(UNSUPPORTED, f"an item with several interactions ({', '.join(kinds)}) cannot be imported; skipped")
            return None
        name = kinds[0]
        if name == "choiceInteraction":
            choices = descendants(interactions[0], "simpleChoice")
            response_id = interactions[0].get("responseIdentifier", "")
            texts = [one_line("".join(c.itertext())).casefold() for c in choices]
            ids = [c.get("identifier", "").casefold() for c in choices]
            if len(choices) == 2 and (response_id.startswith("TF") or ids == ["true", "false"]
                                      or (texts[0] in TRUE_WORDS and texts[1] in FALSE_WORDS)):
                return "true_false"
            return "single_choice" if interactions[0].get("maxChoices", "1") == "1" else "multiple_response"
        return {"matchInteraction": "matching", "orderInteraction": "ordering"}[name]

    def _stands_alone(self, interaction: etree._Element) -> bool:
        """A text box in a paragraph of its own (short answer, numerical), not inside a sentence."""
        parent = interaction.getparent()
        if local(parent) == "itemBody":
            return True
        if local(parent) != "p":
            return False
        before = (parent.text or "").strip()
        others = [c for c in children(parent) if c is not interaction]
        return not before and not others

    def _points(self) -> float | None:
        if self.ref.weight is not None:
            return self.ref.weight
        for outcome in descendants(self.item, "outcomeDeclaration"):
            if outcome.get("identifier") == "MAXSCORE":
                value = next(iter(descendants(outcome, "value")), None)
                if value is not None and _float(value.text) is not None:
                    return _float(value.text)
        for outcome in descendants(self.item, "outcomeDeclaration"):
            if outcome.get("identifier") == "SCORE" and _float(outcome.get("normalMaximum")) is not None:
                return _float(outcome.get("normalMaximum"))
        return None

    def _stem(self, body: etree._Element, interactions: list[etree._Element], kind: str) -> str:
        stem_div = next((e for e in children(body) if local(e) == "div" and "stem" in (e.get("class") or "").split()), None)
        prompts = [p for i in interactions for p in children(i, "prompt")]
        if kind == "fill_in_blank":
            return self._blank_stem(body, interactions, stem_div)
        if stem_div is not None:
            parts = [stem_div]
            parts_text = self.rich(children(stem_div), "the text", stem_div.text)
        else:
            parts, text = _unwrapped(body, interactions)
            parts = [e for e in parts if e not in interactions and local(e) not in ("rubricBlock",)
                     and not (local(e) == "p" and any(i.getparent() is e for i in interactions))]
            parts = [_without(e, interactions) for e in parts]
            parts_text = self.rich(parts, "the text", text)
        if prompts:
            prompt = self.rich(children(prompts[0]), "the prompt", prompts[0].text)
            parts_text = "\n\n".join(p for p in (parts_text, prompt) if p)
        return parts_text

    def _blank_stem(self, body: etree._Element, interactions: list[etree._Element], stem_div: etree._Element | None) -> str:
        container = stem_div if stem_div is not None else body
        copy = deepcopy(container)
        copy.tail = None
        order = []
        for element in list(copy.iter()):
            if isinstance(element.tag, str) and local(element) in ("textEntryInteraction", "inlineChoiceInteraction"):
                order.append(element.get("responseIdentifier", ""))
                placeholder = "\ue000%d\ue001" % len(order)
                parent = element.getparent()
                previous = element.getprevious()
                text = placeholder + (element.tail or "")
                if previous is not None:
                    previous.tail = (previous.tail or "") + text
                else:
                    parent.text = (parent.text or "") + text
                parent.remove(element)
        self.blank_order = order
        nodes = [e for e in children(copy) if local(e) not in ("rubricBlock",)]
        stem = self.rich(nodes, "the text", copy.text)
        for index, response in enumerate(order, 1):
            stem = stem.replace("\ue000%d\ue001" % index, f"[[{self._blank_id(response, index)}]]")
        return stem

    def _blank_id(self, response: str, index: int) -> str:
        if self.reader.ours and response.startswith("RESPONSE_") and sanitise_id(response[len("RESPONSE_"):]):
            return response[len("RESPONSE_"):]
        return f"b{index}"

    def _response(self, declaration: etree._Element) -> _Response:
        response = _Response(declaration.get("identifier", ""), declaration.get("cardinality", "single"),
                             declaration.get("baseType", "identifier"))
        correct = child(declaration, "correctResponse")
        if correct is not None:
            response.correct = [(v.text or "").strip() for v in children(correct, "value")]
        mapping = child(declaration, "mapping")
        if mapping is not None:
            for entry in children(mapping, "mapEntry"):
                value = _float(entry.get("mappedValue"))
                response.mapping.setdefault(entry.get("mapKey", ""), value if value is not None else 0.0)
                if entry.get("caseSensitive") is not None:
                    response.case_sensitive = entry.get("caseSensitive") == "true"
        return response

    # -- feedback ------------------------------------------------------------------------------

    def _feedback(self, data: Data) -> None:
        used = self.used_feedback
        for identifier, element in self.feedback_texts.items():
            if identifier in used:
                continue
            role = self.conditions.role(identifier)
            text = self.rich(children(element), f"feedback '{identifier}'", element.text)
            if not text:
                continue
            if role in ("general", "correct", "partially_correct", "incorrect") and not data["feedback"].get(role):
                data["feedback"][role] = text
            else:
                self.lost.append(f"feedback '{identifier}' (shown under conditions the source cannot express)")
        for inline in descendants(self.item, "feedbackInline", "feedbackBlock"):
            self.lost.append(f"inline feedback '{inline.get('identifier')}'")

    def feedback_for(self, identifier: str) -> str | None:
        element = self.feedback_texts.get(identifier)
        if element is None:
            return None
        self.used_feedback.add(identifier)
        return self.rich(children(element), f"feedback '{identifier}'", element.text) or None

    def choice_feedback(self, choice_id: str) -> str | None:
        for identifier in self.conditions.shown_for(choice_id) + [f"{choice_id}_fb"]:
            if identifier in self.feedback_texts:
                return self.feedback_for(identifier)
        return None


class _FeedbackConditions:
    """When response processing shows each feedback: by the condition around its identifier."""

    def __init__(self, item: etree._Element) -> None:
        self.roles: dict[str, str] = {}
        self.by_value: dict[str, list[str]] = {}
        processing = child(item, "responseProcessing")
        if processing is not None:
            self._walk(processing, "general")

    def _walk(self, element: etree._Element, role: str) -> None:
        for node in children(element):
            name = local(node)
            if name == "setOutcomeValue":
                for value in descendants(node, "baseValue"):
                    if value.get("baseType") == "identifier" and (value.text or "").strip():
                        self.roles.setdefault(value.text.strip(), role)
            elif name == "responseCondition":
                branches = children(node)
                for index, branch in enumerate(branches):
                    test = children(branch)[0] if local(branch) != "responseElse" and children(branch) else None
                    if local(branch) == "responseElse":
                        branch_role = "incorrect" if index and _is_correct_test(children(branches[0])[0]) else "other"
                    else:
                        branch_role = _condition_role(test)
                        value = _compared_value(test)
                        if value:
                            for setter in descendants(branch, "baseValue"):
                                if setter.get("baseType") == "identifier" and setter is not test and setter.getparent().getparent() is not None \
                                        and local(setter.getparent()) == "multiple":
                                    self.by_value.setdefault(value, []).append((setter.text or "").strip())
                    self._walk(branch, branch_role if role == "general" else "other")

    def role(self, identifier: str) -> str:
        role = self.roles.get(identifier)
        if role and role != "other":
            return role
        lowered = identifier.lower()
        for word, name in (("general", "general"), ("_all", "general"), ("partial", "partially_correct"),
                           ("incorrect", "incorrect"), ("wrong", "incorrect"), ("correct", "correct")):
            if word in lowered:
                return name
        return role or "other"

    def shown_for(self, value: str) -> list[str]:
        return self.by_value.get(value, [])


def _is_correct_test(test: etree._Element) -> bool:
    return local(test) == "match" and any(local(c) == "correct" for c in children(test))


def _condition_role(test: etree._Element | None) -> str:
    if test is None:
        return "other"
    if _is_correct_test(test):
        return "correct"
    values = [_float(v.text) for v in descendants(test, "baseValue") if v.get("baseType") == "float"]
    if local(test) == "gte" and any(local(c) == "variable" and c.get("identifier") == "SCORE" for c in children(test)):
        return "correct"
    if local(test) == "gt" and values == [0.0]:
        return "partially_correct"
    if local(test) == "lte" and values == [0.0]:
        return "incorrect"
    return "other"


def _compared_value(test: etree._Element | None) -> str | None:
    """``match(RESPONSE, X)`` or ``member(X, RESPONSE)``: the choice X a feedback belongs to."""
    if test is None or local(test) not in ("match", "member"):
        return None
    values = [c for c in children(test) if local(c) == "baseValue" and c.get("baseType") == "identifier"]
    variables = [c for c in children(test) if local(c) == "variable"]
    return (values[0].text or "").strip() if len(values) == 1 and len(variables) == 1 else None


def _unwrapped(body: etree._Element, interactions: list[etree._Element]) -> tuple[list[etree._Element], str | None]:
    """The body's blocks, with layout divs that hold an interaction opened up (TAO wraps
    everything in ``<div class="grid-row"><div class="col-12">``)."""
    parts, text = children(body), body.text
    while True:
        wrappers = [e for e in parts if local(e) == "div" and any(i in e.iter() for i in interactions)]
        if not wrappers:
            return parts, text
        opened: list[etree._Element] = []
        for e in parts:
            if e in wrappers:
                text = (text or "") + (e.text or "") if not opened else text
                opened.extend(children(e))
            else:
                opened.append(e)
        parts = opened


def _without(element: etree._Element, interactions: list[etree._Element]) -> etree._Element:
    copy = deepcopy(element)
    copy.tail = None
    for node in list(copy.iter()):
        if isinstance(node.tag, str) and local(node) in ALL_INTERACTIONS:
            node.getparent().remove(node)
    return copy


def _float(text: str | None) -> float | None:
    try:
        return float((text or "").strip())
    except ValueError:
        return None


def _percent(value: float, points: float) -> float:
    return round(value / points * 100, 5) if points else 100.0


# -- one reader per kind --------------------------------------------------------------------------


def _choices(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> dict[str, str]:
    interaction = interactions[0]
    simple = descendants(interaction, "simpleChoice")
    originals = [c.get("identifier", "") for c in simple]
    ids = choice_ids(len(simple), originals)
    rename = dict(zip(originals, ids))
    response = r.responses.get(interaction.get("responseIdentifier", ""), _Response(""))
    choices = []
    for element, ident, original in zip(simple, ids, originals):
        choice: Data = {"id": ident, "text": r.rich(children(element), f"choice {ident}", element.text),
                        "correct": original in response.correct, "fixed": element.get("fixed") == "true"}
        feedback = r.choice_feedback(original)
        if feedback:
            choice["feedback"] = feedback
        choices.append(choice)
    data["choices"] = choices
    data["shuffle"] = interaction.get("shuffle") == "true"
    return rename


def _single_choice(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    _choices(r, data, interactions)
    if sum(c["correct"] for c in data["choices"]) != 1:
        response = r.responses.get(interactions[0].get("responseIdentifier", ""), _Response(""))
        best = max(response.mapping.items(), key=lambda kv: kv[1], default=None)
        if best:
            for choice, element in zip(data["choices"], descendants(interactions[0], "simpleChoice")):
                choice["correct"] = element.get("identifier") == best[0]


def _multiple_response(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    rename = _choices(r, data, interactions)
    response = r.responses.get(interactions[0].get("responseIdentifier", ""), _Response(""))
    points = data.get("points", 1.0)
    if response.mapping and points:
        fractions = [_percent(response.mapping.get(original, 0.0), points) for original in rename]
        for choice, fraction in zip(data["choices"], fractions):
            choice["correct"] = fraction > 0
        set_choice_scores(data, fractions)
    elif not r.reader.ours:
        r.lost.append("all-or-nothing scoring (the source gives partial credit per correct choice)")


def _true_false(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    interaction = interactions[0]
    response = r.responses.get(interaction.get("responseIdentifier", ""), _Response(""))
    simple = descendants(interaction, "simpleChoice")
    correct = next((c for c in simple if c.get("identifier") in response.correct), None)
    if correct is None:
        r.warn(INVALID, "the true/false item has no correct answer; skipped")
        data["answer"] = None
        return
    data["answer"] = simple.index(correct) == 0
    for element, key in zip(simple, ("true_feedback", "false_feedback")):
        feedback = r.choice_feedback(element.get("identifier", ""))
        if feedback:
            data[key] = feedback


def _text_conditions(r: _ItemReader, response: str) -> list[tuple[etree._Element, float | None, str | None]]:
    """The written-out answers: (condition, score set, feedback shown), in order."""
    found = []
    processing = child(r.item, "responseProcessing")
    if processing is None:
        return found
    for condition in descendants(processing, "responseCondition"):
        for branch in children(condition):
            if local(branch) == "responseElse" or not children(branch):
                continue
            test = children(branch)[0]
            if not any(v.get("identifier") == response for v in descendants(test, "variable")):
                continue
            if local(test) not in ("stringMatch", "patternMatch", "and", "match", "equal"):
                continue
            score = None
            for setter in children(branch, "setOutcomeValue"):
                if setter.get("identifier") == "SCORE":
                    value = next(iter(descendants(setter, "baseValue")), None)
                    score = _float(value.text) if value is not None else None
            feedback = None
            for value in descendants(branch, "baseValue"):
                if value.get("baseType") == "identifier" and local(value.getparent()) == "multiple":
                    feedback = (value.text or "").strip()
            found.append((test, score, feedback))
    return found


def _short_answer(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    response = r.responses.get(interactions[0].get("responseIdentifier", ""), _Response(""))
    points = data.get("points", 1.0)
    answers: list[Data] = []
    case_sensitive = response.case_sensitive
    for test, score, feedback_id in _text_conditions(r, response.identifier):
        if local(test) == "stringMatch":
            text = "".join(v.text or "" for v in descendants(test, "baseValue")).replace("*", "\\*")
            case_sensitive = test.get("caseSensitive", "true") == "true"
        elif local(test) == "patternMatch":
            text = _pattern_to_wildcard(test.get("pattern", ""))
            # Without case sensitivity every letter of the pattern is a class ([xX]).
            outside = re.sub(r"\[[^\]]*\]|\\.", "", test.get("pattern", ""))
            if any(c.lower() != c.upper() for c in outside):
                case_sensitive = True
            if text is None:
                r.lost.append(f"the answer pattern '{test.get('pattern')}' (only * wildcards can be expressed)")
                continue
        elif local(test) == "match":
            text = "".join(v.text or "" for v in descendants(test, "baseValue")).replace("*", "\\*")
        else:
            continue
        entry: Data = {"text": text, "score": _percent(score, points) if score is not None else 100.0}
        feedback = r.feedback_for(feedback_id) if feedback_id else None
        if feedback:
            entry["feedback"] = feedback
        answers.append(entry)
    if not answers:
        for key, value in response.mapping.items():
            answers.append({"text": key.replace("*", "\\*"), "score": _percent(value, points) if points else 100.0})
        for value in response.correct:
            if not any(a["text"] == value.replace("*", "\\*") for a in answers):
                answers.insert(0, {"text": value.replace("*", "\\*"), "score": 100.0})
        if answers and not any(a["score"] >= 100 for a in answers):
            best = max(answers, key=lambda a: a["score"])
            best["score"] = 100.0
    data["answers"] = [a for a in answers if a["score"] > 0 or a.get("feedback")] or answers
    data["case_sensitive"] = bool(case_sensitive)


def _pattern_to_wildcard(pattern: str) -> str | None:
    """Our patternMatch (writers.qti21.wildcard_pattern) back to Moodle's ``*`` wildcards."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith(".*", i):
            out.append("*")
            i += 2
        elif pattern[i] == "\\" and i + 1 < len(pattern):
            out.append("\\*" if pattern[i + 1] == "*" else pattern[i + 1])
            i += 2
        elif pattern[i] == "[":
            end = pattern.find("]", i)
            body = pattern[i + 1:end] if end > i else ""
            if len(body) == 2 and body[0].lower() == body[1].lower():
                out.append(body[0])
                i = end + 1
            else:
                return None
        elif pattern[i] in "|?+(){}^":
            return None
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


def _numerical(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    interaction = interactions[0]
    response = r.responses.get(interaction.get("responseIdentifier", ""), _Response(""))
    points = data.get("points", 1.0)
    answers: list[Data] = []
    for test, score, feedback_id in _text_conditions(r, response.identifier):
        bounds = [_float(v.text) for v in descendants(test, "baseValue") if v.get("baseType") in ("float", "integer")]
        if local(test) == "and" and len(bounds) == 2 and None not in bounds:
            low, high = sorted(bounds)  # type: ignore[type-var]
            entry: Data = {"value": _round((low + high) / 2), "tolerance": _round((high - low) / 2)}
        elif local(test) in ("match", "equal") and len(bounds) == 1 and bounds[0] is not None:
            entry = {"value": bounds[0], "tolerance": 0.0}
            tolerance = (test.get("tolerance") or "").split()
            if tolerance and _float(tolerance[0]) is not None:
                entry["tolerance"] = _float(tolerance[0])
                if test.get("toleranceMode") == "relative":
                    entry["tolerance_mode"] = "percent"
        else:
            continue
        entry["score"] = _percent(score, points) if score is not None else 100.0
        feedback = r.feedback_for(feedback_id) if feedback_id else None
        if feedback:
            entry["feedback"] = feedback
        answers.append(entry)
    if not answers:
        answers = [{"value": _float(v), "score": 100.0} for v in response.correct if _float(v) is not None]
    data["answers"] = answers
    unit = (interaction.tail or "").strip()
    if unit:
        data["unit"] = unit


def _round(value: float) -> float:
    return float(f"{value:.10g}")


def _essay(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    text = next(i for i in interactions if local(i) == "extendedTextInteraction")
    formats = {"plain": "plain", "preformatted": "monospaced", "xhtml": "editor"}
    data["response_format"] = formats.get((text.get("format") or "plain").lower(), "editor")
    lines = _float(text.get("expectedLines"))
    if lines:
        data["expected_lines"] = int(min(max(lines, 1), 200))
    length = _float(text.get("expectedLength"))
    if length:
        if r.reader.ours and length % 6 == 0:
            data["max_words"] = int(length // 6)
        else:
            r.lost.append(f"the expected length of {length:g} characters")
    data["attachments"] = min(sum(1 for i in interactions if local(i) == "uploadInteraction"), 20)
    _model_answer(r, data)


def _file_upload(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    data["max_files"] = min(len(interactions), 20)
    kinds = {i.get("type") for i in interactions if i.get("type")}
    data["allowed_types"] = [MIME_EXTENSIONS[k] for k in sorted(kinds) if k in MIME_EXTENSIONS]
    if kinds - set(MIME_EXTENSIONS):
        r.lost.append("the file types " + ", ".join(sorted(kinds - set(MIME_EXTENSIONS))))
    _model_answer(r, data)


def _model_answer(r: _ItemReader, data: Data) -> None:
    rubric = [b for b in descendants(r.item, "rubricBlock") if "scorer" in (b.get("view") or "")]
    if rubric:
        inner = children(rubric[0])
        if len(inner) == 1 and local(inner[0]) == "div" and "model-answer" in (inner[0].get("class") or ""):
            inner = [inner[0]]
            text = r.rich(children(inner[0]), "the model answer", inner[0].text)
        else:
            text = r.rich(inner, "the model answer", rubric[0].text)
        if text:
            data["model_answer"] = text
    solution = r.feedback_for("solution")
    if solution and not data.get("model_answer"):
        data["model_answer"] = solution


def _unscramble(shown: list[Any], seed: str) -> list[Any]:
    """The order our writer listed before scrambling (writers.qti21.scrambled with the same seed)."""
    positions = scrambled(list(range(len(shown))), seed)  # shown[i] was originally at positions[i]
    original: list[Any] = [None] * len(shown)
    for index, position in enumerate(positions):
        original[position] = shown[index]
    return original


def _matching(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    interaction = interactions[0]
    sets = children(interaction, "simpleMatchSet")
    if len(sets) != 2:
        r.warn(UNSUPPORTED, "a match interaction without two sets cannot be imported")
        data["pairs"] = []
        return
    sources = children(sets[0], "simpleAssociableChoice")
    targets = children(sets[1], "simpleAssociableChoice")
    text_of = {t.get("identifier"): r.rich(children(t), "a matching answer", t.text) for t in targets}
    response = r.responses.get(interaction.get("responseIdentifier", ""), _Response(""))
    pairs_of: dict[str, list[str]] = {}
    for value in response.correct:
        parts = value.split()
        if len(parts) == 2:
            pairs_of.setdefault(parts[0], []).append(parts[1])
    pairs = []
    used = set()
    for source in sources:
        matched = pairs_of.get(source.get("identifier", ""), [])
        if len(matched) > 1:
            r.lost.append(f"the further answers of prompt '{one_line(''.join(source.itertext()))}' (one answer per prompt)")
        if not matched:
            r.lost.append(f"prompt '{one_line(''.join(source.itertext()))}', which has no answer")
            continue
        used.add(matched[0])
        pairs.append({"prompt": r.rich(children(source), "a matching prompt", source.text), "answer": text_of.get(matched[0], "")})
    order = [t.get("identifier") for t in targets]
    if r.reader.ours:
        order = _unscramble(order, r.model_id)
    answers = {p["answer"] for p in pairs}
    data["pairs"] = pairs
    data["distractors"] = [text_of[t] for t in order if t not in used and text_of.get(t) not in answers]
    data["shuffle"] = interaction.get("shuffle") == "true"


def _ordering(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    interaction = interactions[0]
    choices = {c.get("identifier"): c for c in descendants(interaction, "simpleChoice")}
    response = r.responses.get(interaction.get("responseIdentifier", ""), _Response(""))
    order = [choices[v] for v in response.correct if v in choices] or list(choices.values())
    data["items"] = [r.rich(children(c), "an item", c.text) for c in order]


def _fill_in_blank(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    blanks = []
    sensitivity = set()
    by_response = {i.get("responseIdentifier"): i for i in interactions}
    for index, response_id in enumerate(r.blank_order, 1):
        blank_id = r._blank_id(response_id, index)
        interaction = by_response.get(response_id)
        response = r.responses.get(response_id, _Response(response_id))
        if interaction is not None and local(interaction) == "inlineChoiceInteraction":
            options = [(c.get("identifier"), "".join(c.itertext()).strip()) for c in descendants(interaction, "inlineChoice")]
            if r.reader.ours:
                options = _unscramble(options, f"{r.model_id}/{blank_id}")
            correct = [text for ident, text in options if ident in response.correct]
            blanks.append({"id": blank_id, "kind": "dropdown", "answers": correct[:1] or [options[0][1]],
                           "options": [text for ident, text in options if ident not in response.correct]})
        else:
            answers = list(dict.fromkeys(response.correct + list(response.mapping)))
            if response.case_sensitive is not None:
                sensitivity.add(response.case_sensitive)
            blanks.append({"id": blank_id, "kind": "text", "answers": answers})
    data["blanks"] = blanks
    data["case_sensitive"] = sensitivity == {True}
    if len(sensitivity) > 1:
        r.lost.append("case sensitivity per blank")


def _text_only(r: _ItemReader, data: Data, interactions: list[etree._Element]) -> None:
    data.setdefault("points", 0.0)


READERS = {
    "single_choice": _single_choice, "multiple_response": _multiple_response, "true_false": _true_false,
    "short_answer": _short_answer, "numerical": _numerical, "essay": _essay, "file_upload": _file_upload,
    "matching": _matching, "ordering": _ordering, "fill_in_blank": _fill_in_blank, "text_only": _text_only,
}
