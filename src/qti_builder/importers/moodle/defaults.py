"""The combined feedback Moodle fills in by itself: its question form puts its language's
'correctfeedbackdefault', 'partiallycorrectfeedbackdefault' and 'incorrectfeedbackdefault' strings
(component 'question') into every new question, and its export writes them as if the author had.
They are Moodle's words, not the author's, so the import leaves them out (the source keeps what
the author wrote; Canvas would otherwise count each one as a loss).

The strings are those of Moodle's language packs (the packs Moodle's translation site, AMOS,
publishes for each release, each language's ``question.php``: the strings
'correctfeedbackdefault', 'partiallycorrectfeedbackdefault' and 'incorrectfeedbackdefault'), as
read from public copies of the packs (mostly 4.x; Bulgarian from the 4.4 pack, Hebrew 4.1,
Persian and traditional Chinese 5.0, Vietnamese 3.11, as each file's header names its language
and release), per language: correct, partially correct, incorrect (an empty text would be a
string a pack leaves untranslated, for which Moodle shows the English one, in the table). A
pack's wording changes now and then between releases: the wordings of other releases found in
those copies are listed too (:data:`OTHER_WORDINGS`), and a text is compared without the case,
the spacing and the final stop, in one Unicode form (Vietnamese letters typed composed or not)."""

from __future__ import annotations

import re
import unicodedata

#: language -> (correct, partially correct, incorrect), as Moodle's language packs word them.
MOODLE_DEFAULT_FEEDBACK: dict[str, tuple[str, str, str]] = {
    "ar": ("إجابتك صحيحة", "إجابتك صحيحة بشكل جزئي", "إجابتك غير صحيحة."),
    "be": ("Вашы адказ слушны.", "Вашы адказ часткова слушны.", "Вашы адказ хібны."),
    "bg": ("Вашият отговор е верен.", "Вашият отговор отчасти е верен.", "Вашият отговор не е верен."),
    "ca": ("La resposta és correcta.", "La resposta és parcialment correcta.", "La resposta és incorrecta."),
    "de": ("Die Antwort ist richtig.", "Die Antwort ist teilweise richtig.", "Die Antwort ist falsch."),
    "el": ("Η απάντησή σας είναι σωστή", "Η απάντηση είναι μερικώς σωστή.", "Η απάντησή σας είναι λανθασμένη."),
    "en": ("Your answer is correct.", "Your answer is partially correct.", "Your answer is incorrect."),
    "es": ("Respuesta correcta", "Respuesta parcialmente correcta.", "Respuesta incorrecta."),
    "eu": ("Zure erantzuna zuzena da.", "Zure erantzuna partzialki zuzena da.", "Zure erantzuna ez da zuzena"),
    "fa": ("پاسخ شما صحیح می باشد", "پاسخ شما تا حدودی صحیح است", "پاسخ شما صحیح نیست"),
    "fr": ("Votre réponse est correcte.", "Votre réponse est partiellement correcte.", "Votre réponse est incorrecte."),
    "gl": ("A súa resposta é correcta.", "A súa resposta é parcialmente correcta.", "A súa resposta é incorrecta."),
    "he": ("תשובתך נכונה.", "תשובתך נכונה חלקית.", "תשובתך אינה נכונה."),
    "id": ("Jawaban anda benar.", "Jawaban anda separuh benar.", "Jawaban anda tidak benar."),
    "it": ("Risposta corretta.", "Risposta parzialmente esatta.", "Risposta errata."),
    "ja": ("あなたの答えは正解です。", "あなたの答えは部分的に正解です。", "あなたの答えは正しくありません。"),
    "ko": ("답이 맞습니다.", "답이 부분적으로 옳습니다.", "답이 틀립니다."),
    "lt": ("Jūsų atsakymas yra teisingas.", "Jūsų atsakymas dalinai teisingas.", "Jūsų atsakymas yra neteisingas."),
    "nl": ("Je antwoord is juist.", "Je antwoord is gedeeltelijk juist.", "Je antwoord is niet juist."),
    "pl": ("Twoja odpowiedź jest poprawna.", "Twoja odpowiedź jest częściowo poprawna.", "Twoja odpowiedź jest niepoprawna."),
    "pt": ("A sua resposta está correta.", "A sua resposta está parcialmente correta.", "A sua resposta está incorreta."),
    "ro": ("Răspunsul dumneavoastră este corect.", "Răspunsul dumneavoastră este parțial corect.",
           "Răspunsul dumneavoastră este incorect."),
    "ru": ("Ваш ответ верный.", "Ваш ответ частично правильный.", "Ваш ответ неправильный."),
    "sv": ("Ditt svar är rätt.", "Ditt svar är delvis korrekt.", "Ditt svar är felaktigt."),
    "tr": ("Cevabınız doğru.", "Cevabınız kısmen doğru", "Cevabınız yanlış."),
    "uk": ("Ваша відповідь правильна.", "Ваша відповідь частково правильна.", "Ваша відповідь неправильна."),
    "ur": ("آپ کا جواب درست ہے۔", "آپ کا جواب جزوی طور پر درست ہے۔", "آپ کا جواب غلط ہے۔"),
    "vi": ("Câu trả lời của bạn đúng", "Câu trả lời của bạn đúng một phần.", "Câu trả lời của bạn sai."),
    "zh_cn": ("您的答案是正确的。", "您的答案部分正确。", "您的答案不正确"),
    "zh_tw": ("你答對了!", "你的答案是部分答對", "你答錯了!"),
}

#: The model's feedback keys, in the order of each entry above.
KEYS = ("correct", "partially_correct", "incorrect")

#: The same strings as a pack of another release words them: (language, key, text).
OTHER_WORDINGS: tuple[tuple[str, str, str], ...] = (
    ("fr", "partially_correct", "Votre réponse est en partie correcte."),
    ("eu", "partially_correct", "Zure erantzuna zuzena da neurri batean."),  # the 3.8 pack
    ("eu", "partially_correct", "Zure galdera zuzena da neurri batean."),  # the 3.2 pack
    ("it", "partially_correct", "Risposta parzialmente corretta."),  # the 2.6 pack
)


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).strip().rstrip(".。!！۔ ").casefold()


#: Per feedback key, every language's default, compared as :func:`_normal` makes them.
DEFAULTS: dict[str, frozenset[str]] = {
    key: frozenset(_normal(texts[i]) for texts in MOODLE_DEFAULT_FEEDBACK.values() if texts[i])
    | frozenset(_normal(text) for _, other, text in OTHER_WORDINGS if other == key)
    for i, key in enumerate(KEYS)
}


def is_moodle_default(key: str, text: str) -> bool:
    """Whether ``text`` (Markdown, as imported) is Moodle's own default for the feedback ``key``."""
    return _normal(text) in DEFAULTS.get(key, frozenset())
