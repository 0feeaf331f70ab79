"""How people write quizzes and exam papers, language by language: the words and marks a reader
of quiz text needs, as data.

The Markdown reader (readers/markdown/syntax.py) builds its patterns from these tables, and an
importer of pasted exam text can read the same forms by importing them. Adding a language is
adding a :class:`Language` to :data:`LANGUAGES`; forms that are the same in every language
(circled numbers, O/X, brackets) sit in the shared tables at the end. docs/source-format.md
("Exam-paper conventions") shows these tables to authors.

Roles of a label: ``answer`` (the answer, or an essay's model answer), ``explanation`` (general
feedback), ``correct`` / ``incorrect`` / ``partially_correct`` (feedback by outcome), ``grading``
(a marking scheme: graders only) and ``feedback`` (indented under an option or an answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Language:
    """One language's words. Every word is lower case, as the reader compares them."""

    #: The language's name in English, for messages ("the Japanese label").
    name: str
    #: Label -> role (see the module docstring).
    labels: dict[str, str]
    #: Labels that introduce a model answer: an enumeration in it, ``(1) ...`` or ``① ...`` at the
    #: left margin, stays in it rather than being read as options placed after the answer.
    model_answer_labels: tuple[str, ...] = ()
    #: Words for true and for false, as answers. The pairs ``labels`` of a true/false question
    #: are in i18n.TRUE_FALSE; these are every word an author writes for them.
    true_words: tuple[str, ...] = ()
    false_words: tuple[str, ...] = ()
    #: Words between accepted answers of a short answer (``서울 또는 서울특별시``).
    or_words: tuple[str, ...] = ()
    #: Words between option markers of an answer naming several (``A and C``).
    and_words: tuple[str, ...] = ()
    #: Words before a question number (``문제 1.``, ``Question 1.``). Those written in Latin letters
    #: need a full stop, colon or bracket after the number (``Question 1 is ...`` is a sentence).
    question_words: tuple[str, ...] = ()
    #: Words after a question number (``1번``).
    number_suffixes: tuple[str, ...] = ()
    #: Words after a number of points (``3점``, ``3 points``), and before one (``배점 3``).
    points_units: tuple[str, ...] = ()
    points_prefixes: tuple[str, ...] = ()
    #: Words that make a section's points each question's (``각 2점``, ``2 points each``).
    each_before: tuple[str, ...] = ()
    each_after: tuple[str, ...] = ()
    #: Words of a section title that say what its questions are: -> a question type.
    section_kinds: dict[str, str] = field(default_factory=dict)
    #: Words before a range of question numbers that share a passage (``Questions 3-4``).
    passage_words: tuple[str, ...] = ()
    #: Titles of an answer key at the end of an exam or a quiz page (``정답 및 해설``, ``Answer key``):
    #: read by the quiz-page importer (a source gives each question its own answer).
    key_titles: tuple[str, ...] = ()
    #: Labels quiz pages and answer sheets use besides ``labels`` (``Solution:``, ``Rationale:``):
    #: read by the quiz-page importer only, since in a source such a word at a line's start is as
    #: likely the author's own text.
    page_labels: dict[str, str] = field(default_factory=dict)
    #: Words that number a part of a paper (``Part III.``, ``Section B``, ``Teil 2``, ``PARTE I``):
    #: a line starting with one, capitalised, then a numeral or a letter, is a section heading.
    section_words: tuple[str, ...] = ()
    #: Words of a closing mark (``- 끝 -``, ``— End of exam —``, ``以上``): a line of only such a
    #: word, between dashes or brackets, ends the paper's questions and is shown to nobody.
    closing_words: tuple[str, ...] = ()
    #: Titles of a paper's numbered instructions (``注意事项：1．… 2．…``, ``Instructions:``): the
    #: numbered lines under one are instructions, not questions.
    instruction_titles: tuple[str, ...] = ()
    #: Words before a bonus question (``Bonus (2 points): …``, ``附加题``).
    bonus_words: tuple[str, ...] = ()
    #: Words that number a task (``Aufgabe 2``, ``Exercice 2``, ``Task 2``): a question, or the heading
    #: of the numbered questions under it, as the lines after it show (readers/markdown/tasks.py).
    task_words: tuple[str, ...] = ()


ANSWER, EXPLANATION, GRADING = "answer", "explanation", "grading"

