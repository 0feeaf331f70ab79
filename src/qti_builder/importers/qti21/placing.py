"""Interactions where students place or pick things inside a text or a set: gap match (words
into gaps), associate (choices into pairs) and hot text (phrases of a passage). Each becomes the
kind that keeps its scoring best: fill in the blank with drop-downs, matching, and a choice
question over the hot texts; what that changes is reported. :data:`READERS` adds them to
:data:`.kinds.READERS`, :data:`KIND_TYPES` says which model type each is read into."""

from __future__ import annotations


from lxml import etree

from ..base import INVALID, UNSUPPORTED, choice_ids, one_line
from .context import ItemContext
from .kinds import mapped_scores
from .responses import Response
from .xml import Data, children, descendants


def _pair_scoring(r: ItemContext, response: Response, right: list[str], what: str, directed: bool) -> None:
    """Pairs (gaps, associations) score as the model scores them: each right one an equal share.
    What else the item's scoring does is reported."""
    def key(pair: str) -> tuple[str, ...]:
        parts = pair.split()
        return tuple(parts) if directed else tuple(sorted(parts))

    if r.scoring == "match_correct" and len(right) > 1:
        r.lost.append(f"all-or-nothing scoring (each {what} now earns its share)")
    if not response.mapping:
        return
    mapped = {key(k): v for k, v in response.mapping.items()}
    values = [mapped.get(key(p), response.default) for p in right]
    if len(set(values)) > 1:
        r.lost.append(f"unequal scores of the {what}s ({', '.join(f'{p}: {v:g}' for p, v in zip(right, values))}): each now "
                      "earns an equal share")
    if response.default < 0 or any(v < 0 for v in mapped.values()):
        r.lost.append(f"negative scores for wrong {what}s")


def _gap_match(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    """Words dragged into gaps in a text: each gap a drop-down of every word, its right word the
    answer (several right words: all of them)."""
    interaction = interactions[0]
    response = r.responses.get(interaction.get("responseIdentifier", ""), Response(""))
    words = {w.get("identifier", ""): one_line("".join(w.itertext())) for w in children(interaction, "gapText")}
    right = response.right()
    by_gap: dict[str, list[str]] = {}
    for pair in right:
        parts = pair.split()
        if len(parts) == 2 and words.get(parts[0]):
            by_gap.setdefault(parts[1], []).append(words[parts[0]])
    pool = list(dict.fromkeys(w for w in words.values() if w))
    blanks = []
    for index, gap in enumerate(r.blank_order, 1):
        answers = list(dict.fromkeys(by_gap.get(gap, [])))
        if not answers:
            r.skip(INVALID, f"gap '{gap}' has no right word; skipped")
            data["_skip"] = True
            return
        blanks.append({"id": f"b{index}", "kind": "dropdown", "answers": answers, "options": [w for w in pool if w not in answers]})
    data["blanks"] = blanks
    once = len(blanks) > 1 and any(w.get("matchMax") == "1" for w in children(interaction, "gapText"))
    r.lost.append("dragging: the words become drop-down lists" + (", where a word meant to be used once can be chosen in "
                                                                  "several gaps" if once else ""))
    _pair_scoring(r, response, right, "gap", directed=True)


def _associate(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    """Choices associated in pairs: matching, the first choice of each right pair (as the correct
    response writes it) its prompt and the other its answer; choices in no right pair are distractors."""
    interaction = interactions[0]
    response = r.responses.get(interaction.get("responseIdentifier", ""), Response(""))
    choices = descendants(interaction, "simpleAssociableChoice")
    order = [c.get("identifier", "") for c in choices]
    texts = {c.get("identifier", ""): r.rich(children(c), "a choice", c.text) for c in choices}
    right = [p for p in response.right() if len(p.split()) == 2 and all(part in texts for part in p.split())]
    prompts: dict[str, str] = {}
    for pair in right:
        first, second = pair.split()  # as the author wrote the pair, unless that contradicts another
        if first in prompts.values() or second in prompts:
            first, second = second, first
        if first in prompts or first in prompts.values() or second in prompts or second in prompts.values():
            r.skip(UNSUPPORTED, f"right pairs that share a choice ({pair}) cannot become prompts and answers; skipped")
            data["_skip"] = True
            return
        prompts[first] = second
    data["pairs"] = [{"prompt": texts[p], "answer": texts[prompts[p]]} for p in order if p in prompts]
    data["distractors"] = [texts[c] for c in order if c not in prompts and c not in prompts.values()]
    data["shuffle"] = interaction.get("shuffle") == "true"
    r.lost.append("free pairing: the choices are split into prompts and answers by the right pairs")
    _pair_scoring(r, response, right, "pair", directed=False)


def _hottext(r: ItemContext, data: Data, interactions: list[etree._Element]) -> None:
    """Hot texts chosen in a passage: a choice question over them (the passage is the stem)."""
    interaction = interactions[0]
    response = r.responses.get(interaction.get("responseIdentifier", ""), Response(""))
    hot = descendants(interaction, "hottext")
    originals = [h.get("identifier", "") for h in hot]
    right = response.right()
    if not any(o in right for o in originals):
        r.skip(INVALID, "no hot text is right; skipped")
        data["_skip"] = True
        return
    choices = []
    for element, ident, original in zip(hot, choice_ids(len(hot), originals), originals):
        choice: Data = {"id": ident, "text": r.rich(children(element), f"hot text {ident}", element.text),
                        "correct": original in right}
        feedback = r.choice_feedback(original)
        if feedback:
            choice["feedback"] = feedback
        choices.append(choice)
    data["choices"] = choices
    data["shuffle"] = False  # the passage's order
    single = interaction.get("maxChoices", "1") == "1" and sum(o in right for o in originals) == 1
    data["type"] = "single_choice" if single else "multiple_response"
    if not single:
        mapped_scores(r, data, response, originals)
    r.lost.append("choosing in the text: the hot texts become the choices under it")


#: Kinds read into a model type of another name (a hot text item may become multiple response).
KIND_TYPES = {"gap_match": "fill_in_blank", "associate": "matching", "hottext": "single_choice"}

READERS = {"gap_match": _gap_match, "associate": _associate, "hottext": _hottext}
