"""Convention sets as data: the shipped files, the named sets of signals.md, and clear refusals."""
from __future__ import annotations

from pathlib import Path

import pytest

from trainer.cli import main
from trainer.engine.cards import Card
from trainer.engine.errors import MalformedError
from trainer.engine.trump import TrumpContext
from trainer.signals.conventions import (CONVENTIONS_DIR, RANK_SETS, Convention, ConventionFileError,
                                         find_convention, load_convention_file, load_conventions)

NAMED = ["basic_89JQ", "basic_7up", "mid_246JQ", "mid_234JQ", "mid_369JQ", "mid_247JQ", "even", "odd",
         "common_24689JQ", "per_suit"]


def test_one_file_per_set_named_in_signals_md():
    assert sorted(load_conventions()) == sorted(NAMED)


@pytest.mark.parametrize("name", [name for name in NAMED if name != "per_suit"])
def test_each_shipped_file_holds_its_named_set(name):
    convention = load_conventions()[name]
    assert convention.ranks == (RANK_SETS[name],) * 4
    assert convention.to_json()["signal_ranks"] == name


def test_named_sets_as_signals_md_lists_them():
    ranks = {name: sorted(ranks) for name, ranks in RANK_SETS.items()}
    assert ranks["basic_89JQ"] == [8, 9, 11, 12]
    assert ranks["basic_7up"] == [7, 8, 9, 11, 12]
    assert ranks["even"] == [2, 4, 6, 8, 12]
    assert ranks["odd"] == [3, 7, 9, 11]
    assert ranks["common_24689JQ"] == [2, 4, 6, 8, 9, 11, 12]
    assert ranks["mid_247JQ"] == [2, 4, 7, 11, 12]
    assert all(not ranks_ & {5, 10, 13, 14} for ranks_ in RANK_SETS.values())


def test_per_suit_file_has_a_set_per_suit():
    convention = load_conventions()["per_suit"]
    ctx = TrumpContext.parse("2", "none")
    assert convention.is_signal(Card.parse("6S"), ctx) and not convention.is_signal(Card.parse("6H"), ctx)
    assert convention.is_signal(Card.parse("7H"), ctx) and not convention.is_signal(Card.parse("7S"), ctx)
    assert Convention.parse(convention.to_json()) == Convention.parse(convention.to_json())
    assert Convention.parse(convention.to_json()).ranks == convention.ranks


def test_level_cards_and_trumps_never_signal():
    convention = Convention()
    ctx = TrumpContext.parse("9", "S")
    assert not convention.is_signal(Card.parse("9H"), ctx)  # a level card is trump
    assert not convention.is_signal(Card.parse("8S"), ctx)  # the trump suit
    assert convention.is_signal(Card.parse("8H"), ctx)
    twos = TrumpContext.parse("5", "S", {"fixed_twos": True})
    assert not Convention.parse({"signal_ranks": "even"}).is_signal(Card.parse("2H"), twos)


@pytest.mark.parametrize("text, field, why", [
    ('signal_ranks = ["8", "K"]\ndiscard = "small_on_top"\n', "signal_ranks", "K is a point card"),
    ('signal_ranks = ["8", "A"]\ndiscard = "small_on_top"\n', "signal_ranks", "A is the card that is asked for"),
    ('signal_ranks = "basic_8"\ndiscard = "small_on_top"\n', "signal_ranks", "unknown set 'basic_8'"),
    ('signal_ranks = ["8", "X"]\ndiscard = "small_on_top"\n', "signal_ranks", "'X' is not a rank"),
    ('signal_ranks = "odd"\ndiscard = "middle"\n', "discard", "unknown convention 'middle'"),
    ('discard = "small_on_top"\n', "signal_ranks", "missing"),
    ('signal_ranks = "odd"\n', "discard", "missing"),
    ('signal_ranks = "odd"\ndiscard = "odd_sum"\nk_ask = "yes"\n', "k_ask", "expected true or false"),
    ('signal_ranks = "odd"\ndiscard = "odd_sum"\nkask = true\n', "kask", "unknown field"),
    ('signal_ranks = { S = "odd", H = "odd", C = "odd" }\ndiscard = "odd_sum"\n', "signal_ranks",
     "must name all four suits (missing D)"),
    ('signal_ranks = { S = "odd", H = "odd", C = "odd", D = ["10"] }\ndiscard = "odd_sum"\n', "signal_ranks.D",
     "10 is a point card"),
])
def test_a_malformed_club_file_names_file_field_and_why(tmp_path, text, field, why):
    flags = "".join(f"{flag} = true\n" for flag in ("k_ask", "five_lead", "opening_request") if flag not in text)
    path = tmp_path / "club.toml"
    path.write_text(text + flags, encoding="utf-8")
    with pytest.raises(ConventionFileError) as caught:
        load_convention_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: field {field!r}: ") and why in message


def test_not_toml_is_refused_with_the_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("signal_ranks = [", encoding="utf-8")
    with pytest.raises(ConventionFileError, match="broken.toml: not TOML"):
        load_convention_file(path)


def test_a_club_file_is_a_set_like_the_shipped_ones(tmp_path):
    path = tmp_path / "our_club.toml"
    path.write_text('signal_ranks = ["2", "3", "J"]\ndiscard = "big_on_top"\nk_ask = false\nfive_lead = true\n'
                    'opening_request = false\n', encoding="utf-8")
    convention = find_convention(str(path))
    assert convention.name == "our_club" and convention.rank_names(2) == ["2", "3", "J"]
    assert (convention.discard, convention.k_ask, convention.opening_request) == ("big_on_top", False, False)
    assert load_conventions(tmp_path) == {"our_club": convention}


def test_unknown_set_name_lists_the_known_ones():
    with pytest.raises(MalformedError, match="unknown convention set 'nope'.*basic_89JQ"):
        find_convention("nope")


def test_signals_list_command(tmp_path, capsys):
    assert main(["signals", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(NAMED) and lines[1].startswith("basic_89JQ: ")
    (tmp_path / "bad.toml").write_text('signal_ranks = ["5"]\ndiscard = "small_on_top"\nk_ask = true\n'
                                       'five_lead = true\nopening_request = true\n', encoding="utf-8")
    assert main(["signals", "list", "--dir", str(tmp_path)]) == 1
    assert "bad.toml: field 'signal_ranks': 5 is a point card" in capsys.readouterr().err


def test_shipped_folder_is_the_repository_one():
    assert CONVENTIONS_DIR == Path(__file__).resolve().parents[2] / "drills" / "signals"
