"""`trainer deal track … --tier 2 --throw CARDS` (training.md §2): the `throw` object's shape and values on
a hand-made deal, and exit 2 with the reason for cards not in the hand, of two suits, trumps, or without
tier 2."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainer.cli import main

from tests.tracking.test_decisions import deal_hearts


def track(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """`trainer deal track` on the hand-made hearts deal: (exit status, stdout, stderr)."""
    path = tmp_path / "hearts.json"
    path.write_text(json.dumps(deal_hearts().data), encoding="utf-8")
    try:
        status = main(["deal", "track", str(path), *args])
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 2
    out, err = capsys.readouterr()
    return status, out, err


def test_throw_object_follows_tier_two(capsys, tmp_path):
    status, out, err = track(capsys, tmp_path, "--seat", "1", "--at", "2.4", "--tier", "2", "--throw", "QH,KH, KH")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert list(data)[-2:] == ["inference", "throw"]
    assert data["throw"] == {"cards": ["KH", "KH", "QH"], "units": [["KH", "KH"], ["QH"]], "safe": False,
                             "beaten_by": [[1, 3, ["AH"]]]}


def test_a_safe_throw_has_no_beaters_and_any_seat_may_ask(capsys, tmp_path):
    status, out, _ = track(capsys, tmp_path, "--seat", "1", "--at", "2.1", "--tier", "2", "--throw", "KH,KH,QH,QH")
    assert status == 0
    assert json.loads(out)["throw"] == {"cards": ["KH", "KH", "QH", "QH"], "units": [["KH", "KH", "QH", "QH"]],
                                        "safe": True, "beaten_by": []}


@pytest.mark.parametrize("args, reason", [
    (["--throw", "AS"], "the hand holds 0 AS, not 1"),
    (["--throw", "KH,3D"], "not all of one suit"),
    (["--throw", "BJ"], "the cards are trumps"),
    (["--throw", "KH,KH,KH"], "the hand holds 2 KH, not 3"),
    (["--throw", "KH,ZZ"], "not a card"),
    (["--throw", ","], "no cards given"),
])
def test_a_bad_throw_exits_2_with_the_reason(capsys, tmp_path, args, reason):
    status, out, err = track(capsys, tmp_path, "--seat", "1", "--at", "2.4", "--tier", "2", *args)
    assert (status, out) == (2, "")
    assert reason in err and "Traceback" not in err


def test_throw_needs_tier_two(capsys, tmp_path):
    status, out, err = track(capsys, tmp_path, "--seat", "1", "--at", "2.4", "--throw", "KH")
    assert (status, out) == (2, "") and "--tier 2" in err


def test_throw_is_not_asked_of_gouji(capsys):
    path = sorted((Path(__file__).resolve().parents[2] / "drills" / "deals").glob("gouji-*.json"))[0]
    status = main(["deal", "track", str(path), "--seat", "0", "--at", "end", "--tier", "2", "--throw", "AS"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "") and "not 够级" in err
