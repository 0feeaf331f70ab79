"""How a Canvas item numbers its answers: one place for the writer of every kind (canvas.py) and of
the calculated kinds (canvas_calculated.py)."""

#: Answer identifiers of an item count up from here (four digits, as Canvas's own exports have).
FIRST_ANSWER = 1001
