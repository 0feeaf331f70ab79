"""Element helpers for the Canvas reader: the QTI 2.1 reader's lookups by local name (any
namespace), and :func:`metadata`, the ``qtimetadatafield`` label/entry pairs QTI 1.2 keeps
settings in."""

from __future__ import annotations

from lxml import etree

from ..qti21.xml import Data, _float, child, children, descendants, local

__all__ = ["Data", "_float", "child", "children", "descendants", "local", "metadata"]


def metadata(element: etree._Element) -> dict[str, str]:
    """The ``qtimetadatafield``s directly under ``element``'s own ``qtimetadata`` (an item's
    ``itemmetadata``, an assessment's or a bank's ``qtimetadata``), not those of its items."""
    fields: dict[str, str] = {}
    holders = [c for c in children(element) if local(c) in ("qtimetadata", "itemmetadata")]
    for holder in holders:
        for field in descendants(holder, "qtimetadatafield"):
            label, entry = child(field, "fieldlabel"), child(field, "fieldentry")
            if label is not None and (label.text or "").strip():
                fields.setdefault((label.text or "").strip(), (entry.text or "").strip() if entry is not None else "")
    return fields
