"""Words the writers add to a quiz themselves, in the quiz's language.

Keyed by the primary language subtag; English is the fallback. Adding a language is adding a row.
"""

from __future__ import annotations

from collections.abc import Mapping

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
    "ja": {
        "show_answer": "正解を表示", "answer": "正解", "answers": "認められる解答", "explanation": "解説",
        "model_answer": "模範解答（採点者用）", "points": "点", "point": "点", "feedback": "フィードバック",
        "correct_feedback": "正解のとき", "incorrect_feedback": "不正解のとき", "partial_feedback": "部分正解のとき",
        "warnings": "チェックの警告", "quizzes": "クイズ", "questions": "問", "question": "問",
        "errors": "エラー", "draw": "ランダムに {n} 問を出題", "draw_one": "ランダムに 1 問を出題",
        "total": "合計 {points}", "true": "正しい", "false": "誤り",
        "case_sensitive": "大文字と小文字を区別", "score": "得点",
        "settings": "クイズの設定", "time_limit": "制限時間", "minutes": "{n} 分", "allowed_attempts": "受験できる回数",
        "unlimited": "無制限", "shuffle_answers": "選択肢をシャッフル", "show_correct_answers": "正解を表示",
        "one_question_at_a_time": "1 問ずつ表示", "quiz_type": "クイズの種類", "graded": "成績に入るクイズ",
        "practice": "練習用クイズ", "yes": "はい", "no": "いいえ",
        "lock_questions_after_answering": "解答した問題には戻れない", "grading_method": "成績に使う受験",
        "highest": "最高点", "average": "平均点", "first": "最初の受験", "last": "最後の受験",
        "qti_variants": "QTI 2.1: 計算問題ごとの固定の問題数",
        "outline": "概要", "outline_type": "種類", "outline_lines": "行", "passage_covers": "本文: 問 {first}–{last}",
        "stated": "試験用紙の表記 {written}", "matches": "一致", "differs": "不一致",
        "not_read": "読めません: エラーを見てください", "sets_shown": "値 {n} セット（問題にはセット 1 が表示されます）",
        "read_of": "{all} 問中 {read} 問を読みました", "total_read": "読んだ問題の合計 {points}",
        "error_one": "エラー 1 件", "error_count": "エラー {n} 件", "warning_one": "警告 1 件", "warning_count": "警告 {n} 件",
        "not_built_one": "{errors}: 直すまで、このクイズは何もビルドされません",
        "not_built": "{errors}: 直すまで、このクイズは何もビルドされません", "errors_in": "エラーのある問題:",
    },
    "zh": {
        "show_answer": "显示答案", "answer": "答案", "answers": "可接受的答案", "explanation": "解析",
        "model_answer": "参考答案（仅评分者可见）", "points": "分", "point": "分", "feedback": "反馈",
        "correct_feedback": "答对时", "incorrect_feedback": "答错时", "partial_feedback": "部分正确时",
        "warnings": "检查警告", "quizzes": "测验", "questions": "道题", "question": "道题",
        "errors": "错误", "draw": "随机抽取 {n} 道题", "draw_one": "随机抽取 1 道题",
        "total": "共 {points}", "true": "对", "false": "错",
        "case_sensitive": "区分大小写", "score": "得分",
        "settings": "测验设置", "time_limit": "时间限制", "minutes": "{n} 分钟", "allowed_attempts": "允许作答次数",
        "unlimited": "不限", "shuffle_answers": "打乱选项顺序", "show_correct_answers": "显示正确答案",
        "one_question_at_a_time": "一次显示一道题", "quiz_type": "测验类型", "graded": "计分测验",
        "practice": "练习测验", "yes": "是", "no": "否",
        "lock_questions_after_answering": "答过的题不能返回", "grading_method": "计入的成绩",
        "highest": "最高分", "average": "平均分", "first": "首次作答", "last": "最后一次作答",
        "qti_variants": "QTI 2.1：每道计算题的固定题数",
        "outline": "大纲", "outline_type": "题型", "outline_lines": "行", "passage_covers": "阅读材料：第 {first}–{last} 题",
        "stated": "试卷标明 {written}", "matches": "一致", "differs": "不一致",
        "not_read": "未读取：请查看错误", "sets_shown": "{n} 组数值（题目显示第 1 组）",
        "read_of": "{all} 道题中读取了 {read} 道", "total_read": "已读取题目共 {points}",
        "error_one": "1 个错误", "error_count": "{n} 个错误", "warning_one": "1 个警告", "warning_count": "{n} 个警告",
        "not_built_one": "{errors}：修正之前，此测验的任何内容都不会构建",
        "not_built": "{errors}：修正之前，此测验的任何内容都不会构建", "errors_in": "有错误的题目：",
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
    "ja": {"answer_is": "正解 {answer}", "answer_or": "または", "answer_model": "模範解答",
           "answer_no_model": "模範解答なし", "answer_pairs": "{n} 組", "answer_in_order": "{n} 項目の順序",
           "answer_blanks": "空欄 {answers}", "answer_true": "正しい", "answer_false": "誤り"},
    "zh": {"answer_is": "答案 {answer}", "answer_or": "或", "answer_model": "参考答案",
           "answer_no_model": "无参考答案", "answer_pairs": "{n} 对", "answer_in_order": "{n} 项的顺序",
           "answer_blanks": "空格 {answers}", "answer_true": "对", "answer_false": "错"},
}


