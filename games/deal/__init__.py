"""Exact knowledge of a card deal: counts, probabilities, knowledge and sampling.

Every card game of the library shares this module.  A deal places the cards
of a :class:`~games.cards.Deck` (copies allowed) in named *locations*: each
player's hand, the pile, the kitty, the undealt cards, the trick on the
table.  How many cards each location holds is public.  What each agent knows
beyond that is a :class:`DealKnowledge` object, updated by the events the agent
observes:

========================================  =====================================================
event                                     method
========================================  =====================================================
the agent sees a location's whole content :meth:`~DealKnowledge.reveal` (own hand, a called play)
the agent sees some cards in a location   :meth:`~DealKnowledge.show` (a face-up trump card)
cards it sees go from one place to another :meth:`~DealKnowledge.move` (a card played face up)
cards it does not see go somewhere        :meth:`~DealKnowledge.move_hidden` (a face-down play)
a whole location joins another            :meth:`~DealKnowledge.move_all` (the pile picked up)
a location holds none of some cards       :meth:`~DealKnowledge.void` (failing to follow suit)
a location holds at least/most k of a set :meth:`~DealKnowledge.at_least`, :meth:`~DealKnowledge.at_most`
========================================  =====================================================

A game keeps one knowledge object per seat and feeds each the events with the
right audience; :class:`DealState` does exactly that for a true deal (it also
checks every event against the true cards).  Bots build their own
:class:`DealKnowledge` from their observations only.

Semantics
---------
An agent's *possible worlds* are the current deals (how many copies of each
card every location holds) consistent with everything it observed; hidden
choices (which cards went face down) are existentially quantified away, so the
worlds are deals, never histories.  Knowledge is truth in all of them.
Probabilities treat the physical cards as distinct and every consistent
arrangement of them as equally likely, the distribution of a shuffled deck
conditioned on the observations (for a deck without copies this is the
uniform distribution over the consistent deals).  Strategic inference from
other players' choices is not part of it.

Every observation is projected exactly onto the current deal: a face-down
move or a merge of locations leaves joint constraints ("at most two of these
cards are in the pile"), written as small tables over linear forms of the
card counts.  Long histories of face-down moves out of partly known hands
(BS) can make those tables large; a knowledge object keeps each within
:attr:`~DealKnowledge.max_table` value combinations by dropping the oldest
large constraint, which keeps a superset of the possible deals (everything
it reports as known stays true) and sets :attr:`~DealKnowledge.exact` to
False.  Small decks, and the games whose plays are face up, stay exact.

Queries are answered by dynamic programming over card kinds and locations,
never by enumerating deals: :meth:`~DealKnowledge.count` (exact Python int),
:meth:`~DealKnowledge.marginals` (expected copies of every card in every
location), :meth:`~DealKnowledge.probability`,
:meth:`~DealKnowledge.count_distribution` (e.g. "P3 holds at least two
sevens"), :meth:`~DealKnowledge.probability_of` and
:meth:`~DealKnowledge.knows` for propositional formulas over the card atoms
``has(location, card)``, and :meth:`~DealKnowledge.sample`, an exact sampler
of consistent deals that depends only on the agent's information.  The
programme's tables have one axis per location with unknown cards; a query
whose tables would pass :attr:`~DealKnowledge.max_bytes` (half this machine's
memory by default) raises :class:`~kripke.errors.SizeLimitError`, naming the
estimate, before allocating anything; the sums over a block's terms work on
a bounded number of copies of them (tens of MiB at most), whatever the
number of terms.  For small
decks :meth:`DealState.kripke_model` builds the whole situation as an explicit
:class:`~kripke.models.KripkeModel` (worlds: histories of the deal;
accessibility: same observations), so the model checker can verify nested
knowledge.

The package is split by concern: :mod:`games.deal.knowledge` (the
:class:`DealKnowledge` API: events as updates, counts, probabilities,
knowledge of formulas), :mod:`games.deal.forms` (the linear constraints),
:mod:`games.deal.counting` (the dynamic programme that counts deals),
:mod:`games.deal.marginals` and :mod:`games.deal.sampling` (what the counting
tables give), :mod:`games.deal.engine` (the three together for one
constraint set), :mod:`games.deal.formulas` (formulas over the card atoms),
:mod:`games.deal.state` (a true deal with every agent's knowledge,
:class:`DealState`) and :mod:`games.deal.cells` (:class:`CellKnowledge`: the
same events kept as bounds on every cell only, no joint constraints, a
cheap sound relaxation; its probabilities are those of a simpler model, see
there), with the max flows and min cuts both ask for feasibility in
:mod:`games.deal.flow`.

Examples
--------
>>> from games.cards import Deck
>>> from games.deal import DealState
>>> from kripke import parse
>>> deck = Deck(["AS", "KS", "QS", "JS", "AH", "KH"])
>>> st = DealState(deck, {"p1": "AS KS", "p2": "QS JS", "p3": "AH KH", "table": ""})
>>> st.knows("p1", parse("has(p2, QS) | has(p3, QS)"))
True
>>> st.knowledge("p1").probability("QS", "p2")
0.5
>>> st.move("QS", "p2", "table")          # played face up: everyone sees it
>>> st.knows("p1", parse("has(table, QS)"))
True
>>> st.knowledge("p1").count()             # p2's last card: JS, AH or KH
3
"""

from __future__ import annotations

from games.cards import Deck
from games.deal.cells import CellKnowledge
from games.deal.formulas import card_atom, evaluate
from games.deal.knowledge import MAX_MODEL_CARDS, DealKnowledge
from games.deal.state import DealState

__all__ = [
    "CellKnowledge",
    "DealKnowledge",
    "DealState",
    "Deck",
    "card_atom",
    "evaluate",
    "MAX_MODEL_CARDS",
]
