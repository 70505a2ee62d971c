"""Polling for a line before blocking, while it pays (fiveup.harness.polling)."""

from __future__ import annotations

import io
import os
import socket
import threading
from pathlib import Path

import pytest

from fiveup.harness.polling import Credit, InputPoller


def test_credit_polls_while_polls_find_lines_and_stops_after_polls_in_vain() -> None:
    credit = Credit()
    assert credit.worth_polling()
    for _ in range(20):
        credit.polled(True)
    assert credit.credit == Credit.MOST  # capped: a long quick spell buys few polls in vain
    for _ in range(Credit.MOST // 2):
        credit.polled(False)
    assert credit.credit == 0
    assert not credit.worth_polling()


def test_credit_tries_polling_again_now_and_then_once_it_has_none() -> None:
    credit = Credit()
    credit.credit = 0
    tried = [credit.worth_polling() for _ in range(3 * Credit.RETRY)]
    assert [i + 1 for i, polls in enumerate(tried) if polls] == [
        Credit.RETRY,
        2 * Credit.RETRY,
        3 * Credit.RETRY,
    ]


def test_a_pipe_and_a_socket_are_polled_other_streams_are_not(tmp_path: Path) -> None:
    read, write = os.pipe()
    left, right = socket.socketpair()
    plain = tmp_path / "requests.jsonl"
    plain.write_text("", encoding="utf-8")
    try:
        with os.fdopen(os.dup(read), "r") as piped, plain.open(encoding="utf-8") as regular:
            assert InputPoller.of(piped) is not None
            assert InputPoller.of(left) is not None
            assert InputPoller.of(regular) is None  # a read of a file never blocks
            assert InputPoller.of(io.StringIO("")) is None  # no descriptor at all
            closed = os.fdopen(os.dup(read), "r")
            closed.close()
            assert InputPoller.of(closed) is None  # a closed stream: ValueError, not a crash
    finally:
        for fd in (read, write):
            os.close(fd)
        left.close()
        right.close()


@pytest.mark.parametrize("delay", [0.0, 0.01], ids=["there-already", "comes-while-polling"])
def test_a_wait_returns_as_soon_as_input_is_there_and_earns_credit(delay: float) -> None:
    read, write = os.pipe()
    try:
        poller = InputPoller(read, seconds=30.0)  # it would spin for 30 s if the line were lost
        sender = threading.Timer(delay, os.write, (write, b"{}\n"))
        sender.start()
        before = poller.credit.credit
        poller.wait()
        sender.join()
        assert poller.credit.credit == before + 1
    finally:
        os.close(read)
        os.close(write)


def test_a_wait_in_vain_gives_up_after_its_seconds_and_loses_credit() -> None:
    read, write = os.pipe()
    try:
        poller = InputPoller(read, seconds=0.001)
        before = poller.credit.credit
        poller.wait()
        assert poller.credit.credit == before - 2
        poller.credit.credit = 0
        poller.wait()  # no credit: no poll, so none in vain either
        assert poller.credit.credit == 0
    finally:
        os.close(read)
        os.close(write)


def test_a_closed_writer_ends_the_wait_at_once() -> None:
    read, write = os.pipe()
    os.close(write)  # the harness went away: poll reports the hang-up
    try:
        poller = InputPoller(read, seconds=30.0)
        poller.wait()
        assert poller.credit.credit == Credit.MOST // 2 + 1
    finally:
        os.close(read)


def test_a_pipe_is_not_polled_where_select_has_no_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    import select

    read, write = os.pipe()
    monkeypatch.delattr(select, "poll")  # Windows: the read blocks at once, as it always did
    try:
        with os.fdopen(os.dup(read), "r") as piped:
            assert InputPoller.of(piped) is None
    finally:
        os.close(read)
        os.close(write)