LANGUAGES: dict[str, Language] = {
    "en": Language(
        name="English",
        task_words=("task", "problem", "exercise"),
        labels={
            "answer": ANSWER, "ans": ANSWER, "correct answer": ANSWER, "model answer": ANSWER, "sample answer": ANSWER,
            "explanation": EXPLANATION, "general feedback": EXPLANATION,
            "correct feedback": "correct", "incorrect feedback": "incorrect",
            "partially correct feedback": "partially_correct",
            "marking scheme": GRADING, "grading criteria": GRADING,
            "feedback": "feedback",
        },
        model_answer_labels=("model answer", "sample answer"),
        true_words=("true", "yes"), false_words=("false", "no"),
        or_words=("or",), and_words=("and", "&"),
        question_words=("question", "q", "problem"),
        points_units=("points", "point", "pts", "pt", "marks", "mark"),
        each_before=("each",), each_after=("each",),
        section_kinds={"multiple choice": "single_choice", "short answer": "short_answer", "essay": "essay",
                       "true or false": "true_false", "true/false": "true_false"},
        passage_words=("questions",),
        key_titles=("answers", "answer key", "answer sheet", "key", "solutions", "answers and explanations"),
        page_labels={"solution": EXPLANATION, "rationale": EXPLANATION, "feedback": EXPLANATION, "correct": ANSWER,
                     "key": ANSWER},
        section_words=('part', 'section'),
        closing_words=('end', 'the end', 'end of exam', 'end of test', 'end of paper', 'end of questions'),
        instruction_titles=('instructions', 'directions'),
        bonus_words=('bonus question', 'bonus', 'extra credit'),
    ),
    "ko": Language(
        name="Korean",
        labels={
            "정답": ANSWER, "답": ANSWER, "모범 답안": ANSWER, "모범답안": ANSWER, "예시 답안": ANSWER, "예시답안": ANSWER,
            "설명": EXPLANATION, "해설": EXPLANATION, "풀이": EXPLANATION,
            "정답 피드백": "correct", "오답 피드백": "incorrect", "부분 정답 피드백": "partially_correct",
            "채점 기준": GRADING, "채점기준": GRADING,
            "피드백": "feedback",
        },
        model_answer_labels=("모범 답안", "모범답안", "예시 답안", "예시답안"),
        true_words=("참", "맞다", "맞음", "옳다", "옳음", "예"), false_words=("거짓", "틀리다", "틀림", "옳지 않다", "그름", "아니오", "아니요"),
        or_words=("또는", "혹은"), and_words=("및", "와", "과"),
        question_words=("문제", "문항", "문"), number_suffixes=("번",),
        points_units=("점",), points_prefixes=("배점",),
        each_before=("각",), each_after=("씩",),
        section_kinds={"객관식": "single_choice", "선택형": "single_choice", "단답형": "short_answer",
                       "서술형": "essay", "논술형": "essay", "서답형": "essay", "ox": "true_false", "진위형": "true_false"},
        key_titles=("정답", "정답표", "정답 및 해설", "정답과 해설", "정답 및 풀이", "해답", "빠른 정답", "답안"),
        page_labels={"해답": ANSWER, "피드백": EXPLANATION},
        section_words=(),
        closing_words=('끝', '이상', '수고하셨습니다'),
        instruction_titles=('유의사항', '유의 사항', '주의사항', '주의 사항', '수험생 유의사항'),
        bonus_words=('보너스 문제', '보너스', '가산점 문제'),
    ),
    "ja": Language(
        name="Japanese",
        labels={"正解": ANSWER, "答え": ANSWER, "解答": ANSWER, "答": ANSWER, "模範解答": ANSWER, "解答例": ANSWER,
                "解説": EXPLANATION, "採点基準": GRADING, "フィードバック": "feedback"},
        model_answer_labels=("模範解答", "解答例"),
        true_words=("正", "正しい", "はい"), false_words=("誤", "誤り", "いいえ"),
        or_words=("または", "或いは"), and_words=("と",),
        question_words=("問", "問題", "設問"),
        points_units=("点",), points_prefixes=("配点", "完答"),
        each_before=("各",),
        section_kinds={"選択問題": "single_choice", "記述問題": "essay", "記述式": "essay", "正誤問題": "true_false",
                       "短答式": "short_answer", "短答問題": "short_answer", "語句問題": "short_answer"},
        key_titles=("正解", "解答", "正解と解説", "解答と解説", "解答・解説", "解答例"),
        page_labels={"フィードバック": EXPLANATION},
        section_words=(),
        closing_words=('以上', 'おわり', '終わり', '終'),
        instruction_titles=('注意事項', '注意', '受験上の注意'),
        bonus_words=('ボーナス問題', 'ボーナス'),
    ),
    "zh": Language(
        name="Chinese",
        labels={"答案": ANSWER, "正确答案": ANSWER, "正確答案": ANSWER, "答": ANSWER, "参考答案": ANSWER, "參考答案": ANSWER,
                "解析": EXPLANATION, "分析": EXPLANATION, "解释": EXPLANATION, "解釋": EXPLANATION, "评分标准": GRADING, "評分標準": GRADING,
                "反馈": "feedback"},
        model_answer_labels=("参考答案", "參考答案"),
        true_words=("对", "對", "正确", "正確", "是", "√", "✓"), false_words=("错", "錯", "错误", "錯誤", "否"),
        or_words=("或", "或者"), and_words=("和",),
        question_words=("题", "題"),
        points_units=("分",),
        each_before=("每小题", "每小題", "每题", "每題", "每空", "每格", "各"),
        section_kinds={"选择题": "single_choice", "選擇題": "single_choice", "判断题": "true_false",
                       "判斷題": "true_false", "简答题": "essay", "簡答題": "essay", "填空题": "fill_in_blank"},
        key_titles=("答案", "参考答案", "參考答案", "答案与解析", "答案與解析"),
        page_labels={"反馈": EXPLANATION},
        section_words=(),
        closing_words=('完', '全卷完', '试卷结束', '試卷結束', '结束'),
        instruction_titles=('注意事项', '注意事項', '考生须知', '考生須知'),
        bonus_words=('附加题', '附加題', '加分题', '加分題'),
    ),
    "de": Language(
        name="German",
        task_words=("aufgabe",),
        labels={"antwort": ANSWER, "richtige antwort": ANSWER, "lösung": ANSWER, "musterlösung": ANSWER,
                "erklärung": EXPLANATION, "erläuterung": EXPLANATION, "bewertungskriterien": GRADING,
                "rückmeldung": "feedback"},
        model_answer_labels=("musterlösung",),
        true_words=("richtig", "wahr", "ja"), false_words=("falsch", "nein"),
        or_words=("oder",), and_words=("und",),
        question_words=("frage", "aufgabe"),
        points_units=("punkte", "punkt", "p."),
        each_before=("je",), each_after=("je frage", "pro frage", "je"),
        section_kinds={"multiple choice": "single_choice", "kurzantwort": "short_answer", "freitext": "essay"},
        passage_words=("fragen", "aufgaben"),
        key_titles=("lösungen", "lösung", "antworten"),
        page_labels={"rückmeldung": EXPLANATION},
        section_words=('teil', 'abschnitt'),
        closing_words=('ende',),
        instruction_titles=('hinweise', 'hinweis', 'anweisungen'),
        bonus_words=('zusatzaufgabe', 'zusatzfrage', 'bonusaufgabe', 'bonus'),
    ),
    "fr": Language(
        name="French",
        task_words=("exercice",),
        labels={"réponse": ANSWER, "bonne réponse": ANSWER, "réponse correcte": ANSWER, "corrigé": ANSWER,
                "réponse modèle": ANSWER, "explication": EXPLANATION, "barème": GRADING,
                "rétroaction": "feedback"},
        model_answer_labels=("corrigé", "réponse modèle"),
        true_words=("vrai", "oui"), false_words=("faux", "non"),
        or_words=("ou",), and_words=("et",),
        question_words=("question", "exercice"),
        points_units=("points", "point", "pts"),
        each_after=("chacune", "chacun", "par question"),
        section_kinds={"qcm": "single_choice", "questions à choix multiples": "single_choice",
                       "réponse courte": "short_answer", "vrai ou faux": "true_false"},
        passage_words=("questions",),
        key_titles=("corrigé", "réponses", "solutions"),
        page_labels={"rétroaction": EXPLANATION},
        section_words=('partie', 'section'),
        closing_words=('fin', "fin de l'épreuve", 'fin du sujet'),
        instruction_titles=('consignes', 'instructions'),
        bonus_words=('question bonus', 'bonus'),
    ),
    "es": Language(
        name="Spanish",
        task_words=("ejercicio",),
        labels={"respuesta": ANSWER, "respuesta correcta": ANSWER, "solución": ANSWER, "respuesta modelo": ANSWER,
                "explicación": EXPLANATION, "criterios de evaluación": GRADING, "retroalimentación": "feedback"},
        model_answer_labels=("respuesta modelo",),
        true_words=("verdadero", "sí", "si", "v"), false_words=("falso", "no", "f"),
        or_words=("o", "u"), and_words=(),
        question_words=("pregunta", "ejercicio"),
        points_units=("puntos", "punto", "ptos", "pts"),
        each_after=("cada una", "cada uno", "cada pregunta", "c/u"),
        section_kinds={"opción múltiple": "single_choice", "respuesta corta": "short_answer", "desarrollo": "essay",
                       "verdadero o falso": "true_false"},
        passage_words=("preguntas",),
        key_titles=("respuestas", "soluciones", "clave de respuestas"),
        page_labels={"retroalimentación": EXPLANATION},
        section_words=('parte', 'sección', 'seccion', 'bloque'),
        closing_words=('fin', 'fin del examen'),
        instruction_titles=('instrucciones', 'indicaciones'),
        bonus_words=('pregunta extra', 'pregunta bonus', 'bonus'),
    ),
    "pt": Language(
        name="Portuguese",
        task_words=("questão", "questao", "exercício"),
        labels={"resposta": ANSWER, "resposta correta": ANSWER, "gabarito": ANSWER, "resposta modelo": ANSWER,
                "resposta esperada": ANSWER, "explicação": EXPLANATION, "resolução": EXPLANATION,
                "critérios de correção": GRADING, "feedback": "feedback"},
        model_answer_labels=("resposta modelo", "resposta esperada"),
        true_words=("verdadeiro", "sim", "certo", "v"), false_words=("falso", "não", "errado", "f"),
        or_words=("ou",), and_words=(),
        question_words=("questão", "questao", "pergunta", "exercício"),
        points_units=("pontos", "ponto", "pts"),
        each_after=("cada",),
        section_kinds={"múltipla escolha": "single_choice", "resposta curta": "short_answer", "dissertativa": "essay",
                       "verdadeiro ou falso": "true_false"},
        passage_words=("questões",),
        key_titles=("gabarito", "respostas", "soluções"),
        section_words=('parte', 'seção', 'secção', 'bloco'),
        closing_words=('fim', 'fim da prova'),
        instruction_titles=('instruções', 'instrucoes'),
        bonus_words=('questão bônus', 'questão extra', 'bônus', 'bonus'),
    ),
    "it": Language(
        name="Italian",
        task_words=("esercizio",),
        labels={"risposta": ANSWER, "risposta corretta": ANSWER, "soluzione": ANSWER, "risposta modello": ANSWER,
                "spiegazione": EXPLANATION, "criteri di valutazione": GRADING, "feedback": "feedback"},
        model_answer_labels=("risposta modello",),
        true_words=("vero", "sì", "si", "v"), false_words=("falso", "no", "f"),
        or_words=("o", "oppure"), and_words=(),
        question_words=("domanda", "esercizio", "quesito"),
        points_units=("punti", "punto", "pt"),
        each_after=("ciascuna", "ciascuno", "cadauna"),
        section_kinds={"scelta multipla": "single_choice", "risposta breve": "short_answer", "vero o falso": "true_false"},
        passage_words=("domande",),
        key_titles=("risposte", "soluzioni"),
        section_words=('parte', 'sezione'),
        closing_words=('fine', 'fine della prova'),
        instruction_titles=('istruzioni', 'avvertenze'),
        bonus_words=('domanda bonus', 'esercizio bonus', 'bonus'),
    ),
}

