"""Cards, suits and hands (multisets of cards) for 升级: value types that round-trip to text.

>>> Card.parse("10h")
Card.parse('10H')
>>> str(Card.parse("大王")), str(Card.parse("A♠"))
('BJ', 'AS')
>>> str(Hand.parse("KS KS 5D"))
'KS KS 5D'
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from enum import IntEnum

from trainer.engine.errors import MalformedError, shown


class Suit(IntEnum):
    """A printed suit, in the tie-break order S, H, C, D (rules.md §1)."""

    S = 0
    H = 1
    C = 2
    D = 3

    @property
    def letter(self) -> str:
        """The suit's letter: S H C D."""
        return self.name

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♠ ♥ ♣ ♦."""
        return "♠♥♣♦"[self.value]

    @property
    def chinese(self) -> str:
        """The suit's Chinese name: 黑桃 红桃 梅花 方块."""
        return ("黑桃", "红桃", "梅花", "方块")[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter, symbol or Chinese name."""
        found = _SUIT_NAMES.get(text.strip().upper())
        if found is None:
            raise MalformedError(f"unknown suit {shown(text)}")
        return found


_SUIT_NAMES: dict[str, Suit] = {}
for _suit in Suit:
    for _name in (_suit.letter, _suit.symbol, _suit.chinese):
        _SUIT_NAMES[_name] = _suit
for _name, _suit in (("♤", Suit.S), ("♡", Suit.H), ("♧", Suit.C), ("♢", Suit.D),
                     ("黑", Suit.S), ("红", Suit.H), ("梅", Suit.C), ("草花", Suit.C), ("方", Suit.D),
                     ("方片", Suit.D)):
    _SUIT_NAMES[_name] = _suit

RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "J", 12: "Q", 13: "K", 14: "A"}
SMALL_JOKER = 15
BIG_JOKER = 16
POINTS_BY_RANK = {5: 5, 10: 10, 13: 10}
FACE_COUNT = 54
"""Distinct faces in one deck; a face's index is suit * 13 + rank - 2, SJ 52, BJ 53."""


class Card:
    """One face of the deck; copies are indistinguishable, so each face is one interned object.

    `rank` is 2…14 (A = 14), 15 for the small joker and 16 for the big joker; `suit` is None
    for jokers. Cards have no order of their own: a `TrumpContext` orders them per hand.
    """

    __slots__ = ("rank", "suit", "index", "points", "_text")
    rank: int
    suit: Suit | None
    index: int
    points: int
    _text: str

    def __new__(cls, rank: int, suit: Suit | None = None) -> Card:
        """Return the interned card of that rank and suit (jokers have no suit)."""
        if suit is None and rank in (SMALL_JOKER, BIG_JOKER):
            return _FACES[rank - SMALL_JOKER + 52]
        if suit is not None and suit in _SUIT_VALUES and rank in RANK_NAMES:
            return _FACES[int(suit) * 13 + rank - 2]
        raise MalformedError(f"no card has rank {rank!r} and suit {suit!r}")

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with face index `index` (0…53)."""
        return _FACES[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: `10H`, `TH`, `10♥`, `♥10`, `红桃10`, `bj`, `大王` (case-insensitive)."""
        card = _PARSE_CACHE.get(text)
        if card is None:
            card = _parse_token(text)
        return card

    @property
    def is_joker(self) -> bool:
        """True for 大王 and 小王."""
        return self.suit is None

    @property
    def pretty(self) -> str:
        """The card for people: `10♥`, `大王`."""
        if self.suit is None:
            return "大王" if self.rank == BIG_JOKER else "小王"
        return RANK_NAMES[self.rank] + self.suit.symbol

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self._text,))

    def __lt__(self, other: object) -> bool:
        raise TypeError("cards have no order of their own; use a TrumpContext")


_SUIT_VALUES = frozenset(range(4))


def _make_faces() -> list[Card]:
    faces: list[Card] = []
    for index in range(FACE_COUNT):
        card = object.__new__(Card)
        if index < 52:
            card.rank, card.suit = index % 13 + 2, Suit(index // 13)
            card._text = RANK_NAMES[card.rank] + card.suit.letter
        else:
            card.rank, card.suit = index - 52 + SMALL_JOKER, None
            card._text = "SJ" if index == 52 else "BJ"
        card.index = index
        card.points = POINTS_BY_RANK.get(card.rank, 0)
        faces.append(card)
    return faces


_FACES = _make_faces()
_RANKS_BY_NAME = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10, "1": 14}
_JOKER_NAMES = {"BJ": _FACES[53], "SJ": _FACES[52], "大王": _FACES[53], "小王": _FACES[52],
                "大鬼": _FACES[53], "小鬼": _FACES[52]}