#: What ``check`` and ``build`` say they understood (summary.py, losses.py summary, outline.py
#: render_outline, cli.py), by language; English where a language has no word. A count's
#: ``_one`` form is for 1. The kinds are named by their specs (kinds.py KindSpec.names), answers
#: told with ANSWER_WORDS.
SUMMARY = {
    "en": {
        "quiz_one": "{n} quiz", "quiz_many": "{n} quizzes", "question_one": "{n} question", "question_many": "{n} questions",
        "output_one": "{n} output", "output_many": "{n} outputs", "point_one": "{n} point", "point_many": "{n} points",
        "points_range": "{low}–{high} points", "error_one": "{n} error", "error_many": "{n} errors",
        "file_one": "{n} file", "file_many": "{n} files", "thing_one": "{n} thing", "thing_many": "{n} things",
        "ok": "ok: {quizzes}, {questions} ({points}), {outputs} valid",
        "failed": "failed: {errors}{scope}{written}", "failed_scope": " in {failed} of {all} quizzes",
        "nothing_written": "; nothing was written", "others_wrote": "; the others wrote {files}",
        "nothing_to_build": "; there is nothing to build",
        "quiz_line": "{quiz}: {questions}: {kinds}", "kind_count": "{n} {kind}", "list": ", ", "sets": "; sets: {sets}",
        "question_sets": "{n} sets",
        "wrote": "wrote {path}", "loses": "{target} loses {parts}", "loses_join": ", and ",
        "things_in": "{things} in {questions}", "draw_one": "the random draw of section {sections}",
        "draw_many": "the random draw of sections {sections}",
        "setting_one": "the quiz setting {settings} (set it in the LMS)",
        "setting_many": "the quiz settings {settings} (set them in the LMS)",
        "all_accepted": "all accepted", "n_accepted": "{n} accepted", "verbose_lists": "--verbose lists them",
        "accepted": "{loss} (accepted)",
        "target_moodle-quiz": "Moodle quiz backup",
        "imported": "imported {questions} from {origin} as quiz '{quiz}': {kinds}", "changed": "{n} changed ({kinds})",
        "skipped": "{n} skipped ({kinds})", "see_warnings": "  {parts}; see the warnings above",
        "not_imported": "{questions} could not be imported (named in the warnings above): exit {code}; pass --allow-skipped to accept that",
        "outline": "outline {path}: {title} [{language}]", "section": "section {title} ({lines})",
        "line": "line {first}", "lines": "lines {first}-{last}", "passage": "passage ({lines}): {questions}",
        "passage_one": "question {first}", "passage_many": "questions {first}-{last}",
        "total": "total: {questions}, {points}", "stated": "; the paper states {written} ({verdict})",
        "matches": "matches", "differs_by": "differs by {gap}", "left_out": "; the questions with errors are left out",
        "not_read": "not read: see the errors",
    },
    "ko": {
        "quiz_one": "퀴즈 {n}개", "quiz_many": "퀴즈 {n}개", "question_one": "{n}문항", "question_many": "{n}문항",
        "output_one": "출력 {n}개", "output_many": "출력 {n}개", "point_one": "{n}점", "point_many": "{n}점",
        "points_range": "{low}–{high}점", "error_one": "오류 {n}개", "error_many": "오류 {n}개",
        "file_one": "파일 {n}개", "file_many": "파일 {n}개", "thing_one": "{n}가지", "thing_many": "{n}가지",
        "ok": "통과: {quizzes}, {questions} ({points}), {outputs} 모두 유효",
        "failed": "실패: {errors}{scope}{written}", "failed_scope": " (퀴즈 {all}개 중 {failed}개)",
        "nothing_written": "; 아무것도 쓰지 않았습니다", "others_wrote": "; 나머지 퀴즈는 {files}을(를) 썼습니다",
        "nothing_to_build": "; 빌드할 것이 없습니다",
        "quiz_line": "{quiz}: {questions}: {kinds}", "kind_count": "{kind} {n}", "list": ", ", "sets": "; 값 세트: {sets}",
        "question_sets": "값 {n}세트",
        "wrote": "{path} 작성", "loses": "{target}에서 잃는 것: {parts}", "loses_join": ", ",
        "things_in": "{questions}에서 {things}", "draw_one": "대단원 {sections}의 무작위 출제",
        "draw_many": "대단원 {sections}의 무작위 출제",
        "setting_one": "퀴즈 설정 {settings} (LMS에서 설정하세요)", "setting_many": "퀴즈 설정 {settings} (LMS에서 설정하세요)",
        "all_accepted": "모두 받아들임", "n_accepted": "{n}개 받아들임", "verbose_lists": "--verbose로 모두 봅니다",
        "accepted": "{loss} (받아들임)",
        "target_moodle-quiz": "Moodle 퀴즈 백업",
        "imported": "{origin}에서 {questions} 가져옴 (퀴즈 '{quiz}'): {kinds}", "changed": "{n}문항 바뀜 ({kinds})",
        "skipped": "{n}문항 건너뜀 ({kinds})", "see_warnings": "  {parts}; 위 경고를 보세요",
        "not_imported": "{questions}을(를) 가져오지 못했습니다 (위 경고에 나옵니다): 종료 코드 {code}. 받아들이려면 --allow-skipped를 주세요",
        "outline": "개요 {path}: {title} [{language}]", "section": "대단원 {title} ({lines})",
        "line": "{first}행", "lines": "{first}-{last}행", "passage": "지문 ({lines}): {questions}",
        "passage_one": "{first}번", "passage_many": "{first}-{last}번",
        "total": "합계: {questions}, {points}", "stated": "; 시험지 표기 {written} ({verdict})",
        "matches": "일치", "differs_by": "{gap}점 차이", "left_out": "; 오류가 있는 문항은 빠졌습니다",
        "not_read": "읽지 못함: 오류를 보세요",
    },
    "ja": {
        "quiz_one": "クイズ {n} 件", "quiz_many": "クイズ {n} 件", "question_one": "{n} 問", "question_many": "{n} 問",
        "output_one": "出力 {n} 件", "output_many": "出力 {n} 件", "point_one": "{n} 点", "point_many": "{n} 点",
        "points_range": "{low}–{high} 点", "error_one": "エラー {n} 件", "error_many": "エラー {n} 件",
        "file_one": "ファイル {n} 件", "file_many": "ファイル {n} 件", "thing_one": "{n} 件", "thing_many": "{n} 件",
        "ok": "OK: {quizzes}、{questions}（{points}）、{outputs}すべて有効",
        "failed": "失敗: {errors}{scope}{written}", "failed_scope": "（クイズ {all} 件中 {failed} 件）",
        "nothing_written": "。何も書き出していません", "others_wrote": "。ほかのクイズは{files}を書き出しました",
        "nothing_to_build": "。ビルドするものがありません",
        "quiz_line": "{quiz}: {questions}: {kinds}", "kind_count": "{kind} {n}", "list": "、", "sets": "。値のセット: {sets}",
        "question_sets": "値 {n} セット",
        "wrote": "{path} を書き出し", "loses": "{target} で失われるもの: {parts}", "loses_join": "、",
        "things_in": "{questions}で {things}", "draw_one": "セクション {sections} のランダム出題",
        "draw_many": "セクション {sections} のランダム出題",
        "setting_one": "クイズ設定 {settings}（LMS で設定してください）", "setting_many": "クイズ設定 {settings}（LMS で設定してください）",
        "all_accepted": "すべて受け入れ済み", "n_accepted": "{n} 件受け入れ済み", "verbose_lists": "--verbose で一覧表示",
        "accepted": "{loss}（受け入れ済み）",
        "target_moodle-quiz": "Moodle のクイズバックアップ",
        "imported": "{origin} から {questions}をインポート（クイズ「{quiz}」）: {kinds}", "changed": "{n} 問を変更（{kinds}）",
        "skipped": "{n} 問を飛ばしました（{kinds}）", "see_warnings": "  {parts}。上の警告を見てください",
        "not_imported": "{questions}をインポートできませんでした（上の警告に挙げています）: 終了コード {code}。受け入れるなら --allow-skipped を付けてください",
        "outline": "概要 {path}: {title} [{language}]", "section": "セクション {title}（{lines}）",
        "line": "{first} 行目", "lines": "{first}-{last} 行目", "passage": "本文（{lines}）: {questions}",
        "passage_one": "問 {first}", "passage_many": "問 {first}-{last}",
        "total": "合計: {questions}、{points}", "stated": "。試験用紙の表記 {written}（{verdict}）",
        "matches": "一致", "differs_by": "{gap} 点の差", "left_out": "。エラーのある問題は除いています",
        "not_read": "読めません: エラーを見てください",
    },
    "zh": {
        "quiz_one": "{n} 个测验", "quiz_many": "{n} 个测验", "question_one": "{n} 道题", "question_many": "{n} 道题",
        "output_one": "{n} 个输出", "output_many": "{n} 个输出", "point_one": "{n} 分", "point_many": "{n} 分",
        "points_range": "{low}–{high} 分", "error_one": "{n} 个错误", "error_many": "{n} 个错误",
        "file_one": "{n} 个文件", "file_many": "{n} 个文件", "thing_one": "{n} 项", "thing_many": "{n} 项",
        "ok": "通过：{quizzes}，{questions}（{points}），{outputs}均有效",
        "failed": "失败：{errors}{scope}{written}", "failed_scope": "（{all} 个测验中的 {failed} 个）",
        "nothing_written": "；未写入任何文件", "others_wrote": "；其余测验写入了 {files}",
        "nothing_to_build": "；没有可构建的内容",
        "quiz_line": "{quiz}：{questions}：{kinds}", "kind_count": "{kind} {n}", "list": "、", "sets": "；数值组：{sets}",
        "question_sets": "{n} 组数值",
        "wrote": "已写入 {path}", "loses": "{target} 会丢失：{parts}", "loses_join": "、",
        "things_in": "{questions}中的 {things}", "draw_one": "部分 {sections} 的随机抽题",
        "draw_many": "部分 {sections} 的随机抽题",
        "setting_one": "测验设置 {settings}（请在 LMS 中设置）", "setting_many": "测验设置 {settings}（请在 LMS 中设置）",
        "all_accepted": "均已接受", "n_accepted": "{n} 项已接受", "verbose_lists": "--verbose 可逐项列出",
        "accepted": "{loss}（已接受）",
        "target_moodle-quiz": "Moodle 测验备份",
        "imported": "已从 {origin} 导入 {questions}（测验“{quiz}”）：{kinds}", "changed": "{n} 道题有改动（{kinds}）",
        "skipped": "已跳过 {n} 道题（{kinds}）", "see_warnings": "  {parts}；请查看上面的警告",
        "not_imported": "{questions}无法导入（见上面的警告）：退出码 {code}；如可接受，请加上 --allow-skipped",
        "outline": "大纲 {path}：{title} [{language}]", "section": "部分 {title}（{lines}）",
        "line": "第 {first} 行", "lines": "第 {first}-{last} 行", "passage": "阅读材料（{lines}）：{questions}",
        "passage_one": "第 {first} 题", "passage_many": "第 {first}-{last} 题",
        "total": "合计：{questions}，{points}", "stated": "；试卷标明 {written}（{verdict}）",
        "matches": "一致", "differs_by": "相差 {gap} 分", "left_out": "；有错误的题目未计入",
        "not_read": "未读取：请查看错误",
    },
}