#: English is always read, whatever the quiz's language, and so is Korean (the project's first
#: quizzes are Korean, and its labels read in any quiz since the first release).
ALWAYS = ("en", "ko")


def language(tag: str) -> str:
    """A language tag's primary subtag in lower case: ``pt-BR`` -> ``pt``."""
    return tag.split("-")[0].lower()


def active(tag: str) -> list[Language]:
    """The languages whose words a quiz in language ``tag`` may use without saying so: English,
    Korean and its own."""
    codes = list(ALWAYS) + ([language(tag)] if language(tag) not in ALWAYS else [])
    return [LANGUAGES[c] for c in codes if c in LANGUAGES]


def shown(tag: str) -> list[Language]:
    """The languages whose words a hint shows as examples to a quiz in language ``tag``: its own,
    then English (a Japanese paper's hints never show Korean words)."""
    codes = [language(tag)] + (["en"] if language(tag) != "en" else [])
    return [LANGUAGES[c] for c in codes if c in LANGUAGES] or [LANGUAGES["en"]]


@dataclass(frozen=True)
class Examples:
    """Words a hint writes for a quiz in one language: ``정답: 참``, ``正解: 正``."""

    answer: str
    true: str
    false: str
    #: Two accepted answers of one short answer, and the quiz language's word between them.
    alternatives: tuple[str, str]
    or_word: str
    #: A section title that makes its questions short answers ('단답형', 'Short answer'), if any.
    short_answer_section: str | None


