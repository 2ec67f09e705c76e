"""The player's signal convention set (`/signals`): listed from drills/signals, chosen per user, kept, a
malformed club file refused at start; with and without htmx."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

from trainer.signals.conventions import ConventionFileError, load_conventions
from trainer.web.models import DrillSettings, User

from .drilling import HX, session
from .pages import visible_text


def _chosen(app, name: str = "alice") -> str | None:
    with session(app) as db:
        user = db.exec(select(User).where(User.username == name)).one()
        row = db.get(DrillSettings, user.id)
        return row.signals if row else None


def test_the_page_lists_every_convention_set_with_the_default_chosen(alice) -> None:
    for headers in ({}, HX):
        page = alice.get("/signals", headers=headers)
        assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
        text = visible_text(page.text)
        for name, convention in load_conventions().items():
            assert name in text and convention.description["zh"] in text
        assert 'value="basic_89JQ" checked' in page.text
        assert ("<html" in page.text) is not bool(headers)
    assert "♠ 2 4 6 J Q; ♥ 3 7 9 J" in visible_text(alice.get("/signals").text)  # per_suit shows each suit
    assert 'href="/signals"' in alice.get("/drills").text


def test_choosing_a_set_is_kept_for_the_account_only(app, alice, accounts) -> None:
    response = alice.post("/signals", data={"signals": "odd"})
    assert response.status_code == 303 and response.headers["Location"] == "/signals"
    assert _chosen(app) == "odd"
    page = alice.get("/signals")
    assert 'value="odd" checked' in page.text and "odd" in visible_text(page.text)
    fragment = alice.post("/signals", data={"signals": "even"}, headers=HX)
    assert fragment.status_code == 200 and "<html" not in fragment.text
    assert 'value="even" checked' in fragment.text and _chosen(app) == "even"
    accounts.logout()
    accounts.sign_up("bob")
    assert 'value="basic_89JQ" checked' in alice.get("/signals").text and _chosen(app, "bob") is None


@pytest.mark.parametrize("bad", ["nonsense", "", "../basic_89JQ"])
def test_an_unknown_set_is_refused_in_words(app, alice, bad: str) -> None:
    for headers in ({}, HX):
        response = alice.post("/signals", data={"signals": bad}, headers=headers)
        assert response.status_code == 422 and "请选择一个约定" in visible_text(response.text)
    assert _chosen(app) is None


def test_the_page_needs_a_login(client) -> None:
    assert client.get("/signals").status_code in (302, 303)


def test_a_malformed_club_file_is_refused_at_start(make_app, tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "ours.toml").write_text('signal_ranks = ["8", "10"]\ndiscard = "small_on_top"\n'
                                      "k_ask = true\nfive_lead = true\nopening_request = true\n", encoding="utf-8")
    with pytest.raises(ConventionFileError, match=r"ours\.toml: field 'signal_ranks': 10 is a point card"):
        make_app(SIGNALS_DIR=str(folder))