def summary_words(language: str | None) -> dict[str, str]:
    """What the commands say they understood, in ``language`` (English where it has no word), with
    the answers' words (ANSWER_WORDS)."""
    primary = (language or "en").split("-")[0].lower()
    return {**SUMMARY["en"], **ANSWER_WORDS["en"], **SUMMARY.get(primary, {}), **ANSWER_WORDS.get(primary, {})}


def counted(words: Mapping[str, str], noun: str, n: float) -> str:
    """``n`` of ``noun`` in ``words``: ``1 question``, ``3 questions``, ``3문항``."""
    return words[f"{noun}_one" if n == 1 else f"{noun}_many"].format(n=f"{n:g}")


def points_text(low: float, high: float, language: str | None = None) -> str:
    """``1 point``, ``12.5 points``, ``8–10 points``; in ``language`` (``8–10점``), English by default."""
    words = summary_words(language)
    if round(low, 6) == round(high, 6):
        return counted(words, "point", low)
    return words["points_range"].format(low=f"{low:g}", high=f"{high:g}")


def preview_words(language: str) -> dict[str, str]:
    primary = language.split("-")[0].lower()
    return {**PREVIEW["en"], **ANSWER_WORDS["en"], **PREVIEW.get(primary, {}), **ANSWER_WORDS.get(primary, {})}