#: Two accepted answers of a short answer, per language, for hints ("서울, 서울특별시").
ALTERNATIVES = {"ko": ("서울", "서울특별시"), "ja": ("東京", "東京都"), "zh": ("北京", "北京市"), "en": ("Seoul", "Seoul City"),
                "de": ("Berlin", "Stadt Berlin"), "fr": ("Paris", "la ville de Paris"), "es": ("Madrid", "la ciudad de Madrid"),
                "pt": ("Lisboa", "a cidade de Lisboa"), "it": ("Roma", "la città di Roma")}


def examples(tag: str) -> Examples:
    """The quiz language's own answer label, true/false words and short-answer words, for hints
    (English as written in sources: ``Answer``, capitalised)."""
    lang = shown(tag)[0]
    code = next(c for c, known in LANGUAGES.items() if known is lang)
    answer = next(name for name, role in lang.labels.items() if role == ANSWER)
    section = next((word for word, kind in lang.section_kinds.items() if kind == "short_answer"), None)
    return Examples(answer[:1].upper() + answer[1:], lang.true_words[0], lang.false_words[0],
                    ALTERNATIVES.get(code, ALTERNATIVES["en"]), lang.or_words[0] if lang.or_words else "or",
                    section[:1].upper() + section[1:] if section else None)


