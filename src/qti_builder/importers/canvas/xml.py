"""Element helpers for the Canvas reader: the QTI 2.1 reader's lookups by local name (any
namespace), and :func:`metadata`, the ``qtimetadatafield`` label/entry pairs QTI 1.2 keeps
settings in."""

from __future__ import annotations

from lxml import etree

from ..qti21.xml import Data, _float, child, children, descendants, local

__all__ = ["Data", "_float", "child", "children", "descendants", "local", "metadata"]


def metadata(element: etree._Element) -> dict[str, str]:
    """The metadata directly under ``element``'s own metadata block (an item's ``itemmetadata``, an
    assessment's ``qtimetadata`` or ``assessmentmetadata``, a bank's ``qtimetadata``), not its
    items': each ``qtimetadatafield`` (Respondus: ``qti_metadatafield``) label/entry pair, and the
    elements other systems write in the block itself (Blackboard's ``bbmd_questiontype``,
    ``qmd_absolutescore_max``), by their name. Labels also count in lower case."""
    fields: dict[str, str] = {}
    holders = [c for c in children(element) if local(c) in HOLDERS]
    for holder in holders:
        for field in descendants(holder, "qtimetadatafield", "qti_metadatafield"):
            label, entry = child(field, "fieldlabel"), child(field, "fieldentry")
            if label is not None and (label.text or "").strip():
                name = (label.text or "").strip()
                value = (entry.text or "").strip() if entry is not None else ""
                fields.setdefault(name, value)
                fields.setdefault(name.lower(), value)
        for own in children(holder):
            if local(own) not in HOLDERS and local(own) not in ("qtimetadatafield", "qti_metadatafield") and not len(own):
                fields.setdefault(local(own).lower(), (own.text or "").strip())
    return fields


#: The blocks metadata is kept in.
HOLDERS = ("qtimetadata", "itemmetadata", "assessmentmetadata", "sectionmetadata")
