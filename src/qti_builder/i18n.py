"""Words the writers add to a quiz themselves, in the quiz's language.

Keyed by the primary language subtag; English is the fallback. Adding a language is adding a row.
"""

from __future__ import annotations

#: True/false labels shown to students.
TRUE_FALSE = {
    "en": ("True", "False"),
    "ko": ("참", "거짓"),
    "ja": ("正しい", "誤り"),
    "zh": ("对", "错"),
    "de": ("Wahr", "Falsch"),
    "fr": ("Vrai", "Faux"),
    "es": ("Verdadero", "Falso"),
    "pt": ("Verdadeiro", "Falso"),
    "it": ("Vero", "Falso"),
    "nl": ("Waar", "Onwaar"),
}


def true_false_labels(language: str, labels: list[str] | None = None) -> tuple[str, str]:
    """The two choices of a true/false question: its own ``labels`` (``O``/``X``) when it has
    them, else the quiz language's words."""
    if labels:
        return labels[0], labels[1]
    return TRUE_FALSE.get(language.split("-")[0].lower(), TRUE_FALSE["en"])


#: Words of the HTML preview, by language (a kind's own words are in its spec: kinds.py KindSpec.preview_words).
PREVIEW = {
    "en": {
        "show_answer": "Show answer", "answer": "Answer", "answers": "Accepted answers", "explanation": "Explanation",
        "model_answer": "Model answer (graders only)", "points": "points", "point": "point", "feedback": "Feedback",
        "correct_feedback": "If correct", "incorrect_feedback": "If incorrect", "partial_feedback": "If partly correct",
        "warnings": "Check warnings", "quizzes": "Quizzes", "questions": "questions", "question": "question",
        "errors": "Errors", "draw": "Draws {n} questions at random", "draw_one": "Draws 1 question at random",
        "total": "{points} in all", "true": "True", "false": "False",
        "case_sensitive": "case sensitive", "score": "score",
        "settings": "Quiz settings", "time_limit": "Time limit", "minutes": "{n} min", "allowed_attempts": "Allowed attempts",
        "unlimited": "Unlimited", "shuffle_answers": "Shuffle answers", "show_correct_answers": "Show correct answers",
        "one_question_at_a_time": "One question at a time", "quiz_type": "Quiz type", "graded": "Graded quiz",
        "practice": "Practice quiz", "yes": "Yes", "no": "No",
        "lock_questions_after_answering": "Lock questions after answering", "grading_method": "Grade that counts",
        "highest": "Highest attempt", "average": "Average of attempts", "first": "First attempt", "last": "Last attempt",
        "qti_variants": "QTI 2.1: fixed items per calculated question",
        "outline": "Outline", "outline_type": "type", "outline_lines": "lines", "passage_covers": "passage: questions {first}–{last}",
        "stated": "the paper states {written}", "matches": "matches", "differs": "differs",
        "not_read": "not read: see the errors", "sets_shown": "{n} sets; the question shows set 1",
        "read_of": "{read} of {all} questions read", "total_read": "{points} in the questions read",
        "error_one": "1 error", "error_count": "{n} errors", "warning_one": "1 warning", "warning_count": "{n} warnings",
        "not_built_one": "{errors}: nothing of this quiz is built until it is fixed",
        "not_built": "{errors}: nothing of this quiz is built until they are fixed", "errors_in": "Questions with errors:",
    },
    "ko": {
        "show_answer": "정답 보기", "answer": "정답", "answers": "인정되는 답", "explanation": "설명",
        "model_answer": "모범 답안 (채점자용)", "points": "점", "point": "점", "feedback": "피드백",
        "correct_feedback": "정답일 때", "incorrect_feedback": "오답일 때", "partial_feedback": "부분 정답일 때",
        "warnings": "검사 경고", "quizzes": "퀴즈", "questions": "문항", "question": "문항",
        "errors": "오류", "draw": "무작위로 {n}문항 출제", "draw_one": "무작위로 1문항 출제",
        "total": "총 {points}", "true": "참", "false": "거짓",
        "case_sensitive": "대소문자 구분", "score": "점수",
        "settings": "퀴즈 설정", "time_limit": "제한 시간", "minutes": "{n}분", "allowed_attempts": "응시 가능 횟수",
        "unlimited": "무제한", "shuffle_answers": "답안 순서 섞기", "show_correct_answers": "정답 공개",
        "one_question_at_a_time": "한 번에 한 문항씩", "quiz_type": "퀴즈 유형", "graded": "성적 반영 퀴즈",
        "practice": "연습 퀴즈", "yes": "예", "no": "아니요",
        "lock_questions_after_answering": "답한 문항으로 돌아갈 수 없음", "grading_method": "반영할 성적",
        "highest": "최고 점수", "average": "평균 점수", "first": "첫 응시", "last": "마지막 응시",
        "qti_variants": "QTI 2.1: 계산 문항당 고정 문항 수",
        "outline": "개요", "outline_type": "유형", "outline_lines": "줄", "passage_covers": "지문: {first}–{last}번",
        "stated": "시험지 표기 {written}", "matches": "일치", "differs": "불일치",
        "not_read": "읽지 못함: 오류를 보세요", "sets_shown": "값 {n}세트 (문항에는 1번 세트가 보입니다)",
        "read_of": "{all}문항 중 {read}문항만 읽음", "total_read": "읽은 문항 총 {points}",
        "error_one": "오류 1개", "error_count": "오류 {n}개", "warning_one": "경고 1개", "warning_count": "경고 {n}개",
        "not_built_one": "{errors}: 고치기 전에는 이 퀴즈의 어떤 것도 빌드되지 않습니다",
        "not_built": "{errors}: 고치기 전에는 이 퀴즈의 어떤 것도 빌드되지 않습니다", "errors_in": "오류가 있는 문항:",
    },
}


#: How the outline tells a question's answer (summary.py answer_words): ``check --outline`` and
#: ``--verbose`` print the English, the preview's outline its page's language.
ANSWER_WORDS = {
    "en": {"answer_is": "answer {answer}", "answer_or": "or", "answer_model": "model answer",
           "answer_no_model": "no model answer", "answer_pairs": "{n} pairs", "answer_in_order": "{n} items in order",
           "answer_blanks": "blanks {answers}", "answer_true": "true", "answer_false": "false"},
    "ko": {"answer_is": "정답 {answer}", "answer_or": "또는", "answer_model": "모범 답안",
           "answer_no_model": "모범 답안 없음", "answer_pairs": "{n}쌍", "answer_in_order": "항목 {n}개의 순서",
           "answer_blanks": "빈칸 {answers}", "answer_true": "참", "answer_false": "거짓"},
}


def preview_words(language: str) -> dict[str, str]:
    primary = language.split("-")[0].lower()
    return {**PREVIEW["en"], **ANSWER_WORDS["en"], **PREVIEW.get(primary, {}), **ANSWER_WORDS.get(primary, {})}
