"""``interrupts.stop_signals_held`` leaves the main thread as it found it however the block ends,
also when a signal noted before the block (by a thread that does not block it) has its handler run
in this thread at the first moment it can: just after the mask is set, or just after one of the two
handlers is swapped. Such a handler raises (the command line turns SIGTERM and Ctrl-C into
KeyboardInterrupt); here it is made to raise at exactly those moments. Before, a raise just after
the mask was set left SIGINT and SIGTERM blocked in the main thread for good (caught once in CI by
the check in conftest.py, after a test that sends SIGTERM from a writing thread)."""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any

import pytest

from qti_builder.interrupts import STOP_SIGNALS, stop_signals_held


def _state() -> tuple[set[int], dict[int, Any]]:
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, ())), {n: signal.getsignal(n) for n in STOP_SIGNALS}


def _interrupted_once(real: Callable[..., Any], when: Callable[..., bool]) -> Callable[..., Any]:
    """``real``, raising KeyboardInterrupt once, just after the first call that ``when`` picks."""
    raised: list[bool] = []

    def call(*args: Any) -> Any:
        result = real(*args)
        if not raised and when(*args):
            raised.append(True)
            raise KeyboardInterrupt
        return result

    return call


@pytest.mark.parametrize("moment", ["the mask set", "the first handler swapped", "the second handler swapped"])
def test_a_signal_handled_as_the_block_begins_leaves_mask_and_handlers_as_they_were(
        moment: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _state()
    if moment == "the mask set":
        monkeypatch.setattr(signal, "pthread_sigmask", _interrupted_once(
            signal.pthread_sigmask, lambda how, mask: how == signal.SIG_BLOCK and set(mask) == set(STOP_SIGNALS)))
    else:
        swaps: list[int] = []

        def swapped(number: int, handler: Any) -> bool:
            if handler is before[1][number]:
                return False  # putting the handler back
            swaps.append(number)
            return len(swaps) == (1 if moment == "the first handler swapped" else 2)

        monkeypatch.setattr(signal, "signal", _interrupted_once(signal.signal, swapped))
    entered = []
    with pytest.raises(KeyboardInterrupt):
        with stop_signals_held():
            entered.append(True)
    assert not entered
    monkeypatch.undo()
    assert _state() == before


def test_the_block_holds_both_signals_and_raises_them_after() -> None:
    before = _state()
    received: list[int] = []
    previous = {n: signal.signal(n, lambda number, frame: received.append(number)) for n in STOP_SIGNALS}
    try:
        with stop_signals_held() as mask_before:
            assert mask_before == before[0]
            assert set(signal.pthread_sigmask(signal.SIG_BLOCK, ())) >= set(STOP_SIGNALS)
            signal.raise_signal(signal.SIGTERM)
            assert received == []
        assert received == [signal.SIGTERM]
    finally:
        for n, handler in previous.items():
            signal.signal(n, handler)
    assert _state() == before