def all_labels() -> dict[str, str]:
    """Every language's labels -> role. Labels are read in every quiz: they are words followed by
    a colon at the left margin, which no language uses for anything else."""
    found: dict[str, str] = {}
    for lang in LANGUAGES.values():
        for name, role in lang.labels.items():
            found.setdefault(name, role)
    return found


def page_labels() -> dict[str, str]:
    """Every label a quiz page may use -> role: every language's labels and page labels, feedback
    read as the explanation (a page has no options with feedback of their own)."""
    found = {name: EXPLANATION if role == "feedback" else role for name, role in all_labels().items()}
    for lang in LANGUAGES.values():
        for name, role in lang.page_labels.items():
            found[name] = role
    return found


def label_language(name: str) -> Language | None:
    for lang in LANGUAGES.values():
        if name in lang.labels:
            return lang
    return None


def words(attribute: str, languages: list[Language] | None = None) -> tuple[str, ...]:
    """One attribute's words over ``languages`` (all by default), without repeats, longest first
    (so that a pattern made of them tries ``correct answer`` before ``answer``)."""
    seen: dict[str, None] = {}
    for lang in languages if languages is not None else LANGUAGES.values():
        for word in getattr(lang, attribute):
            seen.setdefault(word, None)
    return tuple(sorted(seen, key=len, reverse=True))


# -- forms that are the same in every language ----------------------------------------------------

#: True/false marks every language uses: O/X (Korean and Japanese schools), circles and crosses.
#: When an answer is one of these, the question shows these marks as its two choices.
MARK_PAIRS: tuple[tuple[str, str], ...] = (("O", "X"), ("○", "×"), ("◯", "✕"), ("Ｏ", "Ｘ"), ("√", "×"))
#: The pair a language's papers mean by a mark two pairs share: Chinese papers mark ``√``/``×``.
PREFERRED_MARKS: dict[str, tuple[str, str]] = {"zh": ("√", "×")}
MARK_TRUE = tuple(t.lower() for t, _ in MARK_PAIRS)
MARK_FALSE = tuple(f.lower() for _, f in MARK_PAIRS)