_PARSE_CACHE: dict[str, Card] = {}
MAX_TOKEN = 8
"""No card name is longer (`方片10` is 4 characters): a longer token is refused unread."""


def _parse_token(text: str) -> Card:
    token = text.strip().upper() if len(text) <= 4 * MAX_TOKEN else ""
    card = _JOKER_NAMES.get(token)
    if card is None and len(token) <= MAX_TOKEN:
        card = _parse_suited(token)
    if card is None:
        raise MalformedError(f"not a card: {shown(text)}")
    if len(_PARSE_CACHE) < 4096:
        _PARSE_CACHE[text] = card
    return card


def _parse_suited(token: str) -> Card | None:
    for cut in range(1, len(token)):
        for rank_part, suit_part in ((token[:cut], token[cut:]), (token[cut:], token[:cut])):
            rank = _RANKS_BY_NAME.get(rank_part)
            suit = _SUIT_NAMES.get(suit_part)
            if rank is not None and suit is not None and rank_part != "1":
                return _FACES[suit * 13 + rank - 2]
    return None


def parse_cards(tokens: str | Iterable[str]) -> list[Card]:
    """Read a list of cards from a space-separated string or a list of tokens, in order.

    A bad token raises `MalformedError` naming the token and its 1-based position.
    """
    items = tokens.split() if isinstance(tokens, str) else list(tokens)
    try:
        return [_PARSE_CACHE[token] for token in items]
    except (KeyError, TypeError):
        pass
    cards = []
    for position, token in enumerate(items, start=1):
        if not isinstance(token, str):
            raise MalformedError(f"card {position}: expected a card name, got {shown(token)}")
        try:
            cards.append(Card.parse(token))
        except MalformedError as error:
            raise MalformedError(f"card {position}: {error}") from None
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of a list of cards, space-separated, order kept."""
    return " ".join(card._text for card in cards)


def pretty_cards(cards: Iterable[Card]) -> str:
    """The cards for people (`9♠ 9♠ 大王`), order kept."""
    return " ".join(card.pretty for card in cards)


def full_deck(decks: int = 2) -> list[Card]:
    """Every card of `decks` decks, face by face."""
    return [card for card in _FACES for _ in range(decks)]


class Hand:
    """A multiset of cards: two decks hold two identical copies of each face.

    >>> hand = Hand.parse("KS KS 5D")
    >>> hand.count(Card.parse("KS")), len(hand)
    (2, 3)
    """

    __slots__ = ("_counts",)

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self._counts: Counter[Card] = Counter(cards)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Hand:
        """Read a hand from card text."""
        return cls(parse_cards(text))

    def count(self, card: Card) -> int:
        """Copies of `card` in the hand."""
        return self._counts[card]

    def add(self, cards: Iterable[Card]) -> None:
        """Put cards into the hand."""
        self._counts.update(cards)

    def remove(self, cards: Iterable[Card]) -> None:
        """Take cards out of the hand; raises `IllegalPlayError` naming a missing card."""
        wanted = Counter(cards)
        for card, copies in wanted.items():
            if self._counts[card] < copies:
                from trainer.engine.errors import IllegalPlayError

                raise IllegalPlayError(f"does not hold {card.pretty}" + (f" ×{copies}" if copies > 1 else ""))
        self._counts.subtract(wanted)
        for card in wanted:
            if not self._counts[card]:
                del self._counts[card]

    def contains(self, cards: Iterable[Card]) -> bool:
        """True when every card (with its copies) is in the hand."""
        return all(self._counts[card] >= copies for card, copies in Counter(cards).items())

    def counts(self) -> dict[Card, int]:
        """Copies per face held."""
        return dict(self._counts)

    def copy(self) -> Hand:
        """An independent copy of the hand."""
        hand = Hand()
        hand._counts = self._counts.copy()
        return hand

    def __iter__(self) -> Iterator[Card]:
        return iter(sorted(self._counts.elements(), key=lambda card: card.index))

    def __len__(self) -> int:
        return sum(self._counts.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and +self._counts == +other._counts

    def __hash__(self) -> int:
        return hash(frozenset((+self._counts).items()))

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"
