"""MathML back to TeX, so imported formulas become ``$...$`` in Markdown again.

QTI packages carry formulas as MathML (ours from latex2mathml, others from their editors). The
source format keeps formulas as TeX, so each ``<math>`` is turned back into TeX: a TeX annotation
when the MathML has one (``<annotation encoding="application/x-tex">``, as many editors write),
else the presentation elements below, one rule per element. The result need not spell the TeX the
way an author would; it must render to the same formula.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

MATHML_NS = "http://www.w3.org/1998/Math/MathML"

#: Characters that need a TeX command (mo, mi). Anything else is written as it is.
SYMBOLS = {
    "−": "-", "±": "\\pm", "∓": "\\mp", "×": "\\times", "÷": "\\div", "⋅": "\\cdot", "·": "\\cdot", "∗": "\\ast",
    "≤": "\\leq", "≥": "\\geq", "≠": "\\neq", "≈": "\\approx", "≡": "\\equiv", "∼": "\\sim", "≅": "\\cong",
    "∝": "\\propto", "→": "\\to", "←": "\\leftarrow", "↔": "\\leftrightarrow", "⇒": "\\Rightarrow",
    "⇐": "\\Leftarrow", "⇔": "\\Leftrightarrow", "∞": "\\infty", "∑": "\\sum", "∏": "\\prod", "∫": "\\int",
    "∮": "\\oint", "∂": "\\partial", "∇": "\\nabla", "∈": "\\in", "∉": "\\notin", "⊂": "\\subset",
    "⊆": "\\subseteq", "⊃": "\\supset", "⊇": "\\supseteq", "∪": "\\cup", "∩": "\\cap", "∅": "\\emptyset",
    "∀": "\\forall", "∃": "\\exists", "¬": "\\neg", "∧": "\\wedge", "∨": "\\vee", "…": "\\ldots", "⋯": "\\cdots",
    "⋮": "\\vdots", "⋱": "\\ddots", "°": "^\\circ", "∠": "\\angle", "⊥": "\\perp", "∥": "\\parallel",
    "α": "\\alpha", "β": "\\beta", "γ": "\\gamma", "δ": "\\delta", "ε": "\\epsilon", "ϵ": "\\epsilon",
    "ζ": "\\zeta", "η": "\\eta", "θ": "\\theta", "ϑ": "\\vartheta", "ι": "\\iota", "κ": "\\kappa",
    "λ": "\\lambda", "μ": "\\mu", "ν": "\\nu", "ξ": "\\xi", "π": "\\pi", "ρ": "\\rho", "σ": "\\sigma",
    "τ": "\\tau", "υ": "\\upsilon", "φ": "\\phi", "ϕ": "\\phi", "χ": "\\chi", "ψ": "\\psi", "ω": "\\omega",
    "Γ": "\\Gamma", "Δ": "\\Delta", "Θ": "\\Theta", "Λ": "\\Lambda", "Ξ": "\\Xi", "Π": "\\Pi", "Σ": "\\Sigma",
    "Υ": "\\Upsilon", "Φ": "\\Phi", "Ψ": "\\Psi", "Ω": "\\Omega", "{": "\\{", "}": "\\}", "%": "\\%",
    "#": "\\#", "&": "\\&", "_": "\\_", "\u2061": "", "\u2062": "", "\u2063": "", "\u00a0": "~",
}
#: Multi-letter identifiers TeX writes as commands.
FUNCTIONS = {"sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
             "log", "ln", "lg", "exp", "lim", "max", "min", "sup", "inf", "det", "dim", "gcd", "deg", "arg", "ker"}
#: mover accents -> TeX accent commands.
ACCENTS = {"^": "\\hat", "ˆ": "\\hat", "¯": "\\bar", "‾": "\\overline", "→": "\\vec", "⃗": "\\vec", "~": "\\tilde",
           "˜": "\\tilde", ".": "\\dot", "˙": "\\dot", "¨": "\\ddot", "⏞": "\\overbrace"}
TEX_ENCODINGS = ("application/x-tex", "tex", "latex", "text/x-latex", "application/x-latex")


def local(tag: object) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def mathml_to_tex(math: etree._Element) -> str:
    """The TeX of one ``<math>`` element."""
    for annotation in math.iter(f"{{{MATHML_NS}}}annotation", "annotation"):
        if (annotation.get("encoding") or "").lower() in TEX_ENCODINGS and (annotation.text or "").strip():
            return annotation.text.strip()
    return _mrow(math)


def _children(element: etree._Element) -> list[etree._Element]:
    return [c for c in element if isinstance(c.tag, str)]


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _symbol(text: str) -> str:
    return "".join(SYMBOLS.get(ch, ch) for ch in text)


def _group(element: etree._Element) -> str:
    """An argument: braces unless it is a single character or command."""
    tex = _tex(element)
    return tex if re.fullmatch(r"[A-Za-z0-9]|\\[A-Za-z]+", tex) else "{" + tex + "}"


def _join(parts: object) -> str:
    out = ""
    for part in parts:  # type: ignore[attr-defined]
        if not part:
            continue
        # "\pm" then "b" must not become "\pmb".
        if re.search(r"\\[A-Za-z]+$", out) and part[:1].isalpha():
            out += " "
        out += part
    return out


def _mi(element: etree._Element) -> str:
    text = _text(element)
    if text in FUNCTIONS:
        return "\\" + text
    if len(text) > 1 and text.isalpha() and element.get("mathvariant") != "italic":
        return "\\mathrm{" + text + "}"
    return _symbol(text)


def _mo(element: etree._Element) -> str:
    return _symbol(_text(element))


def _mtext(element: etree._Element) -> str:
    text = "".join(element.itertext())
    # A space of its own is TeX's tie (a bare "\ " would lose its space to the strip around it).
    return "\\text{" + text.replace("{", "\\{").replace("}", "\\}") + "}" if text.strip() else "~"


#: Operators written with a space on each side when they stand between two operands, as people
#: write TeX (``x = -b \\pm c``); the spacing changes nothing in the rendering.
BINARY = {"=", "+", "-", "\\pm", "\\mp", "\\times", "\\div", "\\cdot", "<", ">", "\\leq", "\\geq", "\\neq",
          "\\approx", "\\equiv", "\\to", "\\Rightarrow", "\\Leftrightarrow", "\\in", "\\subset", "\\cup", "\\cap"}


def _mrow(element: etree._Element) -> str:
    out, previous_operand = "", False
    for child in _children(element):
        tex = _tex(child)
        if local(child.tag) in ("mo", "mi") and tex in BINARY:
            out = (out.rstrip() + " " + tex + " ") if previous_operand else out + tex
            previous_operand = False
            continue
        out = _join([out, tex]) if not out.endswith(" ") else out + tex
        previous_operand = bool(tex)
    return out.strip()


def _pair(template: str) -> Callable[[etree._Element], str]:
    def render(element: etree._Element) -> str:
        kids = _children(element)
        if len(kids) < 2:
            return _mrow(element)
        if template == "frac":
            return f"\\frac{{{_tex(kids[0])}}}{{{_tex(kids[1])}}}"
        if template == "root":
            return f"\\sqrt[{_tex(kids[1])}]{{{_tex(kids[0])}}}"
        return _group(kids[0]) + template + _group(kids[1])

    return render


def _msubsup(element: etree._Element) -> str:
    kids = _children(element)
    if len(kids) < 3:
        return _mrow(element)
    return _group(kids[0]) + "_" + _group(kids[1]) + "^" + _group(kids[2])


def _mover(element: etree._Element) -> str:
    kids = _children(element)
    if len(kids) < 2:
        return _mrow(element)
    accent = _text(kids[1])
    if accent in ACCENTS:
        return f"{ACCENTS[accent]}{{{_tex(kids[0])}}}"
    base = _tex(kids[0])
    if base in ("\\sum", "\\prod", "\\int", "\\lim"):
        return base + "^" + _group(kids[1])
    return f"\\overset{{{_tex(kids[1])}}}{{{base}}}"


def _munder(element: etree._Element) -> str:
    kids = _children(element)
    if len(kids) < 2:
        return _mrow(element)
    base = _tex(kids[0])
    if base in ("\\sum", "\\prod", "\\int", "\\lim", "\\max", "\\min"):
        return base + "_" + _group(kids[1])
    return f"\\underset{{{_tex(kids[1])}}}{{{base}}}"


def _msqrt(element: etree._Element) -> str:
    return "\\sqrt{" + _mrow(element) + "}"


def _mfenced(element: etree._Element) -> str:
    opening, closing = element.get("open", "("), element.get("close", ")")
    separator = element.get("separators", ",")[:1]
    inner = separator.join(_tex(c) for c in _children(element))
    return f"\\left{_fence(opening)}{inner}\\right{_fence(closing)}"


def _fence(symbol: str) -> str:
    return {"{": "\\{", "}": "\\}", "": ".", "⟨": "\\langle", "⟩": "\\rangle", "|": "|", "‖": "\\|"}.get(symbol, symbol)


def _mtable(element: etree._Element) -> str:
    rows = []
    for row in _children(element):
        rows.append(" & ".join(_tex(cell) for cell in _children(row)))
    return "\\begin{matrix}" + " \\\\ ".join(rows) + "\\end{matrix}"


def _mspace(element: etree._Element) -> str:
    return "\\,"


def _semantics(element: etree._Element) -> str:
    kids = _children(element)
    return _tex(kids[0]) if kids else ""


RULES: dict[str, Callable[[etree._Element], str]] = {
    "mi": _mi, "mn": lambda e: _text(e), "mo": _mo, "mtext": _mtext, "ms": _mtext,
    "mrow": _mrow, "mstyle": _mrow, "mpadded": _mrow, "mphantom": lambda e: "", "merror": _mrow, "mtd": _mrow,
    "msup": _pair("^"), "msub": _pair("_"), "msubsup": _msubsup, "mfrac": _pair("frac"), "mroot": _pair("root"),
    "msqrt": _msqrt, "mover": _mover, "munder": _munder, "munderover": _msubsup, "mfenced": _mfenced,
    "mtable": _mtable, "mspace": _mspace, "semantics": _semantics, "annotation": lambda e: "",
    "annotation-xml": lambda e: "",
}


def _tex(element: etree._Element) -> str:
    rule = RULES.get(local(element.tag))
    return rule(element) if rule else _symbol(_text(element))