#: Option markers, by numbering style (CSS counter-style names): the marks in order. An option's
#: place in its style's sequence is what an answer names (``③`` is the third option).
OPTION_STYLES: dict[str, str | tuple[str, ...]] = {
    "upper-alpha": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "lower-alpha": "abcdefghijklmnopqrstuvwxyz",
    "lower-roman": ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x",
                    "xi", "xii", "xiii", "xiv", "xv", "xvi", "xvii", "xviii", "xix", "xx"),
    "circled-decimal": "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳",
    "parenthesized-decimal": "",  # (1) (2) ...: digits
    "decimal": "",  # 1) 2) ...: digits, under a question numbered '1.'
    "hangul": "가나다라마바사아자차카타파하",
    "hangul-consonant": "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ",
    "katakana": "アイウエオカキクケコサシスセソタチツテト",
    # The order of the iroha poem, as older Japanese papers number options: イ ロ ハ ニ.
    "iroha": "イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセス",
}
#: How each style is written, for messages: the first marker.
OPTION_STYLE_EXAMPLES: dict[str, str] = {
    "upper-alpha": "A)", "lower-alpha": "a)", "lower-roman": "i)", "circled-decimal": "①", "parenthesized-decimal": "(1)",
    "decimal": "1)", "hangul": "가)", "hangul-consonant": "ㄱ.", "katakana": "ア)", "iroha": "イ)",
}
#: Each style as authors write it, for docs/source-format.md's table (:func:`option_table`): the
#: markers, and how an answer names the second option (or several).
OPTION_STYLE_FORMS: dict[str, tuple[str, str]] = {
    "upper-alpha": ("`A)` `B)`, `A.` `B.`, `(A)` `(B)`, `A、`, `- A)`, full-width `Ａ）`, `（Ａ）`, `Ａ．`", "`B`, `B)`, `(B)`, `A, C`"),
    "lower-alpha": ("`a)` `b)`, `(a)`", "`b`, `a, c`"),
    "lower-roman": ("`i)` `ii)` `iii)`, `(i)`, `i.` (`i` first: a list of letters does not start at i)", "`ii`, `(ii)`, `i, iii`"),
    "circled-decimal": ("`①` `②` … `⑳` (`①서울②부산`: no space needed between them)",
                        "`②`, `②, ④`, `②④`, `2`, `2번`"),
    "parenthesized-decimal": ("`(1)` `(2)`", "`(2)`, `2`"),
    "decimal": ("`1)` `2)` under a question numbered `1.`", "`2`"),
    "hangul": ("`가)` `나)`, `가.` `나.`", "`나`, `나)`"),
    "hangul-consonant": ("`ㄱ.` `ㄴ.`, `ㄱ)`", "`ㄴ`, `ㄱ, ㄷ`"),
    "katakana": ("`ア)` `イ)`, `(ア)`, `ア．`, `ア、`, `ア` and a space (`ア 大阪`, `ア　大阪`; not `ア = 3` in a formula)", "`イ`"),
    "iroha": ("`イ)` `ロ)` `ハ)`, `(イ)` (`イ` first)", "`ロ`"),
}
#: Styles whose markers are also another style's (``i`` a letter, ``イ`` the second katakana): a
#: question's first option in the first of these, or any option of a question in this style, is
#: read in this style (:func:`readers.markdown.syntax.in_style`).
SHARED_MARKERS = {"lower-roman": "lower-alpha", "iroha": "katakana"}
#: Styles an exam also uses for statements listed in the question text (``<보기>`` boxes): when
#: options in another style follow them, they were the question's statements, not its options.
STATEMENT_STYLES = ("hangul", "hangul-consonant", "katakana", "iroha", "lower-alpha", "lower-roman", "parenthesized-decimal",
                    "decimal")
#: Roman numerals that number statements in a question (``I. ... II. ... III. ...``, then options
#: ``A) I only``): the statements stay in the question's text.
ROMAN_STATEMENTS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")

#: Numbers in dingbat forms the reader does not take as option markers (QB180) but reads, once
#: reported, as the circled numbers they look like: ❶ ➀ ➊ ⓵ ⑴ ⒈.
NUMBER_DINGBATS = ("❶❷❸❹❺❻❼❽❾❿", "➀➁➂➃➄➅➆➇➈➉", "➊➋➌➍➎➏➐➑➒➓", "⓵⓶⓷⓸⓹⓺⓻⓼⓽⓾",
                   "⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽⑾⑿⒀⒁⒂⒃⒄⒅⒆⒇", "⒈⒉⒊⒋⒌⒍⒎⒏⒐⒑⒒⒓⒔⒕⒖⒗⒘⒙⒚⒛")
