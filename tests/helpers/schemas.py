"""The official QTI 2.1 and IMS CP schemas, read by xmlschema (a second validator beside the
build's lxml), from the same folder as the build (an offline copy or the download cache), each URL
mapped to its file by the project's pins (schemas/official-xsd.json), which every such folder has."""

from __future__ import annotations

from functools import lru_cache

import xmlschema

from helpers import SCHEMAS

from qti_builder.schemas import pins


@lru_cache(maxsize=1)
def official_schemas() -> tuple[xmlschema.XMLSchema10, xmlschema.XMLSchema10]:
    pinned = pins()
    exact = {u: str(SCHEMAS / p) for u, p in pinned["aliases"].items()}
    prefixes = [(u, str(SCHEMAS / p) + "/") for u, p in pinned["prefixes"].items()]

    def uri_mapper(uri: str) -> str:
        if uri in exact:
            return exact[uri]
        for prefix, path in prefixes:
            if uri.startswith(prefix):
                return path + uri[len(prefix):]
        return uri

    def load(rel: str) -> xmlschema.XMLSchema10:
        return xmlschema.XMLSchema10(str(SCHEMAS / rel), uri_mapper=uri_mapper, allow="local")

    return load("qti21/imsqti_v2p1.xsd"), load("qti21/qtiv2p1_imscpv1p2_v1p0.xsd")
