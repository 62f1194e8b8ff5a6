"""The example players of the BS programming tournament (``bs-koth.txt``), as bots.

The tournament text shows one sample player, ``Player1``, and explains its
two decisions in prose.  The bots here follow that text and nothing else,
through the tournament's player API (:class:`~games.bs.koth.KothPlayer`), so
they play BS variant ``koth`` only.  Line numbers refer to
``shared/rules/bs-koth.txt``.

==============  ===========================================================================
name            what it does
==============  ===========================================================================
``sample``      :class:`SamplePlayer`, the text's ``Player1``: ``requestCards`` returns
                every card of the asked number, or the hand's first card when there is
                none (lines 20–30, explained on line 47); ``bs`` calls when 3 or more
                cards are claimed (lines 32–34, explained on lines 49–50)
``first-card``  :class:`FirstCardPlayer`: the text's ``requestCards`` alone, never calling
                (the ``bs`` of a player that, in the words of line 47, "hopes no one
                checks" and checks no one)
==============  ===========================================================================

"The hand's first card" is the first card of
:meth:`~games.bs.koth.KothPlayer.get_hand`: the adapter keeps the hand in the
order the cards arrived, the dealt cards in number order, then each pile
picked up.  So with no card of the asked number these players lie with their
lowest dealt card that is left (or, once the dealt cards are gone, the oldest
picked-up card), which is what ``hand[0]`` of the text's sample gives on a
hand kept in that order.

Examples
--------
>>> from games.base import load_game, make_bot, play_game
>>> bots = [make_bot("bs", n, seed=i) for i, n in enumerate(
...     ["sample", "first-card", "truthful", "liar"])]
>>> result = play_game(load_game("bs", variant="koth"), bots, seed=5)
>>> result.forfeit is None and sum(result.returns)
1.0
"""

from __future__ import annotations

from games.base import register_bot
from games.bs.koth import KothController, KothPlayer, KothSeat
from games.errors import InvalidParameterError

__all__ = ["SamplePlayer", "FirstCardPlayer", "sample_request"]


def sample_request(hand: list[int], card: int) -> list[int]:
    """The text's ``requestCards``: every card numbered ``card``, else the first card.

    Parameters
    ----------
    hand : list of int
        The cards in hand (numbers 0-12) in the order the player keeps them.
    card : int
        The number the player must claim.

    Returns
    -------
    list of int
        The cards to put down (at least one).

    Raises
    ------
    InvalidParameterError
        An empty hand (a player with no cards has won and is never asked).

    Examples
    --------
    >>> sample_request([1, 4, 4, 9], 4)
    [4, 4]
    >>> sample_request([1, 4, 4, 9], 7)
    [1]
    """
    if not hand:
        raise InvalidParameterError(f"an empty hand cannot play a card numbered {card}")
    ret = [c for c in hand if c == card]
    if not ret:
        ret.append(hand[0])
    return ret


class SamplePlayer(KothPlayer):
    """The tournament text's sample ``Player1``: truthful or its first card; calls 3 or more.

    ``requestCards`` (``bs-koth.txt`` lines 20-30, explained on line 47): all
    cards of the asked number, or, with none, the first card of the hand.
    ``bs`` (lines 32-34, explained on lines 49-50): call when the claimed number
    of cards is 3 or more, whoever the player and whatever the number.

    Examples
    --------
    >>> p = SamplePlayer(seed=0)
    >>> p.call_bs(None, 5, 3, None), p.call_bs(None, 5, 2, None)
    (True, False)
    """

    name = "sample"

    def request_cards(self, required_rank: int, controller: KothController) -> list[int]:
        return sample_request(self.get_hand(), required_rank)

    def call_bs(self, player: KothSeat, rank: int, count: int, controller: KothController) -> bool:
        return count >= 3


class FirstCardPlayer(KothPlayer):
    """The text's ``requestCards`` (lines 20-30 and 47) with a ``bs`` that never calls.

    Examples
    --------
    >>> FirstCardPlayer(seed=0).call_bs(None, 5, 4, None)
    False
    """

    name = "first-card"

    def request_cards(self, required_rank: int, controller: KothController) -> list[int]:
        return sample_request(self.get_hand(), required_rank)

    def call_bs(self, player: KothSeat, rank: int, count: int, controller: KothController) -> bool:
        return False


for _cls in (SamplePlayer, FirstCardPlayer):
    register_bot("bs", _cls.name, _cls)