#: Each dingbat -> the circled number of the same value.
DINGBAT_CIRCLED = {ch: OPTION_STYLES["circled-decimal"][i] for run in NUMBER_DINGBATS for i, ch in enumerate(run)}

#: Full-width letters and digits, as pasted from CJK word processors -> their ASCII forms.
FULL_WIDTH = ({chr(0xFF21 + i): chr(0x41 + i) for i in range(26)} | {chr(0xFF41 + i): chr(0x61 + i) for i in range(26)}
              | {chr(0xFF10 + i): chr(0x30 + i) for i in range(10)})
FULL_WIDTH_DIGITS = "".join(chr(0xFF10 + i) for i in range(10))

#: Characters that separate several answers on one line.
ANSWER_SEPARATORS = ",，、/／;；"

#: Marks that start a section of an exam paper (``■ 객관식``, ``Ⅱ. 단답형``).
SECTION_BULLETS = "■□◆◇▣▶▷"
ROMAN_NUMERALS = "ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩⅪⅫ"
#: Brackets around a section kind (``[객관식]``), a label (``[정답]``) or a question number (``[문제 1]``).
OPEN_BRACKETS, CLOSE_BRACKETS = "[【〔<〈《", "]】〕>〉》"
#: Dashes and tildes between the first and last question numbers of a shared passage (``[3~4]``).
RANGE_MARKS = "~～〜∼-–—"
#: Arrows between the parts of an ordering answer (``(가) → (나) → (다)``).
ARROWS = ("→", "->", "⇒", "=>", "➝", "-", "–")
#: The mark before an instruction for the questions that follow (``※ 다음 물음에 답하시오.``).
NOTE_MARK = "※"
#: A box of statements in a question (``<보기>``): its lines keep their line breaks.
BOX_TITLES = ("보기", "보 기", "例", "例示")
#: Blanks as exams print them: ``(    )``, ``____``, and circled letters ``㉠`` (named blanks).
NAMED_BLANKS = "㉠㉡㉢㉣㉤㉥㉦㉧㉨㉩㉪㉫㉬㉭"
#: Item labels of matching and ordering questions as exams print them: ``(가)``, ``㉠``, ``ㄱ``.
ITEM_LABELS = "가나다라마바사아자차카타파하" + NAMED_BLANKS + "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The dots between the two columns of a matching question (``(가) 김소월 ･ ･ ㉠ 서시``).
MATCH_DOTS = "･・·•∙⋅"


# -- the tables in docs/source-format.md ---------------------------------------------------------------


def option_table() -> str:
    """docs/source-format.md's table of option markers, made from these tables."""
    rows = ["| Markers | Numbering | Answer names them as |", "|---|---|---|"]
    for style, (markers, answers) in OPTION_STYLE_FORMS.items():
        marks = OPTION_STYLES[style] or ("1", "2", "3")
        shown = [f"({m})" for m in marks[:3]] if style == "parenthesized-decimal" else list(marks[:3])
        rows.append(f"| {markers} | {', '.join(shown)} | {answers} |")
    return "\n".join(rows)


def markdown_tables() -> str:
    """docs/source-format.md's tables of labels and words per language, made from these tables (a
    test keeps the two the same)."""

    def cell(words: list[str] | tuple[str, ...]) -> str:
        return ", ".join(f"`{w}`" for w in words) or "—"

    def named(lang: Language, roles: tuple[str, ...]) -> list[str]:
        return [w.capitalize() for w, r in lang.labels.items() if r in roles]

    labels = ["| Language | `language:` | Answer | Explanation | Marking scheme | Feedback (indented) |",
              "|---|---|---|---|---|---|"]
    words_ = ["| Language | True | False | Between accepted answers | Before a question number | Points |",
              "|---|---|---|---|---|---|"]
    for code, lang in LANGUAGES.items():
        labels.append(f"| {lang.name} | `{code}` | {cell(named(lang, (ANSWER,)))} | {cell(named(lang, (EXPLANATION,)))} | "
                      f"{cell(named(lang, (GRADING,)))} | {cell(named(lang, ('feedback',)))} |")
        points = [f"3 {u}" if u.isascii() else f"3{u}" for u in lang.points_units[:2]]
        words_.append(f"| {lang.name} | {cell(lang.true_words)} | {cell(lang.false_words)} | {cell(lang.or_words)} | "
                      f"{cell(lang.question_words + lang.number_suffixes)} | {cell(points)} |")
    return "\n".join(labels) + "\n\n" + "\n".join(words_)
