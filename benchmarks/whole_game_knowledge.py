"""Nested knowledge at every play of complete games: share answered, time, memory and route.

For each game and seed one complete game is played by seeded bots
(:data:`BOTS`, or ``--bot`` for every seat; chance from the same seed).  A *play* is every decision after which
the state's card history (``state.card_history()``) has changed: a new event,
or a new deal (BoerenBridge rounds).  At every ``--every``-th play the
state's knowledge is built (``state.knowledge()``,
:class:`~games.epistemic.knowledge.GameKnowledge`) and two formulas are
asked at the true state:

* ``K_a ~K_b has(c, X)`` and
* ``C_{a,b} has(c, X)``

where ``a`` rotates over the seats from one measured play to the next, ``b`` the next
seat, ``c`` a third seat (the next after ``b`` that owns a location holding a
card) and ``X`` a card at ``c``'s location that ``a`` is uncertain about
(exact counting, :meth:`CardHistory.deal_state`, gives ``a`` a probability
strictly between 0 and 1: since ``X`` lies there, ``a`` does not know it; when no
such card exists, the first card there, recorded as ``uncertain: false``).
Where ``a``'s counting had to drop a constraint (long koth games), its deals are a
superset and ``a`` may know the card after all: ``C_{a,b}`` is then sometimes true
(koth seed 0 play 274: ``a``'s integer program shows it knows).
Choosing ``X`` is not timed.

Each state runs in its own forked process with a wall-clock budget
(``--budget`` seconds for building the knowledge and both queries); a state
over budget is killed and recorded as ``timeout``, one whose route refuses
as ``size-limit`` (the :class:`~kripke.errors.SizeLimitError` message kept).
Every state is appended to ``--out`` (JSON lines) as soon as it finishes, and
states already in that file (same game, bot, route, seed, play and options) are
skipped, so an interrupted run goes on where it stopped.

Reported per game: states, the share answered (no error, within budget),
median and worst seconds per answered state, worst seconds per query, peak
resident memory of a state's process (``ru_maxrss``; it includes the forked
parent's pages, about the size of the parent, which picks each query in a
process of its own so that it stays small; that process builds each play's
deal state on the last one's, while a state's own counting starts from the
deal) and which routes answered
(:attr:`GameKnowledge.route`), and the first play that was not answered.

``--route structure-first`` measures the routes as they were before
:attr:`GameKnowledge.quotient_width`: the knowledge structure first at any
width it accepts, the quotient only when the structure is refused;
``--route baseline`` in addition asks exact counting only after both refused
(:attr:`GameKnowledge.counting_first` off).  Several routes (``--route default
baseline``) measure every state on each, with the same query, in the same run,
and report where their answers differ.

``--ask probability`` asks, in place of the two formulas, seat ``a``'s exact
probabilities (:meth:`GameKnowledge.probability`) of ``has(c, X)`` and of
``K_b has(c, X)``, the same seats and card: the issue's "probabilities of knowledge
formulas wherever ``holds`` works".  A refusal is recorded as ``size-limit``
with its message (which names why counting does not weigh the formula).
``--ask bounds`` asks :meth:`GameKnowledge.probability_bounds` of the same two
formulas (the answer ``low..high``, fractions as text): exact bounds where the
probability of a formula about knowledge is refused but the seat's counting is exact.
``--ask random`` asks two random formulas of modal depth at most ``--depth`` over the
named cards and the seats (K, M, Kw, E, C, D, announcements; :func:`random_query`, drawn
as the tests' random playouts draw them, seeded by game, seed and play): the issue's
"any formula", not only the two above.

Games: ``bs-classic`` (52 cards, 4 seats), ``bs-koth`` (koth variant, 4
seats), ``boerenbridge`` (the default game: every round), ``zpy5`` (Shengji
ZPY, 5 seats, one round), ``bs-zpy`` (one round).

Measured (2 seeds, ``--every 8 --budget 5 --max-plays 120``, this 2-core
machine under load; default route, then ``--route structure-first``):

* bs-classic: 59% of 22 states answered (50% before), median 0.068 s
  (1.05 s), worst 2.6 s (4.5 s); every state up to play 40 is answered,
  from play 48 of the long game (24 hidden plays) none within 5 s (the
  quotient's pass, see :mod:`games.epistemic.quotient`);
* with the local quotient (route ``local quotient``, same command, out
  file ``/tmp/h/wgk_after.jsonl``): bs-classic 59% of 22 states, median
  0.065 s, worst 2.4 s (the deal, on the structure), worst query 1.7 s;
  the local-quotient states (11): median 0.06 s, worst 0.38 s.  Seed 0 is
  now answered through play 48 (0.38 s; the whole quotient took 240 s
  there) and stops at play 56 (28 hidden plays: P3's class, tracked with
  P0's bits, 126,255 states; 172 s); seed 1 stops at play 48.  bs-koth,
  zpy5, bs-zpy stay at 0% (size-limit: no quotient for decks with copies);
  boerenbridge 100%, median 1.0 s, worst 2.1 s (structure; machine under load);
  peak RSS 95 MiB;
* bs-koth, zpy5, bs-zpy: 0%: decks with copies have no quotient, and the
  structure is refused by its width (koth from the first face-down play,
  ZPY 5 seats at the deal: 1,750,329 partial counts) or over budget
  (koth at the deal);
* boerenbridge: 100%, median 0.25 s, worst 0.7 s, on the structure
  (the whole 15 rounds without ``--max-plays``: 78 states, 100%, median
  0.37 s, worst 0.76 s);
* both routes agree on every state both answered (41), peak RSS 94 MiB.

With the kind quotient for decks with copies (:mod:`games.epistemic.kinds`,
route ``local quotient`` / ``quotient`` on those decks) and formulas naming
many cards offered to counting first (same command, out file
``/tmp/h4/wgk_final2.jsonl``, at 4ab6665):

* bs-classic: 64% of 22 states (14), median 0.018 s, worst 1.06 s, worst
  query 1.0 s; unanswered from play 56 of seed 0 (timeouts, the card
  quotient's pass as before);
* bs-koth: 5% (one deal, on the structure, 3.4 s; the other deal over
  budget); from play 8 every state is refused (size-limit: 16, the kind
  quotient's pass past 50,000 states, median 0.9 s, worst 3.6 s) or over
  budget (4); the local kind quotient alone answers ``K_a ~K_b has(c, X)``
  at the koth deal in 2-5 s (37,705 states for seed 0);
* zpy5 and bs-zpy: one state each (seed 1, the deal: 3.7 and 3.8 s, local
  kind quotient and counting), the rest refused within 0.3 s (the named
  kinds' spread, 20 and 28 states) or over budget (1 each): 5% and 3%;
* boerenbridge: 100%, median 0.17 s, worst 0.30 s (structure); peak RSS
  346 MiB (a koth state's process).
* the structure-first baseline in the same session (``--route
  structure-first``, out file ``/tmp/h4/wgk_sf.jsonl``): bs-classic 55%,
  bs-koth, zpy5, bs-zpy 0%, boerenbridge 100%.

Issue 15 (same command; machine loaded, 5 processes on 2 cores; the BS games
differ from the figures above, the probabilistic bot having changed).  The
routes as they were (d4b4a3a's ``games/epistemic``, run from an export of
this tree, same harness), then at 30dcf92 (out files
``/tmp/w15_helper4/base.jsonl`` and ``after5.jsonl``):

* bs-classic: 50% -> 54% of 28 states (median 0.018 -> 0.003 s, worst 2.2
  -> 2.1 s); still unanswered from play 56 (timeouts: where the rule below
  does not apply, the local quotient as before);
* bs-koth: 5% -> 43% of 21 (median 3.5 -> 0.002 s); unanswered from play
  24 (the pickups after calls carry seen cards into the hands);
* boerenbridge: 100% both, median 0.054 -> 0.002 s, worst 0.20 -> 0.06 s
  CPU (counting answers 59 of 60 queries); with ``--cold`` (every state
  paying the first import of ``dd``, as this harness did before) the old
  routes take 0.17 s median, 0.31 s worst;
* zpy5: 5% -> 64% of 22 (median 3.5 -> 0.003 s); unanswered from play 48;
* bs-zpy: 3% -> 37% of 30 (median 3.8 -> 0.003 s); unanswered from play 24;
* every answered state within 0.01 s CPU but the classic ones on the
  local quotient (worst 2.1 s); peak RSS 167 MiB.

What answers them is exact counting with
:func:`games.epistemic.knowledge.never_known` (a seat cannot know where a
card is that, in every world it or another seat considers possible, it
never saw and that can trade places with enough unseen cards) and
nested formulas offered to counting first; the kind quotient names kinds
at their first public event (ZPY's deal: 1,330 states instead of the
spread refusal), but its passes still grow with every hidden play of the
formula's seats (koth after 8 plays: 622,289 states), so the states the
rule does not settle stay refused.

This session's counting rules (``swap_unknown``, ``dislodged``, the witness
worlds of :mod:`games.epistemic.witness`, the group onlookers, facts as
counts), same command; 256ebfd (the session's start) first, then 1237d5f,
both run from a clone in this session (out files ``/tmp/p15/base.jsonl`` and
``/tmp/p15/final.jsonl``), the machine loaded:

* bs-classic: 54% -> 89% of 28 states (median 0.003 -> 0.041 s, worst 2.1 ->
  0.29 s); unanswered: plays 80, 88 and 112 of seed 0 (timeouts);
* bs-koth: 43% -> 76% of 21 (median 0.003 s, worst 0.37 s); unanswered from
  play 40 of seed 0;
* boerenbridge: 100% both (median 0.013 s, worst 0.05 s);
* zpy5: 64% -> 82% of 22 (worst 0.76 s); unanswered: four states where the
  kitty's exchange hides which cards moved;
* bs-zpy: 37% -> 63% of 30 (worst 1.6 s; at a4fbfc0, whose common-knowledge
  checks ask the members first, 0.62 s, worst query 0.41 s, out file
  ``/tmp/p15/final_bszpy.jsonl``); unanswered from play 24;
* peak RSS 414 MiB (a BS-ZPY state).

The next session (same command; c3da21e, the session's start, run from a clone
with ``PYTHONPATH`` set to it, then bc4262d; out files
``/tmp/base15/whole_game_knowledge.jsonl`` and ``/tmp/w15/after3.jsonl``): public
facts read as bounds and disjunctions of counts (:meth:`CardHistory.fact_bounds`,
:meth:`games.deal.DealKnowledge.any_of`; BS-ZPY's counting stays exact through
its claims and follow rules), the rules reading those facts as counts
(:meth:`CardHistory.facts_as_counts`), trades with a buried kitty and one-sided
counts, ``dislodged`` after counts, and a 64 MiB table budget on counting that
had to drop a constraint:

* bs-classic: 89% -> 89% of 28 (median 0.026 s, worst 0.14 s); unanswered
  plays 80, 88, 112 of seed 0 (timeouts: the seats' counting is a relaxation,
  and the hand that picked up the cards a seat put down has played since, so
  ``dislodged`` cannot follow them);
* bs-koth: 76% -> 76% of 21 (worst 0.25 s); unanswered plays 40, 88-112 of
  seed 0 (as classic, and the kind quotient over budget);
* boerenbridge: 100% both (median 0.002 s, worst 0.011 s);
* zpy5: 82% -> 86% of 22 (worst 0.04 s); unanswered seed 0 play 80 and seed 1
  plays 64, 80: exact counting, but the copy may have come in with the kitty
  (seed 0 play 80), the buried kitty may hold no card its voids let trade with
  it (seed 1 play 64) or the ignorant seat may have seen it (seed 1 play 80),
  and no witness world shows the other seat knowing;
* bs-zpy: 63% -> 87% of 30 (median 0.067 s, worst 1.66 s, worst query 1.53 s:
  seed 1 play 64's ``C`` formula, two exact seats' counting); unanswered seed
  0 plays 72, 80 (exact counting, no rule) and seed 1 plays 80, 96 (counting
  relaxed by the trick's joint constraints);
* peak RSS 1.25 GiB (a BS-ZPY state).

The session after (same command; dd85691, its start, run from an export with
``PYTHONPATH`` set to it and this harness, then b32553a; out files
``/tmp/w16/base.jsonl`` and ``/tmp/w16/after2.jsonl``): a seat's own counting
programme is reused by its ``possible`` probes, ``C_{a,b}`` of an atom asks
the rules (a member does not know it in another's worlds, kept from the
``K_a ~K_b`` query) before any member's counting, and a programme built for a
count keeps only the two tables a count reads.  Every answer of the 131
states is the same in both runs; the shares are unchanged (bs-classic 89%,
bs-koth 76%, boerenbridge 100%, zpy5 86%, bs-zpy 87%):

* bs-zpy: worst state 1.38 -> 0.29 s, worst query 1.25 -> 0.29 s (seed 1
  play 64's ``C`` formula 1.25 -> 0.0 s: two seats' counting, dropping
  constraints to show nothing, no longer asked), median 0.065 -> 0.028 s;
* the other games within 0.25 s a state, as before;
* peak RSS 252 -> 155 MiB for bs-zpy, 155 MiB overall (a koth and a BS-ZPY
  state).  The
  1.25 GiB above was the harness: the query's uncertainty test (counting
  seat ``a``'s probability on the whole history, 38 s and 2.8 GiB for BS-ZPY
  seed 1 play 80) ran in the parent, whose pages every later state's
  ``ru_maxrss`` included; it now runs in a forked process of its own (the
  baseline above was run with this harness too).

The session after (same command; 4e327fe, its start, then 0f2940d, both run
from exports of the commit with ``PYTHONPATH`` set to it and this harness; out
files ``/tmp/w17/before2.jsonl`` and ``/tmp/w17/after2.jsonl``): the rule
:func:`games.epistemic.knowledge.rerouted` (a card without copies that may have
traded ways with a card put down beside it, followed through the hands that
played since).  Every answer of the 116 states both runs answered is the same:

* bs-classic: 89% -> 93% of 28 (seed 0 play 88 answered by counting in
  0.006 s; median 0.018 -> 0.006 s, worst 0.15 -> 0.14 s); unanswered seed 0
  plays 80 and 112 (timeouts): there the cards the hand put down went to a hand
  whose later play the ignorant seat picked up, so in some worlds every one of
  them was seen, and no single trade of ways settles those worlds;
* bs-koth: 76% both (worst 0.24 -> 0.33 s); unanswered seed 0 plays 40, 88-112
  (timeouts, or the kind quotient's refusal at 4.4 s of a 5 s budget: which
  one varies with the load): the card has four copies, which the rule does not
  follow;
* boerenbridge 100% (worst 0.01 s), zpy5 86% (worst 0.08 s) and bs-zpy 87%
  (worst 0.47 s, worst query 0.47 s), unchanged: their cards have two copies;
* peak RSS 156 MiB (a BS-ZPY state).

A full-size koth game (``--games bs-koth --seeds 0 --every 1 --budget 2``,
stopped after 192 plays of seed 0; out file ``/tmp/w17/koth_full.jsonl``, at
0f2940d): 49% of the 192 states answered (95, median 0.08 s, worst 0.44 s,
peak 76 MiB), every play up to 33, and 61 of the 158 plays from 34 on; the
others over the 2 s budget.

The session after (72a8af0, its start, run from an export with ``PYTHONPATH`` set
to it; then the same export with this session's ``games/epistemic`` of 7731c92,
and 792c155, the session's end with the other changes of ``games.deal``, each from
an export; out files ``/tmp/w18/r_base*.jsonl``, ``r4_mine*.jsonl`` and
``r5_after*.jsonl``; the machine loaded 4-6 on 2 cores, so the wall times below
are 2-5 times the CPU times): the copies of koth followed by number.
:func:`games.epistemic.knowledge.outplayed` shows ``K_a ~K_b has(L, C)`` when the
copies of ``C`` that ``b`` may have seen at ``L`` (at most the copies less those ``a``
was dealt and followed unseen by ``b``) are no more than the cards ``L`` put down
unseen by ``b`` since; :func:`games.epistemic.witness.known_at_least` (the copies ``b``
follows, a pile it later saw whole bounding what went into it) shows ``b`` knowing in
a traded world of ``a`` where ``b``'s counting is relaxed; and
:func:`games.epistemic.witness.witness_rerouted` finds a world of ``b`` where a copy
went down in place of a card put down unseen, kept only when ``b``'s observations
are the same.  Every answer any two runs give is the same:

* bs-koth (2-seed command): 76% -> 81% of 21 (seed 0 play 112: ``K_P2 ~K_P3 has(P0,
  12)`` false: a world of P2 where one of the two 4s P3 played into the pile P0 took
  was a 12; CPU median 0.003 s, worst 0.51 s); unanswered seed 0 plays 40, 88, 96,
  104 (timeouts);
* bs-classic: 93% both (CPU worst 0.12 -> 0.10 s), plays 80 and 112 of seed 0 open
  as before;
* full-size koth, seed 0, every play, budget 2, first 150 plays: 55% -> 60% (83 ->
  90 states; CPU median 0.051 -> 0.027 s, worst 0.46 -> 0.77 s, worst query 0.97 s
  wall; peak 198 MiB, play 146), now every play up to 53 (34 before): plays 34, 42
  (false: a world of P2 where P3 played a second 0 into the pile P0 took), 49, 53
  (true: P2 can have seen at most three 1s go to P3, and P3 put down three since),
  106, 110, 146; none lost.  At 792c155 the same 90 states (CPU median 0.035 s,
  worst 0.51 s, worst query 1.42 s wall, peak 62 MiB): with its ``games.deal`` (a
  seat's counting keeping up to 39 joint constraints instead of 11) ``dislodged``'s
  exact distribution took 2.8 s at play 104, which timed out until the rule read the
  cell bounds first (0.3 s).

What stops the rest: at the open koth states the seats' counting is a relaxation (it
dropped a constraint), so no seat's ignorance at the true state is shown by counting;
``K_a ~K_b`` needs a rule in every world of ``a``, and the copies ``b`` may have seen
reach ``L`` through hidden plays of other hands (seed 0 play 40: the marks counted
five 1s where at most three can have been seen by P2, and P3 put down only two), so
the trade of ways would have to be followed through several hands; the witnesses
try one trade of cards ``a`` never saw, and the fixed choice of which copy moved
(:func:`games.epistemic.witness.follow_cards`) hides some (play 88: P0's 12 taken
as the one P1 later showed).

The same session, ZPY and BS-ZPY (same 2-seed command, each run from a ``git
archive`` export with ``PYTHONPATH`` set to it, out files ``/tmp/k15/before.jsonl``
and ``after.jsonl``):

* zpy5: 86% -> 91% of 22 (2cbd6f8 -> 0969f49; median 0.006 -> 0.004 s, worst state
  0.136 -> 0.071 s, peak 54 MiB): seed 0 play 80's ``K_P0 ~K_P1 has(P2, 5H)`` is true
  and now shown by ``dislodged`` counting the buried kitty's partners in the worlds
  where the hand holds each number of copies (P2 holds the 5H or the 3C, the other
  buried; in the world where it kept the 3C no heart in the kitty can trade with the
  5H, but there P2 does not hold it); every answer of the 19 states both runs answered
  the same.  Still open: seed 1 play 64 (the trade would go P0 -> kitty -> another
  hand -> P0) and seed 1 play 80 (P2 void in three suits, so only trumps trade with
  the 2D, and P0 considers worlds where the kitty holds none);
* bs-zpy: 87% -> 90% of 30 (0969f49 -> the same export with d5eb349's
  ``games/epistemic/knowledge.py``, out files ``/tmp/i15_shown/before.jsonl`` and
  ``after.jsonl``; median 0.043 -> 0.013 s CPU, worst 0.81 -> 0.041 s CPU, peak 149 ->
  93 MiB): seed 0 play 80's ``K_P0 ~K_P1 has(P2, 10C)`` is shown by
  :func:`~games.epistemic.knowledge.never_known`, whose marks now take a fact's placed
  atom as a show of those copies (a true claim ``has(down, 4C)`` barred every copy of
  every kind it named), let a denial about places the copies cannot have been at bar
  nothing, and count the seat's own unseen cards as partners within its worlds; the
  26 states both runs answered the same.  Still open: seed 0 play 72 (the 2D P1 showed
  in its bid; the own-hand argument inside ``outplayed`` is not shown sound), seed 1
  play 80 (every seat's counting exact since 629e202, but the state takes about 12 s
  CPU at 9db8c70 after this session's counting changes, 64ee3c3-9db8c70: both
  formulas 38 s -> 11 s under a profiler; its first formula then meets the kind
  quotient's refusal) and seed 1 play 96 (P3's counting relaxed from play 81).

The next session (2-seed command; before: an export of 99c35c9, after: of 048910f;
out files ``/tmp/h15x/before.jsonl`` and ``after1.jsonl``; load 5-9, so walls are
2-4x CPU; the 43 states both runs answered the same):

* bs-classic: 93% -> **100%** of 28 (CPU median 0.004 s, worst state 0.12 -> 0.17 s,
  worst query 0.39 -> 0.33 s wall, peak 60 MiB).  Seed 0 plays 80 (``K_P2 ~K_P3
  has(P0, 8D)``) and 112 (``has(P0, 3C)``), which ran out of time on the local
  quotient after counting's rules left them open, are false by two new witnesses
  (:mod:`games.epistemic.witness`): ``witness_followed`` (the cards ``L`` put down unseen
  are cards ``b`` knew lay at ``L``, followed through later hidden moves until ``b``
  sees them again: at play 80 P0's two cards at event 81 were the 9C and 9S P3 had
  put into the pile P0 took, so P3 knows P0 kept the 8D) and ``witness_carried`` (the
  card went from ``L`` to ``b``, who put it back into cards that reach ``L``); a world
  is kept only when ``a`` observes in it exactly what it observes in the true history
  and ``b``'s counting (or :func:`~games.epistemic.witness.known_at_least`) knows the
  atom there;
* bs-koth: 81% both (CPU median 0.003 s, worst state 0.52 -> 0.56 s, worst query 1.73
  -> 1.19 s wall, peak 95 MiB); seed 0 plays 40, 88, 96 and 104 stay open (play 40:
  the copies ``b`` saw and lost at another hand's hidden play would have to be
  followed through several hands; play 104: each copy ``b`` saw matched with a card
  put down after it last arrived; play 88: the world that would show it is ruled out
  by a later show);
* full-size koth (``--seeds 0 --every 1 --budget 2 --max-plays 150``): 60% both runs
  on the same states (the before run timed out at play 106 under load, which the code
  before answers alone in 0.59 s CPU); every play up to 53;
* zpy5: 91% -> **95%** of 22 (before: an export of 99c35c9, after: the same with
  5143875's ``games/epistemic/kinds.py``; out files in ``/tmp/h15y/``; CPU median
  0.004 s both, worst state 0.034 -> 1.38 s, worst query 0.08 -> 1.95 s wall, peak 54 ->
  62 MiB; the 47 states both runs answered, with bs-zpy's, the same).  Seed 1 play 80's
  ``K_P0 ~K_P1 has(P2, 2D)`` is true, on the kind quotient (route ``local quotient``):
  each named kind is now spread only over the placements its later public events allow
  (a card played face up from a hand was there, a void holds none, a count's upper
  bound holds, a hidden move takes at most as many copies as cards), a deal that cannot
  fill a location at a later time is cut, and a kitty the tracked seats do not see taken
  is dealt as part of the taker's hand.  The estimate there fell from 2.5e71 to 4.5e11
  and the pass keeps 54 states at the deal, 90 at the end (P0 has 90 possible deals).
  Seed 1 play 64 stays open, now as a timeout: its real deal states pass the limit of
  50,000 after about 6 s CPU (the loose estimate refused it in 0.26 s before);
* bs-zpy: 90% both (CPU median 0.010 -> 0.011 s, worst state 0.027 -> 0.048 s, peak 90
  -> 98 MiB); seed 1 play 96's refusal 0.79 -> 0.05 s with kinds the events name alike
  sharing their placement sets.  Still open: seed 0 play 72 (3,000 samples of P4's
  worlds hold 3,000 different P0 hands, each a state of ``K_P4 ~K_P0``: no exact
  enumeration is small here), seed 1 play 80 (the deal passes 50,000 states after about
  7 s; its 12 s of counting not cut) and seed 1 play 96 (P3's counting relaxed);
* boerenbridge at the issue's full size, ``--seeds 0 1 ... 19 --every 1 --budget 5``
  (20 complete games of 15 rounds, every play; out file ``/tmp/s27/bb20.jsonl``, at
  99c35c9): 6,240 states, **100%**, median 0.003 s, worst state 0.29 s wall (0.12 s
  CPU), worst query 0.25 s, peak 85 MiB; routes: counting 12,433 queries, structure 47.

The same session changed the routes of :class:`~games.epistemic.GameKnowledge` (every
formula to exact counting first; on a deck without copies the card-symmetry quotient
before the structure at any width, :data:`~games.epistemic.knowledge.QUOTIENT_FIRST_WIDTH`).
The two formulas of this benchmark were already counting's first, so its figures do not
move; random formulas do (below, in :mod:`tests.test_epistemic_playouts`' terms).

The next session (2ac5210 at its start; the rules below up to 8961a91): a witness world
where the hand a card was put down from kept it and put down another card it held then
(:func:`~games.epistemic.witness.witness_kept`, tried by ``witness_rerouted``);
:func:`~games.epistemic.knowledge.rerouted` following the cards its hand put down at
several moves together when no single move leaves one; ``never_known`` taking a copy that
leaves a place in view to be the one shown there (copies are alike: a bid's 2D played face
up later no longer marks the one kept); with copies, ``outplayed`` trading the copies ``b``
saw reach ``L`` through another hand with cards that hand keeps unseen, or counting the
cards ``L`` put down unseen against every copy it can hold; for ``K_a ~K_b`` the rules and
witnesses before the public's counting; and a fix of ``never_known``, which took a seat to
know its own hand when a card had left it at a move the seat did not see (a false ``True``
that random histories found, present before this session).

* 2-seed command with ``--route default baseline`` (every state measured on both routes,
  same query, same run; at 8961a91, out file ``/tmp/s28/two_seed_m2.jsonl``; machine
  loaded 4-5 on 2 cores): bs-classic 100% (baseline 43%), bs-koth 86% (76%), boerenbridge
  100% (100%), zpy5 95% (95%), bs-zpy 90% (90%); CPU median 0.003-0.010 s a state, worst
  0.48 s (koth), 1.12 s (zpy5 seed 1 play 80, the kind quotient); the answers of the 106
  states both routes answered are the same.  The baseline is the structure first at any
  width, the quotients next and exact counting last;
* the issue's full size for classic BS and ZPY: 20 complete games each, every play,
  ``--seeds 0 ... 19 --every 1 --budget 3`` (at 2ac5210, out file
  ``/tmp/s28/full_cz.jsonl``; then the states not answered re-measured at 8961a91, the
  others kept, ``full_cz_m2.jsonl``): bs-classic 2,256 states, 90.6% -> 95% (119 left,
  timeouts from play 61 of the long games: seeds 0, 6, 10, 11 run to 157-323 plays;
  CPU median 0.037 s, worst 1.30 s a state), zpy5 1,675 states, 95.2% -> 96% (72 left,
  from play 32; CPU worst 1.33 s); peak 237 MiB;
* koth and BS-ZPY at full size, every 5th play of complete games (``--every 5 --budget
  2``, at 8961a91, out files ``/tmp/s28/full_kz5_m2.jsonl`` and ``full_bszpy5_m2.jsonl``;
  stopped for time after 15 and 3 complete games): bs-koth 59% of 529 states (the ten
  games of at most 14 measured plays 89-100%, seeds 5 and 8 75% and 66%, the long ones,
  seeds 0, 6 and 9 of 820, 516 and 450 plays, 40-46%; CPU median 0.004 s, worst 1.91 s a
  state; peak 227 MiB), bs-zpy 76% of 105 (25 of 31, 27 of 41, 28 of 33; CPU worst
  1.22 s).

The session after (2f5a174 at its start; the rules below up to bfb1fc6; the machine
loaded 2-3 on 2 cores): bounds on the copies of a kind at every place and moment, read
forward and backward (``_copies_bounds``: a copy revealed later lay where it came from),
and one mark for cards seen or shown instead of two added; ``_put_down_hidden`` following
by kind the cards that lie at a place the outer seat sees whole, while the others are still
followed as a number; where every card is played face up (Shengji, ZPY), Hall's condition
over groups of cards (:mod:`games.epistemic.hands`): ``hand_unknown`` shows ``K_a ~K_b
has(c, X)`` and ``hand_known`` finds a world of ``a`` where ``b`` knows it, both from the
fewest cards of a group ``b`` holds in ``a``'s worlds, exactly; and counting reads
announcements of card formulas inside knowledge, knowing whether on places a seat always
sees, and ``~E_G`` of an atom a member never knows.

* 2-seed command with ``--route default baseline`` (at af01115, before ``hand_known``;
  out file ``/tmp/s29/two_seed.jsonl``): bs-classic 100% (baseline 39%), bs-koth 86%
  (76%), boerenbridge 100% (100%), zpy5 100% (100%: the baseline's counting, asked last,
  has the new rules too), bs-zpy 90% (90%); the answers of the states both routes
  answered are the same; CPU median 0.003-0.011 s a state, worst 0.60 s (koth); worst
  query 0.69 s wall (koth), ZPY's 1.77 s of the last session now 0.22 s;
* classic BS, 20 complete games, every play (the 119 states left re-measured at 50ebec5,
  the others kept; out file ``/tmp/s29/cz_b.jsonl``): 95% -> 96.1% of 2,256 (88 left:
  seeds 10, 11, 0 and 6 from play 61; CPU median 0.037 s, worst 1.30 s a state; peak 237
  MiB);
* zpy5, 20 complete games, every play (the states left re-measured at 76757c0, then at
  bfb1fc6; ``/tmp/s29/z_b.jsonl``, ``z_c.jsonl``): 96% -> 98.9% -> 99.9% of 1,675 (one
  left: seed 16 play 70, ``K_P0 ~K_P1 has(kitty, 3H)``, refused); CPU worst 1.66 s a
  state, 1.03 s in the last run; peak 104 MiB;
* bs-zpy, every 5th play of 3 games (left states re-measured at af01115,
  ``/tmp/s29/bszpy5_c.jsonl``): 76% -> 77% of 105 (its plays are face down: the new
  face-up rules do not apply);
* bs-koth, every 5th play of the 15 complete games (left states re-measured at e4c6c76,
  ``/tmp/s29/kz5_c.jsonl``; stopped for time at play 440 of seed 0's 820, whose later
  44 states keep the last session's timeouts): 59% -> 64.5% of 529 (seeds 0, 6 and 9:
  51%, 54%, 56%; the ten short games 92-100%; CPU median 0.006 s, worst 2.08 s a state).

The session after (3aef722 at its start; the code below up to 30b99d3; the machine loaded
about 2 with two runs side by side): witness worlds searched over the paths of one kind's
copies (:mod:`games.epistemic.paths`: greedy steps ``a`` cannot see, two never-seen cards
trading kinds, a copy and another card going each other's way from an unseen move, a card
``b`` sent to ``L`` swapped for one ``a`` never saw; scored by the copies ``b`` can follow to
``L``, and by the same had the places ``b`` saw again held none), tried for ``K_a ~K_b``
before the rules that ask a seat's counting (0.5-2 s on a long koth history; the search
takes milliseconds, at worst 0.45 s on 772 steps); and for ``C_G`` of an atom, a world where
a member does not know it (``witness_absent``, ``witness_rerouted``) before any counting.

* 2-seed command with ``--route default baseline`` (at 30b99d3, out file
  ``/tmp/s30/two_seed.jsonl``): bs-classic 100% (baseline 43%), bs-koth 86% (81%),
  boerenbridge 100% (100%), zpy5 100% (100%), bs-zpy 90% (90%); the answers of the 108
  states both routes answered are the same; default route CPU median 0.002-0.010 s a
  state, worst 0.17 s a state and 0.17 s a query (the baseline: 3.8 s and 2.7 s); peak
  109 MiB;
* classic BS, 20 complete games, every play (the states left re-measured at 5a443c6 and
  again at 63a3efb, the others kept; ``/tmp/s30/classic_r2.jsonl``): 96.1% -> 96.9% of
  2,256 (69 left, from play 61 of seeds 0, 1, 2, 6, 10, 11, 15; CPU worst 1.30 s a state);
* bs-koth, every 5th play of 16 complete games, seed 0 now to its end (the states left
  re-measured at 30b99d3, the others kept; ``/tmp/s30/koth_r3.jsonl``): 74% of 632 states
  (64.5% of 529 before; of the 589 states both runs measured, 75.7% against 67.7%; the
  long games, seeds 0, 6, 8, 9 and 15, 65-69%; CPU worst 2.1 s a state; peak 477 MiB);
* bs-zpy, every 5th play of 4 complete games (the states left re-measured at 30b99d3;
  ``/tmp/s30/bszpy_r3.jsonl``): 78% of 140 states (77% of 105 before; its plays are claims with
  facts: the search leaves them alone; CPU worst 1.62 s a state).

What stops the rest: on classic BS and koth, ``K_a ~K_b has(c, X)`` where ``X`` went through
several hands that played face down since: when the answer is true no rule shows that ``b``
cannot follow the copies (the rules follow them as a number, per seat), and when it is
false the search stops on a plateau (every single step leaves the copies ``b`` can follow
as they were); on BS-ZPY the claims' facts, which the search leaves alone; ZPY is settled
by Hall's condition but for a kitty atom.

The session after (a3121ec at its start; the machine loaded about 2 with two runs side
by side): the integer program of a seat's worlds (:mod:`games.epistemic.program`, HiGHS
through ``scipy.optimize.milp``) decides ``K_a`` of card formulas where the seat's counting
dropped constraints (no seat's counting was exact at 60 sampled late koth states); the
onlookers of ``D_G``, ``C_G`` and the public have theirs; ``outplayed_counted`` reads the
most copies ``L`` can hold since its last arrival from ``a``'s program.

* bs-koth, the 161 states left re-measured at 30b8843 and the 147 left then at 2feeeaa
  (the others kept; ``/tmp/s31/c/koth_r4.jsonl``): 73.6% -> 74.5% -> 76.7% of 632 states;
* classic BS, the 69 states left re-measured at 30b8843 (``/tmp/s31/b/classic_r2.jsonl``):
  96.9% -> 97.2% of 2,256; bs-zpy, the 31 left (``/tmp/s31/b/bszpy_r3.jsonl``): 77.9% ->
  78.6% of 140;
* ``K_a has(c, X)`` at 30 late koth states: 9 refused before, all 30 answered (the program
  0.01-0.3 s; worst 0.61 s a query with the program asked first from 120 steps on).

What stops the rest is unchanged: ``K_a ~K_b has(c, X)`` late in classic BS and koth, true
where no rule shows that ``b`` cannot follow the copies in every world of ``a`` (the
program answers for one seat; "for every world of ``a``, some world of ``b``" is not an
integer program), false where the search stops on a plateau.

The session after (f858af1 at its start; two runs side by side): ``SeatProgram.traced``
(a world of ``a`` where ``b`` followed the copies to ``c``, one integer program:
0.03-0.2 s at late koth states), worlds drawn from a seat's program as witnesses for
``K_x K_y p``, ``K_x ~K_y p`` and ``C_G``, and formulas simplified before routing.

* bs-koth, the 147 states left re-measured at c3c37dd and the 141 left then at bc044bf
  (``/tmp/s32/b/koth_r7.jsonl``): 76.7% -> 77.7% -> 77.8% of 632 states (the states newly
  answered: worst 1.8 s a state, 1.74 s a query);
* classic BS, the 64 left re-measured at bc044bf (``/tmp/s32/b/classic_r3.jsonl``): 97.2% ->
  97.7% of 2,256 (newly answered: worst 1.92 s wall, 1.34 s CPU a state, 1.78 s a query);
* 2-seed command with ``--route default baseline`` at bc044bf
  (``/tmp/s32/b/two_seed.jsonl``): classic 100% (baseline 43%), koth 86% (81%),
  BoerenBridge, ZPY 100% (100%), BS-ZPY 90% (90%); the 108 states both routes answered
  agree; default route CPU median 0.005-0.012 s a state, worst 0.33 s wall / 0.21 s CPU a
  state and 0.32 s a query (baseline 3.7 s and 2.6 s); peak 123 MiB.

Left: the same ``K_a ~K_b has(c, X)``, mostly true.  A search for changes of the numbers
``b`` does not observe (a world of ``a`` where no change found so far serves, then ``b``'s
own program in it for the next change; exact where it ends) settles every such question
on small histories, but at these states it ends in 2 of 25 mid-game (under 150 steps) and
4 of 40 late ones within its rounds (0.3-19 s), so it is not in the library.

The session after (5e2ea5d, c8a4c64; runs side by side, two at a time):

* classic BS, all 20 games at every play re-measured with ``--budget 2``
  (``/tmp/s33/b/classic_full.jsonl``): 97.7% of 2,256 states, median 0.008 s, worst 1.86 s
  wall / 1.84 s CPU a state, worst query 1.27 s (5 answered states over 1 s a query, all
  ``K_a ~K_b`` or ``C`` answered false after the seats' counting and programs), 144 MiB;
* bs-koth, seeds 16-19 added at every 5th play (``/tmp/s33/b/koth20.jsonl``, the 16 games
  before kept): 71 of their 79 states answered (worst 0.70 s a state, 0.67 s a query), 79.2%
  of 711 states of 20 games;
* ``--depth 3`` (``--seeds 0 1 --every 8 --max-plays 120 --budget 5``,
  ``/tmp/s33/b/depth3.jsonl``): BoerenBridge 100% of 30 states, ZPY 91% of 22, BS-ZPY 73% of
  30, classic BS 43% of 28 and koth 43% of 21; worst 0.05 s a state except ZPY (2.4 s).
  ``K_c K_a ~K_b has(c, X)`` is answered true only while ``b`` sees the card in no world at
  all (:func:`~games.epistemic.knowledge.never_known`), false where ``K_a ~K_b`` is false; in
  BS every state from play 24-48 on is unanswered;
* the same with ignorance decided in the worlds that agree with the true one on what the
  group saw together (:meth:`CardHistory.joined`, e2f28ea, ``/tmp/s33/b/depth3_b.jsonl``,
  the 2 cores shared with two other runs): BoerenBridge and ZPY 100%, BS-ZPY 83%, classic BS
  82%, koth 57%;
* and with the readings of ``M`` (cb1c11d, ``/tmp/s33/b/depth3_e.jsonl``, alone on the
  machine): BoerenBridge and ZPY 100%, classic BS 96% of 28, BS-ZPY 83% of 30, koth 62% of
  21; median 0.008-0.040 s a state, worst 3.06 s wall / 3.17 s CPU (BS-ZPY, where the rule's
  counting of the group's view takes 1.5 s and a swap of cards 1.5-3.5 s), 0.79 s in the
  other games; worst query 2.95 s (BS-ZPY), 0.68 s elsewhere.

The session after (93a36cf: :func:`~games.epistemic.knowledge.outplayed` counts the hidden
moves of ``c`` from the last move that may bring a copy of ``X`` in a world of ``a``, not the
last card of any kind, and tries every later cut-off; a called play counts as seen by every
seat that saw it revealed; no trade at a hand's move whose cards ``b`` sees later in a pile):

* bs-koth, 20 games at every 5th play with ``--route default baseline --budget 2``, both
  routes in the same run, beside the BS-ZPY run below (``/tmp/s34/b/koth_base.jsonl``):
  80.5% of 711 states (baseline 74.7%), median 0.027 s a state (baseline 0.048 s), worst
  1.99 s wall / 1.98 s CPU a state, worst query 1.60 s (10 answered states over 1 s a
  query), peak 109 MiB; the 529 states both routes answered agree.  Against the run before
  (the same 711 states): 572 answered against 563, 13 newly, 4 lost to the budget (they
  took 1.2-1.8 s there; the machine was shared with another run) and no answer differs;
* the 140 koth states that ran out of 2 s in the run before, asked again with 6 s each
  from the cached histories, old code and new side by side: 29 answered (16 before), 14
  of them true (1 before), no answer differs; the 52 classic states left at every play:
  7 answered, all true, in 0.01-0.07 s (none before), so classic BS is at 98.0% of 2,256
  (not a full re-run);
* ``--depth 3`` on classic BS and koth (the 2-seed command with ``--games bs-classic
  bs-koth``, ``/tmp/s34/b/depth3.jsonl``): classic 96% of 28 (the same), koth 67% of 21
  (62%), no answer differs; worst 1.24 s a state;
* BS-ZPY played by the ``bluffer`` bot (``--bot bluffer --every 5 --budget 2 --route default
  baseline``; the probabilistic bot's games take hours to play out), seeds 0-15, beside the
  koth run (``/tmp/s34/b/bszpy_bluffer.jsonl``; stopped in seed 16, where choosing each
  state's query took 20 s): 70.9% of 550 states on both routes, which agree on all 390;
  median 0.015 s, worst 1.04 s wall / 0.96 s CPU a state, worst query 0.74 s, peak 307 MiB.
  The 160 left are the kind quotient's clean refusal (133) or the budget (27): in BS-ZPY a
  public fact (the claim, the follow rules) comes after every play, and the trades of
  :func:`~games.epistemic.knowledge.outplayed` stop at any fact, so the card a seat showed
  when declaring trump stays "seen" (seed 0 play 45: ``K_P4 ~K_P0 has(P1, 2D)``, where P1
  put down since one card nobody saw, is left open).

Tried and left out: the single-kind exchanges behind ``K_a ~K_b has(c, X)`` as one integer
program.  For one other kind ``Y``, whether ``b`` has a world where copies of ``X`` at ``c``
trade places with copies of ``Y`` along moves ``b`` did not see is a flow problem, so by
Hoffman's circulation theorem "no such trade" is a cut, linear in ``a``'s numbers once each
crossing is a 0/1 choice; "for every ``Y`` no trade" is then one program over ``a``'s worlds.
On small koth and BS histories it agreed with the explicit model and settled 699 of 700 true
cases.  At 52-card koth states after 119-171 steps it ran out of 60-400 s, and with the kinds
added one at a time it found a world of ``a`` where no single-kind trade works yet ``b`` does
not know (several kinds needed at once).

The session after (ff89590-5ad1131: BS-ZPY card histories cache their validity formulas,
:meth:`CardHistory.deal_state` builds on the last states it built, and this harness picks
the queries in one long-lived process with an existence test; the answers' code is that
of 93a36cf; two runs side by side, from a clone at 5ad1131 with ``PYTHONPATH`` set to it):

* bs-koth, 20 games at every play (``--games bs-koth --seeds 0 .. 19 --every 1 --budget
  2``, ``/tmp/s35/koth1.jsonl``): 80.1% of 3,504 states (2,805; 2,154 of them ``K_a ~K_b``
  true), median 0.022 s wall / 0.020 s CPU a state, worst 2.0 s wall / 2.02 s CPU, worst
  query 1.92 s (60 answered states over 1 s a query), peak 178 MiB; the 699 others over
  the budget.  The run took 50 minutes; with the queries chosen as before (each play's
  deal state replayed from the deal, a weighted count per card), the same run started at
  169d365 had reached 330 states in 35 minutes;
* bs-zpy played by its default bot (probabilistic), 20 games at every 5th play, both
  routes (``--games bs-zpy --seeds 0 .. 19 --every 5 --budget 2 --route default baseline``,
  ``/tmp/s35/bszpy.jsonl``): 71.0% of 703 states on each route, the same answers on all
  499; median 0.015 s (baseline 0.018 s), worst 1.86 s wall / 1.84 s CPU (baseline 1.95 /
  1.93 s), worst query 1.62 s (1.68 s; 6 answered states over 1 s a query), peak 270 MiB;
  the others the kind quotient's clean refusal (124) or the budget (80).  The run took 80
  minutes, most of seed 19's in the bot's own counting.  Replaying one such round for its
  card histories had taken hours before (seed 16); see ``benchmarks/card_history_speed.py``.

The session after (16d95b3-c96a048: on a long history each seat's integer program, and
the rules and witnesses that read no counting, before the history is replayed for a seat's
counting; two runs side by side, from a clone at c96a048):

* bs-koth, 20 games at every play (same command, ``/tmp/s36/koth_every1.jsonl``): 82.5% of
  3,504 states (2,891), median 0.025 s wall / 0.025 s CPU a state, worst 1.90 s wall /
  1.90 s CPU, worst query 1.88 s, 15 answered states over 1 s a query (60 before), peak
  168 MiB; the 613 others over the budget.  The same answers on all 2,804 states both
  runs answered; 87 answered now that were not, one (seed 15, play 440) over the budget
  now.  The slowest queries left are ``K_a ~K_b`` false, where no witness that reads no
  counting finds a world, the history is replayed for ``a``'s counting, and a world drawn
  from ``a``'s integer program shows it (seed 15, plays 242 and 246);
* the routes of the first measurement, at every 5th play (``--every 5 --route baseline``,
  ``/tmp/s36/koth_base5.jsonl``): 77.5% of 711 states, median 0.045 s, worst 1.99 s,
  worst query 1.41 s; the default route answers 83.0% of the same states, the same answers
  on the 550 both answered.

The session after (cfe92fd-b2a2d4b: ``K_a ~K_b has(c, X)`` decided by covering ``a``'s
worlds with changes ``b`` cannot see, :mod:`games.epistemic.cover`, once the structure is
refused or known to be too wide; runs from clones, two side by side):

* bs-koth, 20 games at every play (same command, at cfe92fd, ``/tmp/s37/koth1.jsonl``):
  83.0% of 3,504 states (2,909), median 0.024 s wall / 0.023 s CPU a state, worst 1.81 s
  wall / 1.79 s CPU, worst query 1.79 s, 18 answered states over 1 s a query, peak 166 MiB;
  the 595 others over the budget.  The same answers on all 2,891 states the run before
  answered; 18 answered now that were not, none lost;
* both routes at every 5th play (``--every 5 --route default baseline``, the same run,
  ``/tmp/s37/koth5.jsonl``): 83.3% of 711 states (baseline 77.5%), median 0.022 s
  (0.041 s), worst 1.69 s (1.93 s), worst query 1.27 s (1.27 s), peak 136 MiB (135 MiB);
  the same answers on the 551 both answered;
* bs-classic, 20 games at every play (``--games bs-classic``, at b2a2d4b,
  ``/tmp/s37/classic1b.jsonl``): 98.2% of 2,256 states (2,215), median 0.009 s, worst
  1.92 s wall / 1.90 s CPU, worst query 1.91 s (4 answered states over 1 s a query), peak
  132 MiB; at cfe92fd, where the cover came after the card-symmetry quotient's refusal
  (up to 28 s), 98.0% (2,211), worst query 0.80 s: the 4 states the earlier cover adds
  are the ones over 1 s.  The same answers on all 2,211;
* zpy5 and boerenbridge, 20 games at every play (``--games zpy5`` / ``--games
  boerenbridge``, at b2a2d4b, side by side): ZPY 99.9% of 1,675 states (the kitty atom
  left, the kind quotient's refusal), median 0.006 s, worst 1.35 s a state and a query,
  128 MiB; BoerenBridge 99.97% of 6,240 (6,238), median 0.005 s, worst 0.79 s a state and
  0.78 s a query, 100 MiB, two states over the budget: ``C_{South,West} has(West, KS)``
  at seed 3 play 202 and ``has(West, AH)`` at seed 7 play 170 take 2.2 s and 2.0 s, as
  much on the code before this session (29480e1), so not this session's rule order;
* the loop alone, on 60 koth states (seeds 0, 6, 9 and 15) over the budget in the run
  before: 2 answered within the 2 s budget; with 10 s a state, 3 of the first 17 (the
  others: the loop or the routes before it still running, two the kind quotient's
  refusal).  Where it does not finish, the worlds of ``a`` need many different changes
  (``c`` holds up to four copies of ``X``, each removed along another path).

The session after (0a76553-781e12c: the cover reads public shows, counts and facts, so
BS-ZPY's claims and voids; all groups of other kinds widened at once and the last unit
off ``c``'s place scaled to the world; a first try of 1 s of the cover inside counting on
histories of 120 steps or more, its cuts kept for the rest; runs from clones, two side by
side):

* bs-koth, 20 games at every play (at b64c6a9, ``/tmp/s38/koth1.jsonl``; the commits
  after change only histories with public observations): 84.2% of 3,504 states (2,950),
  median 0.026 s wall / 0.025 s CPU a state, worst 1.98 s wall / 1.96 s CPU, worst query
  1.93 s, 46 answered states over 1 s a query, peak 190 MiB.  The same answers on all
  2,905 states both runs answered; 45 answered now that were not, 4 lost (1.0-1.8 s
  before: the first try comes before the rules that answered them);
* both routes at every 5th play (``--every 5 --route default baseline``, the same run,
  ``/tmp/s38/koth5.jsonl``): 84.7% of 711 states (baseline 79.2%), median 0.025 s
  (0.049 s), worst 1.57 s (1.91 s), worst query 1.55 s (1.89 s), peak 162 MiB (160 MiB);
  the same answers on the 561 both answered;
* bs-classic, 20 games at every play (at b64c6a9, ``/tmp/s38/classic1.jsonl``): 98.7% of
  2,256 states (2,227), median 0.009 s, worst 1.78 s, worst query 1.54 s (14 answered
  states over 1 s a query), peak 153 MiB; the same answers on all 2,214 both runs
  answered, 13 new, one lost (1.92 s before);
* bs-zpy, 20 games at every 5th play (at 781e12c, ``/tmp/s38/bszpy5.jsonl``): 82.8% of
  703 states (582; 71.0% before), median 0.017 s, worst 1.92 s wall / 1.91 s CPU, worst
  query 1.91 s (21 answered states over 1 s a query), peak 256 MiB; the 121 others over
  the budget (none refused now, 124 before).  The same answers on all 498 states both
  runs answered; 84 new, one lost (0.72 s before: the first try comes first).  The
  baseline route was not run again (71.0% at the last run);
* zpy5 and boerenbridge, 20 games at every play (at 03c3e0d, ``/tmp/s38/zb2.jsonl``):
  the same states answered with the same answers as before (ZPY 99.9% of 1,675, worst
  1.35 s; BoerenBridge 99.97% of 6,240, worst 1.25 s a state answered under the load of
  the koth run beside it, 0.81 s in the run at 0a76553; the slow question is the ``C``
  one, which the cover does not ask).

The session after (3cfc764-2f1305f: the integer programs keep their rows written out
between solves; a scaled unit goes past public observations that read no cell it passes
through, and groups taking cards from one count widen at once where their cards came on
different moves; ``C_{x,y} has(L, C)`` from the pair's own hands; runs from clones, two
side by side, and a third process, the test suite, for 23 minutes of them):

* boerenbridge and zpy5, 20 games at every play (at 2f1305f, ``/tmp/s39/b/zb.jsonl``):
  BoerenBridge all 6,240 states, median 0.009 s, worst 0.19 s a state and 0.13 s a
  query, peak 97 MiB: the two ``C_{South,West} has(West, X)`` over the budget before and
  the one that took 1.24 s now come from the pair's own hands in 0.01-0.1 s.  ZPY 99.9%
  of 1,675 (1,673; the kitty atom refused, and seed 11 play 34, 1.35 s before, over the
  budget under the load), worst 1.63 s a state and a query.  The same answers on all
  7,911 states both runs answered;
* bs-koth, 20 games at every play (at e00ab67, ``/tmp/s39/b/koth1.jsonl``): 84.1% of
  3,504 (2,947; 2,950 at the last run), median 0.030 s, worst 1.97 s a state and 1.93 s
  a query, peak 190 MiB; the same answers on the 2,941 both answered, 6 new, 9 lost, all
  taking 1.2-2.0 s before: the wider cuts do not reach koth's late ``K_a ~K_b``;
* bs-zpy at every 5th play (at e00ab67, ``/tmp/s39/b/bszpy5.jsonl``, stopped after 677 of
  the 703 states): 83.2% of them (563), as at the last run on the same states, median
  0.019 s, worst 1.72 s a state and 1.70 s a query, peak 265 MiB; the same answers on
  the 558 both answered, 5 new, 5 lost (1.0-1.9 s before).  The loop alone answers more
  (seed 4 play 80 in 11 rounds, 2.3 s, where 59 rounds and 11.4 s), but not within the
  2 s budget: a round takes 0.2-0.5 s, half of it HiGHS;
* bs-classic, both routes in the same run (at 2f1305f, ``/tmp/s39/b/classic1.jsonl``,
  stopped after seeds 0-11, 1,675 states): 98.3% (1,647) against 33.1% for the baseline
  routes, median 0.012 s (0.019 s), worst 1.81 s (1.98 s), worst query 1.75 s (1.93
  s), peak 153 MiB (171 MiB); the same answers on the 554 both answered.

The session after (5ef5fd0-84061b3: on a long history the witnesses that walk the copies'
moves come after the covering's first try, and a first try that does not decide goes on
with the rest of its budget at once, before the counting rules; runs from a clone at
84061b3, two side by side):

* bs-koth, 20 games at every play (``/tmp/s40/b/koth1.jsonl``): 85.0% of 3,504 (2,977;
  2,947 at the last run), median 0.027 s, worst 1.97 s a state and 1.96 s a query (55
  answered states over 1 s a query, 47 before), peak 190 MiB; the same answers on the
  2,945 both answered, 32 new, 2 lost (1.6 and 1.9 s before);
* bs-koth, both routes at every 5th play (``/tmp/s40/b/koth5.jsonl``): 85.5% of 711
  (baseline 79.9%), median 0.024 s (0.045 s), worst 1.86 s (1.90 s), worst query 1.84 s
  (1.82 s), peak 158 MiB (159 MiB); the same answers on the 568 both answered;
* bs-classic, 20 games at every play (``/tmp/s40/b/classic1.jsonl``): 98.9% of 2,256
  (2,232; 2,227 at the full run before), median 0.010 s, worst 1.88 s a state and 1.85 s
  a query (12 over 1 s), peak 151 MiB; the same answers on all 2,227 both answered, 5
  new, none lost;
* bs-zpy at every 5th play (``/tmp/s40/b/bszpy5.jsonl``), all 703 states: 86.9% (611;
  582 at the last full run), median 0.017 s, worst 1.99 s a state and 1.92 s a query (41
  over 1 s a query, 21 before), peak 259 MiB; the same answers on the 582 both answered,
  29 new, none lost;
* boerenbridge and zpy5, both routes at every 5th play (``/tmp/s40/b/bbz5.jsonl``):
  BoerenBridge 100% of 1,260 on each route, median 0.005 s (0.036 s), worst 0.10 s (0.34
  s), peak 84 MiB (110 MiB); ZPY 99.1% of 351 on each (the routes of the first
  measurement reach counting too: the structure and quotients refuse ZPY at once), two
  kitty atoms and one ``C_{P2,P3} has(P3, 10H)`` left, where both members know the card
  and ``K_P3 K_P2`` of it is not decided; the same answers on all 1,608 states both
  answered;
* depth 3 (``--depth 3 --seeds 0 1 --every 8 --max-plays 120``, default budget):
  BoerenBridge and ZPY 100%, classic BS 96%, BS-ZPY 83%, koth 71% (67% before); worst
  2.9 s a state in BS-ZPY, 1.2 s in the others.

The session after (2e7ddf2: ``C_{x,y} has(L, C)`` by the places the pair watch, a kitty
buried by x too; 4fb59b4-4d0cea0: a short first try of the covering on a shorter history
where b missed 8 moves or more):

* zpy5 at every 5th play (at 2e7ddf2, ``/tmp/s41/b/zpy5.jsonl``): 100% of 351 (99.1%
  before: the three common-knowledge questions the kind quotient refused or timed out
  on), median 0.006 s, worst 0.49 s a state and a query, peak 99 MiB; the same answers
  on the 348 both answered;
* boerenbridge at every 5th play (at 2e7ddf2, ``/tmp/s41/b/bb5.jsonl``): 100% of 1,260,
  median 0.006 s, worst 0.13 s a state and 0.11 s a query;
* zpy5 at every 5th play again at 4a7eb23 (``/tmp/s41/b/zpy5_final.jsonl``, beside the
  project's tests): 100% of 351, the same answers, median 0.006 s, worst 0.65 s a state
  and a query (0.51 s CPU), peak 99 MiB;
* bs-koth at every 5th play (at 4fb59b4, the short try without the unseen moves'
  condition, which does not change koth past its first plays; ``/tmp/s41/b/koth5_cs.jsonl``,
  beside the project's tests): 85.8% of 711 (85.5% at the last run), median 0.026 s,
  worst 1.82 s a state and 1.81 s a query, peak 131 MiB; the same answers on the 608 both
  answered, 2 new, none lost;
* bs-zpy: the short try measured on the 45 states of seeds 4, 7 and 13 under 120 events
  (every 5th play): 2 of the 5 over the budget answered (seed 4 plays 35 and 40, 0.4 and
  0.5 s), none lost; the whole run was not repeated.  The baseline routes were started
  at every 5th play and stopped after 203 states (seeds 0-4; the probabilistic bot's
  games take most of the time), too few to report.

Then (b402141: the covering widens a group of other kinds whose cards go along several
counts to any kinds for any number of cards, not one card only):

* bs-koth at every 5th play (``/tmp/s41/b/koth5_path.jsonl``): 86.2% of 711 (613; 610
  at 4fb59b4, 608 at the last stop), median 0.026 s, worst 1.95 s a state and 1.93 s a
  query, peak 131 MiB; the same answers on the 610 both answered, 3 new, none lost;
* sampled, each state in a process of its own with the 2 s budget, against the last
  stop's runs: koth, seeds 0, 6, 8, 9, 15 and 16 past 120 events, 6 of 152 states over
  the budget answered (0.8-1.6 s) and all 80 answered ones still answered; BS-ZPY, seeds
  4, 7 and 13, 4 of 27 (2 of them the short try's), all 40; classic BS, seed 10, 3 of
  16 (1.3-1.9 s), all 30; the same answers everywhere;
* tried and reverted: the cuts sharing their 0/1 flags (made once a loop, at 9b45266).
  The program grew less (koth seed 16 play 98: 2,051 rows after 33 rounds where 3,130
  after 26), but koth at every 5th play answered 85.7% (609) and lost 6 states that
  b402141 answers side by side in 0.8-1.9 s (seed 8 play 105: 6 rounds and 1.5 s for
  the loop where 5 rounds and 0.7 s); reverted at 2053035;
* bs-koth at every 5th play at 2053035, the covering as at b402141, beside the
  project's tests (``/tmp/s41/b/koth5_end.jsonl``): 85.9% of 711 (611), median 0.026
  s, worst 1.82 s a state and 1.81 s a query, peak 131 MiB; the same answers on the 611
  both answered, 2 lost against b402141's run (1.4 and 1.75 s there).

The session after (the rule that reads the hands of a face-up game,
:func:`~games.epistemic.hands.hand_unknown`, asked before the swaps of
:func:`~games.epistemic.knowledge.swap_unknown`; each run from a clone, the code before
and after one after the other):

* zpy5, 20 games at every play (``--games zpy5 --seeds 0 .. 19 --every 1 --budget 2``,
  ``/tmp/s42/b/zpy1_r.jsonl`` against ``zpy1_0.jsonl``): 100% of 1,675 both, median
  0.006 s, worst 0.28 s a state and 0.27 s a query (1.35 s before: seed 11 play 34,
  ``K_P4 ~K_P0 has(P1, 10C)``, where the swaps counted the fewest copies of 41 kinds at
  two places for 1.2 s and did not settle it, and the hands rule did in 1 ms), peak 89
  MiB (125 MiB); the same answers and routes on all 1,675;
* boerenbridge, 20 games at every play (``/tmp/s42/b/bb1_r.jsonl``, ``bb1_0.jsonl``):
  100% of 6,240 both, median 0.005 s, worst 0.11 s a state and 0.07 s a query (0.12 s and
  0.09 s before), the same answers;
* both routes in the same run, 20 games at every play (``--route default baseline``, at
  bcfe3d8): ZPY (``/tmp/s42/b/zpy1_both.jsonl``) 100% of 1,675 on each, worst 0.23 s,
  the same answers (only counting takes ZPY: both routes ask the same rules);
  BoerenBridge (``bb1_both.jsonl``) 100% of 6,240 on each, median 0.005 s (baseline
  0.033 s), worst 0.16 s (0.28 s) a state and 0.14 s (0.20 s) a query, peak 109 MiB (133
  MiB), the same answers on all 6,240;
* depth 3 with the 2 s budget (``--depth 3 --seeds 0 1 --every 8 --max-plays 120 --budget
  2``, ``/tmp/s42/b/depth3.jsonl``): BoerenBridge and ZPY 100%, classic BS 96% of 28, koth
  71% of 21, BS-ZPY 77% of 30 (3 clean refusals of the kind quotient, 4 over the budget;
  83% above was with the default 30 s, where the slowest took 2.9 s); median 0.006-0.035
  s, worst 1.10 s a state and 1.07 s a query; the same states answered as with 30 s at
  the last measurement, less those over 2 s, and the same answers;
* then (the covering asked of a group's common view, :meth:`CardHistory.joined`, for
  ignorance nested in the group's operators; before the counting that replays a long
  history): depth 3 with the 2 s budget (``/tmp/s42/b/depth3_d.jsonl``, beside two other
  runs): koth 76% of 21 (71%), BS-ZPY 83% of 30 (77%), classic BS 96% of 28; the three
  new are koth seed 0 play 104 (``K_P3 K_P1 ~K_P2 has(P3, 10)``: 55 s to a refusal
  before, 1.25 s now) and BS-ZPY seed 1 plays 80 and 96 (the kind quotient's clean
  refusals before, 1.6 s and 1.3 s now), all true; no answer differs; median
  0.010-0.033 s, worst 1.62 s a state and a query, peak 275 MiB;
* bs-classic, both routes in the same run at every 5th play of the 20 games (``--route
  default baseline``, at bcfe3d8, beside two other runs, ``/tmp/s42/b/cl5_both.jsonl``):
  98.0% of 461 (9 over the budget; 5 alone on the machine, below) against 43.8%, median
  0.011 s (0.024 s), worst 1.31 s (1.98 s) a state, peak 136 MiB (154 MiB); the same
  answers on the 202 both answered;
* bs-zpy, every 5th play (``--games bs-zpy --seeds 0 .. 19 --every 5 --budget 2``, at
  bcfe3d8, ``/tmp/s42/b/bszpy5.jsonl``; beside the other runs, the project's tests and a
  CI run; stopped in seed 19, whose bot takes most of the time): seeds 0-18, 87.0% of 667
  states (580; 581 on the same states at the last full run, 7 gained and 8 lost, all 8
  taking 1.3-2.0 s there), the same answers on the 573 both answered; median 0.019 s,
  worst 1.98 s a state and 1.96 s a query, peak 215 MiB; the 87 left are all over the
  budget (no refusal);
* bs-classic, 20 games at every 5th play (``/tmp/s42/b/cl5_r.jsonl``, ``cl5_0.jsonl``):
  99% of 461 both (5 over the budget against 6), worst 1.95 s a state and 1.90 s a query
  (1.87 s, 1.85 s), the same answers on the 455 both answered: face down, the hands rule
  declines at once;
* tried on koth and left out, each on 40 states over the budget and 80 answered (seeds
  0, 6, 8, 9, 15 and 16 at every 5th play), each state in a process of its own with the
  2 s budget: (1) the nearest world of ``b`` looked for first among the changes of the
  last 150 (or 300) steps, the places before them as in ``a``'s world: a round of the
  covering 0.2 s in place of 0.45 s at 879 events, but the changes found there are
  farther and the loop needs more rounds; 1 of 40 answered with 300 steps and without,
  none with 150; (2) the covering
  also cutting off every pair of single-move parts of the changes found (the parts
  checked as worlds ``b`` cannot tell apart): fewer rounds (on 14 states given 25 s, 15
  to 25 rounds where 27 to 58), each slower, one state gained and one lost; (3) the
  first try of the covering before the rules that read ``a``'s integer program: no state
  gained; (4) HiGHS without presolve in the covering's rounds: none of 20 of those
  states answered either way; (5) a relative gap of 0.5 for ``b``'s nearest world: no
  state gained.  Of 14 states
  over the budget given 25 s alone, 5 are true (2 to 9 s), 2 false and 7 still open: the
  loop, not the rules around it, is what is left.
* tried at depth 3 and left out: the group's counting before its covering on a long
  history where that counting is kept from another question (as the seat's own rules
  decide, ``_program_first``): on koth seed 0 plays 104, 200 and 300, every card of
  ``P3`` asked in turn (``K_P3 K_P1 ~K_P2 has(P3, X)``), the same answers and no time
  gained (106.8 s against 106.4 s, 14.6 s against 12.3 s, 111 s against 121 s);
* bs-zpy, both routes in one run at every 5th play (``--route default baseline``, at
  3f88095, beside two or three other runs on the 2 cores, ``/tmp/s43/bszpy_both.jsonl``;
  seeds 0-13 complete when stopped): 81.7% of 497 against 82.5%, the same answers on the
  404 both answered, median 0.019 s (0.028 s), worst 1.97 s (1.99 s); both routes answer
  every state by counting (at 108 cards the structure and the kind quotient refuse at
  once), so the 9 states one answers and the other does not are the load's;
* ``--ask probability``, 20 games at every 5th play, 2 s a state (at bedefd9,
  ``/tmp/s43/p6.jsonl``; BoerenBridge at 32f07bb, ``prob5_both.jsonl``): BoerenBridge 100%
  of 1,260 on both routes; ZPY 100% of 351 (median 0.057 s, worst 0.38 s; 347 before
  aa82957, the 4 others refused as a formula about knowledge strictly between 0 and 1);
  classic BS 51.4% of 461, median 0.023 s, worst 0.57 s, against 47.1% for the routes of
  the first measurement in the same run (20 over the budget, worst 1.42 s); the 224 left
  are refusals, 187 where the seat's counting dropped a constraint and 37 formulas about
  knowledge strictly between 0 and 1 in a face-down game; koth at every 10th play:
  23.7% of 358, median
  0.027 s, worst 1.48 s; 234 refused where the counting dropped a constraint (from play 30
  on), 3 about knowledge, 36 over the budget; BS-ZPY, seeds 0-3 (``p7.jsonl``, beside a
  CI run): 61% of 140, median 0.54 s, worst 1.93 s; 26 refused where the counting
  dropped a constraint, 6 about knowledge, 1 count too wide (66 tables of 7.8 M cells),
  22 over the budget.  Before bedefd9 a refused probability first replayed every seat's
  counting (koth seed 0 play 200: 24 s a query, 5.7 s after);
* the session after (at 2868cb4, beside one or two other runs): BS-ZPY ``--ask
  probability``, seeds 4-13 (``/tmp/s44/bszpy_prob.jsonl``; stopped in seed 14): 40.1% of
  357, median 0.40 s, worst 1.89 s, peak 227 MiB; 159 refused where the counting dropped
  a constraint, 22 about knowledge, 33 over the budget (with seeds 0-3: 45.9% of 497);
  koth ``--ask probability --every 10 --route default baseline``, seeds 0-9, both routes
  in the same run (``koth_prob.jsonl``): 17% of 236 against 12%, the same answers on the
  29 both answered; ``--ask bounds`` (:meth:`GameKnowledge.probability_bounds`, exact
  bounds where the probability of a formula about knowledge is refused and counting is
  exact): classic BS at every 5th play of the 20 games 59.4% of 461 (274; the 37
  formulas about knowledge as intervals 0.06-0.81 wide, median 0.30; the 187 left are the
  relaxed counting's), median 0.023 s, worst 1.14 s; koth at every 10th play 25% of 358
  (3 intervals; 202 relaxed, 68 over the budget under load).  Why the counting relaxes
  (``DealKnowledge._merge_once``): the condition that some split of a merged pile exists
  is a sum over kinds, or groups of kinds, of bounds that each read one kind's cells.  At
  classic seed 0 play 78 (P0; the play of P2's 4 unseen cards joining P1's 3 in the pile)
  it is a table over 10 axes, 2.8 M cells of which 48% are possible: kept with a 5 M
  budget the state stays exact, and play 100 outgrows that too.  At koth seed 0 play 50
  (P2; P0's 3 unseen cards joining the pile, where P0 was known to hold at least 2 of two
  ranks and 1 of two others) Hall's condition is 162 choices of one bound per kind
  (``_LOCAL_PICKS`` is 64); allowed 4,096, play 30 stays exact but play 50 carries 2,141
  constraints and 150 relaxations, and play 70 takes 195 s to replay;
* random formulas (``--ask random --seeds 0 1 ... 9 --every 8 --max-plays 120 --budget
  5``: two random depth-2 formulas over the named cards at each of 625 states), the code
  at 0ba086a (out file ``/tmp/s47/random10_base.jsonl``, this harness copied into an
  export) against f55022e (``/tmp/s47/random10_final.jsonl``, with ``--route default
  baseline``), each beside the project's tests: 97.4% -> 99.4% of the states (609 ->
  621; classic BS 97% -> 100% of 104, koth 97% -> 98% of 112, BoerenBridge 100%, ZPY 95%
  -> 99% of 109, BS-ZPY 97% -> 99% of 150), worst state 1.86 -> 1.27 s (classic), 3.27
  -> 2.54 s (BS-ZPY), 1.60 -> 0.09 s (BoerenBridge), median 0.005-0.023 s, peak 360 MiB;
  the same answers on the 609 both answered.  The routes of the first measurement in the same run
  (baseline, which counts with this session's rules last): classic 74%, koth 98%,
  BoerenBridge 100% (worst 0.90 s), ZPY 99%, BS-ZPY 99%.  What answers more: counting
  reads a true announcement as a submodel (what is universal and true now stays true,
  what is existential and false stays false; the card formulas around its argument),
  ``Kw_b q`` where ``q`` is settled at the true state or known inside ``K_a``/``M_a``,
  a world of ``a`` where every copy of ``X`` lies where ``b`` sees it (``K_a M_b has(c,
  X)`` false), ``[!p] E_G q`` kept as one ``E``; a seat's counting with 12 or more joint
  constraints asks its integer program first (BS-ZPY seed 4 play 32: ``Kw_P2 has(down,
  QS#2)`` 22 s -> 0.5 s); ``possible`` takes a drawn deal as its witness before building
  a programme per cell.  Left: ``K_P0 M_P2 has(P3, 5#2)`` (koth seed 2 play 40: ignorance
  of a count of copies in every world of P0), ``M_a D_G`` of copies (koth seed 9 play 24,
  BS-ZPY seed 3 play 16: no rule for a group's pooled ignorance), ``C_G M_P0 has(P3,
  10S)`` (ZPY seed 2 play 16, where P4 holds the other 10S: ignorance in every world of
  P4), all refused by the kind quotient's limit or the budget; at 872cb15 (a seat that
  sees what a group sees between its members, ``CardHistory.pooled``: its ignorance in
  every world of ``a`` shows ``K_a ~D_G``) BS-ZPY seed 3 play 16 is answered too;
* the 2-seed command (``--seeds 0 1 --every 8 --max-plays 120 --budget 5 --route default
  baseline``, at f55022e, ``/tmp/s47/two_seed.jsonl``, beside one other run): every game
  100% of its states (131; koth 86% and BS-ZPY 90% at bc044bf), CPU median 0.006-0.014 s,
  worst 1.58 s wall / 1.07 s CPU a state and 1.52 s a query (BS-ZPY), 0.87 s elsewhere,
  peak 121 MiB; the routes of the first measurement in the same run: classic 43%, koth
  95%, BoerenBridge, ZPY and BS-ZPY 100% (they count with the same rules), worst 4.1 s a
  state; the same answers on the 114 both answered;
* BS-ZPY at every 5th play of seeds 0-4 (``--games bs-zpy --seeds 0 1 2 3 4 --every 5
  --budget 2``), 0ba086a against 67a1ed8 side by side beside the project's tests
  (``/tmp/s47/z5_base.jsonl``, ``z5_now.jsonl``): 152 and 151 of the 173 states, the same
  answers on all both answered, median 0.023 -> 0.020 s; five states at 1.2-1.8 s flip
  either way under the load, so the share does not move: what is left there is ``K_a
  ~K_b`` of cards that passed several face-down plays, as before;

The session after (the covering asked of ``K_a M_b has(c, X)`` too: ``a``'s worlds without
the card carried to worlds of ``b`` with it; each run from a clone, c4a3207 against the
change side by side):

* random formulas, koth (``--games bs-koth --ask random --seeds 0 1 ... 9 --every 8
  --max-plays 120 --budget 5``, ``/tmp/s48/rand_koth_base.jsonl`` and
  ``rand_koth_after.jsonl``): 110 -> 111 of 112 states; ``K_P0 M_P2 has(P3, 5#2)`` (seed 2
  play 40) false in 0.5 s, where the kind quotient refused after 5.4 s; the same answers
  on the 110 both answered, worst state 0.61 -> 0.63 s.  The other games (same command,
  ``rand_rest_after.jsonl``): classic BS 104 of 104, BoerenBridge 150 of 150, ZPY 108 of
  109, BS-ZPY 150 of 150 (worst 2.2 s a state): 623 of 625 (99.7%).  At 3abc7fa (a place
  emptied by a move of all its cards holds nothing in every world, so the seat that then
  played there knows the play: ``M_P3 D_{P3,P1,P2} has(play, 10#2)``, koth seed 9 play 24,
  true in 0.03 s where the kind quotient refused after 7.9 s), all five games in one run
  (``/tmp/s48/rand_all_head.jsonl``, beside two other benchmark runs): 624 of 625
  (99.8%), koth 112 of 112, median 0.010-0.037 s, worst 2.5 s CPU a state (BS-ZPY; 4.1 s
  wall under the load).  Left there: ``C_{P4,P0,P3} M_P0 has(P3, 10S)`` (ZPY seed 2
  play 16): the group's common view has a world where P0 knows P3 has no 10S (the
  covering finds it), so its answer needs a path of worlds through the three seats.  At
  3d4f72d (``witness_path_ruled_out``: one or two steps of the members' worlds, each
  checked, to a world where P0 holds both 10S) it is false in 0.56 s, and the same
  command answers all 625 states (``/tmp/s48/rand_all_path.jsonl``; median 0.006-0.026
  s, worst 2.3 s a state, BS-ZPY), the same answers on the 624 both runs answered;
* bs-classic, 20 games at every play at 3abc7fa (``--games bs-classic --seeds 0 .. 19
  --every 1 --budget 2``, ``/tmp/s48/classic1_head.jsonl``, beside another benchmark run
  and the session's work): 98.4% of 2,256 (2,220; 98.9% at the last such run, session
  40), median 0.015 s (0.009 s CPU), worst 2.0 s a state and a query, 7 states with a
  query over 1 s, peak 141 MiB.  Of the 36 over the budget, asked again one by one with
  4 s a formula beside one other run, 20 answer in 0.8-2.3 s and 16 stay over 4 s: the
  difference from the last run is load on borderline states (this session's rules do not
  reach ``K_a ~K_b has(c, X)`` or ``C_{a,b} has(c, X)`` of a seat's card);
* depth 3, 2 seeds (``--depth 3 --seeds 0 1 --every 8 --max-plays 120 --budget 2``):
  koth 71% -> 86% (15 -> 18 of 21; 81% in a run at 3abc7fa beside two other benchmark
  runs, one state over the budget by 0.01 s), BS-ZPY 80% -> 83% (24 -> 25 of 30),
  classic BS 96% both, BoerenBridge and ZPY 100%; the same answers wherever both
  answered.  What answers them: truth one seat further in (``M_c K_a K_b p`` false and
  ``K_c ~K_a K_b p`` true where the covering shows ``K_c ~K_b p``; counting: not knowing
  ``q``, c does not know ``K_a q``, koth seed 0 play 112).  Left: ``K_c K_a ~K_b`` where
  the depth-2 ``K_c ~K_b`` is itself left (BS-ZPY seed 1 play 88: the kind quotient's
  refusal after 20 s), and ``M_c K_a K_b`` that needs a world of c and one of a in it
  (koth seed 1 play 40);
* bs-koth, 20 games at every 5th play at c4a3207 (``--games bs-koth --seeds 0 .. 19
  --every 5 --budget 2``, ``/tmp/s48/koth5_base.jsonl``): 86.2% of 711 (613; 85.9-86.2%
  before), every one of the 98 left over the budget, all ``K_a ~K_b has(c, X)`` in the
  five long games (seeds 0, 6, 9, 15, 16; 73 to 1,000+ events).  Given 20 s, 11 of the
  first 12 stay undecided (timeouts, or the kind quotient's refusal after 7-19 s).  Where
  the covering does end, the time goes to HiGHS proving that no world of ``a`` is left:
  on seed 15 play 45 (``K_P1 ~K_P2 has(P3, 10)``, true, 73 events) 6 rounds and 3.6 s,
  of which the last integer program (690 rows, 479 integer variables) takes 3.1 s and
  2,592 branch-and-bound nodes, while the 12 before it take 0.01-0.2 s each; its LP
  relaxation is feasible, and neither a zero objective, presolve, symmetry detection,
  heuristic effort nor tighter big-M bounds from the places' sizes shortens the proof.
  The next step there is a stronger formulation of the cuts (or fewer, wider ones), not
  more time;
* bs-zpy, 20 games at every 5th play at c4a3207 (``--games bs-zpy --seeds 0 .. 19 --every
  5 --budget 2``, ``/tmp/s48/bszpy5_base.jsonl``, stopped twice and resumed, beside the
  session's other runs): 87.1% of 703 (612; 86.9% at the last full run), median 0.019 s,
  worst 1.97 s a state and 1.91 s a query (46 answered states with a query over 1 s), peak
  248 MiB; every one of the 91 left over the budget, ``K_a ~K_b has(c, X)`` as in koth
  (seed 0 play 125, ``K_P0 ~K_P1 has(P2, 10C)``: the covering ends true in 24 rounds and
  5.3 s; seed 1 play 140 does not end in 74 rounds and 60 s).

The session after (CP-SAT in the covering's rounds once HiGHS does not answer one within
0.3 s, :data:`games.epistemic.cover.HIGHS_ROUND`; ``GameKnowledge(cover_seconds=...)``;
each run from a clone):

* bs-koth, 20 games at every 5th play, ``--route default baseline`` at 6fdfd22 (before
  CP-SAT): 85.1% against 79.5% of 711, the same answers on the 564 both answered; the
  default route at 0b39254 (CP-SAT): 85.7% (609; 6 gained at 1.4-1.9 s, 2 lost just over
  the budget, the same answers wherever both answered), median 0.026 s, worst 1.93 s a
  state and 1.87 s a query, peak 159 MiB (131 before: the OR-Tools import).  The 102
  left, asked again with ``--cover-seconds 10 --budget 12``: 27 answered (median 5.0 s),
  75 not: late in the 800-play game of seed 0 a round takes 0.4-0.9 s and 30 or more
  rounds are needed, each covering one combination of the trades that take copies off
  ``c``;
* ``benchmarks/cover_solvers.py`` (HiGHS alone against the switch, one process): koth
  seed 6 play 50 30.4 s -> 3.8 s (34 and 33 rounds, true both ways), seed 0 play 100
  2.2x, seed 15 play 45 2.0x, seed 0 play 165 1.4x; BS-ZPY and koth seed 0 play 59, where
  HiGHS answers every round in time, the same rounds;
* random depth-2 formulas (10 seeds, every 8th play to 120, ``--budget 5``): 625 of 625,
  worst 1.77 s a state; depth 3 (2 seeds, ``--budget 2``): classic BS 96%, koth 81%,
  BS-ZPY 83%, BoerenBridge and ZPY 100%, as before; BS-ZPY seeds 0 and 1 at every 5th
  play, fca9f8f against cfe46ea: 59 of 72 states each, the same answers.

The session after (bc6a6a0, run from a clone; settings of the covering tried on the koth
states left, each state in a forked process as this harness runs it (:func:`_measure`,
2 s), every setting of a state in one run, and the covering alone
(:func:`~games.epistemic.cover.covered_ignorance`, 30 s) the same way; one kept, as a
race):

* bs-koth, 20 games at every 5th play (``--games bs-koth --seeds 0 .. 19 --every 5
  --budget 2``, ``/tmp/s50/koth_base.jsonl``, beside the experiments below): 86.4% of 711
  (614), median 0.025 s, worst 1.86 s a state and 1.85 s a query (14 states with a query
  over 1 s), peak 160 MiB; the 97 left are all over the budget, in seeds 0, 4, 5, 6, 8,
  9, 15 and 16; probabilities at every 10th play (``--every 10 --ask probability``): 85
  of 358 (23.7%, as before), 255 refused where the seat's counting dropped a constraint,
  18 over the budget (17 of them after play 600 of seed 0); depth 3 (``--depth 3 --seeds
  0 1 --every 8 --max-plays 120 --budget 2``): classic BS 96%, koth 86%, BS-ZPY 83%, as
  before, every state left over the budget;
* the changes the covering finds are sums of one-card trades (a face-down play of ``c``
  carrying a copy of ``X`` in place of a card of another kind, a pick-up carrying one
  fewer), one round for each combination: seed 0 play 100 (``K_P0 ~K_P1 has(P2, 10)``,
  true, 165 events) takes 33 rounds over the plays 94, 135, 136, 138 and 146 and the
  kinds they could carry, 6.2 s (HiGHS 3.2 s, CP-SAT 1.3 s, seat ``b``'s nearest worlds
  1.6 s); seed 0 play 165 needs 6 rounds, but CP-SAT takes 1.9-4.3 s to show the last
  program (1,678 variables, 2,163 rows) has no world, and every other setting of its
  search tried (LP levels 0 and 1, 2 workers, probing, presolve, symmetry, cuts, branching)
  takes as long or fails within 30 s;
* the cards of two trades meeting at one count (a hand that picks up both and plays
  since) given any kinds at once, split between them by the bits of the kinds' numbers
  (8 exclusions in place of 2): seed 0 play 100 33 -> 28 rounds (6.0 -> 4.3 s), seed 6
  play 50 30 -> 28, but seed 0 play 165 6 -> 10 rounds (5.2 -> 7.0 s), play 200 8 -> 9
  (1.5 -> 2.0 s), play 270 19 -> 21 rounds, and plays 285 and 310 undecided in 30 s both
  ways;
* kept as a second way that races the first (2bbed98, :data:`~games.epistemic.cover.PEER_SECONDS`,
  coverings of 1 s or more on two cores): the covering alone on the 6 states below, both
  settings in one process, seed 0 play 100 6.2 -> 2.5 s, play 270 6.6 -> 4.5 s, seed 15
  play 45 1.6 -> 0.6 s, the others within 0.1 s; whole states (:func:`_measure`) at 2 s,
  22 koth states: 10 answered both ways (seed 9 play 130 gained, seed 15 play 215 lost
  at the edge); at 10 s (``cover_seconds``) 16 late states: the same 8 answered, seed 0
  play 270 7.3 -> 6.0 s, play 100 6.3 s both (its first try of 1 s and the cuts it
  hands on send the trades way elsewhere).  The record of the trades way alone:
* a library of one-copy trades (``b``'s nearest world with one copy fewer at ``c``, then
  one fewer again from it, and so on), every new trade cut off alone and summed with each
  trade found before (a sum of changes ``b`` cannot see is one it cannot see): on 6 states
  (seed 0 plays 100, 165, 200, 270, seed 6 play 50, seed 15 play 45; the covering alone,
  30 s) seed 0 play 100 6.2 -> 2.5 s (35 -> 11 programs of ``a``), seed 15 play 45 1.7 ->
  0.5 s, play 270 6.6 -> 4.4 s, but seed 6 play 50 undecided in 30 s (763 cuts), play 165
  5.3 -> 10.2 s and play 200 1.6 -> 10.9 s; with the sums capped at 20 or 60 cuts, the
  trades' chain alone, or the sums without other kinds given to their cards, each state
  lost elsewhere (play 200 1.8 times as slow or worse in every variant: the chain's change
  is narrower than that to the one nearest world removing every copy); the trades only
  after 0.5 s or 1 s of the plain covering (its cuts kept): seed 6 play 50 5.3-5.5 s,
  the others as slow as the plain covering or slower (seed 0 play 165 undecided in 30 s
  after 0.5 s);
* a seat's counting that dropped a constraint replayed with a table budget of 200,000
  in place of 20,000 (``DealKnowledge.max_table``) for ``--ask probability``: of 22 koth
  states that dropped 2 to 27 constraints, 3 become exact (0.1 s each), none more with
  1,000,000; classic BS (4 seeds, every 10th play) 1 of 28;
* seat ``b``'s nearest world by CP-SAT in place of HiGHS: 1.3-2.8 times slower on 5
  states (other nearest worlds, narrower cuts: seed 6 play 50 3.4 -> 8.4 s);
* :data:`~games.epistemic.cover.HIGHS_ROUND` 0.1 and 0.15 in place of 0.3: 6 and 7
  states of 22 answered, against 9; ``COVER_FIRST`` 2.0 and ``COVER_SHORT`` 1.0 or 1.5
  (more of the budget to the covering before the rules that replay the history): the same
  states answered (22 of 34, 5 of 15), within 0.05 s.  On seed 15 play 45 the rules
  between the covering's two tries take 0.9 s and fail, but the covering alone takes
  1.4-2.1 s from run to run, so no order of the two fits 2 s.

The session after (60a3892: a state over budget is killed with the peers its covering
forked, which ran on into the next state's time before; the peers' peak memory
recorded; each game both routes in one run, ``--every 5 --budget 2 --route default
baseline``, 20 games):

* bs-koth: 86.4% of 711 (614) against 80.7% (574) for the routes of the first
  measurement, the same answers on the 572 both answered; median 0.028 s against 0.056 s,
  worst 1.89 s a state and 1.82 s a query (15 states with a query over 1 s) against 1.93 s
  and 1.92 s; peak 159 MiB a state, 148 MiB the largest racing peer; the 97 left all over
  the budget, in seeds 0, 4, 5, 6, 8, 9, 15 and 16;
* bs-zpy: 87.1% of 703 (612) against 86.8% (610; the structure is refused at once, so
  counting and the covering answer on both routes), the same answers on the 609 both
  answered (3 states answered on the default route only, 1 on the baseline only, all at
  the edge of the budget); median 0.017 s against 0.026 s, worst 1.99 s a state and 1.98 s
  a query (43 states with a query over 1 s), peak 292 MiB a state, 233 MiB the largest
  racing peer; the 91 left all over the budget, in 18 of the 20 games (87.1% at c4a3207);
  most of the run's 65 minutes are the choice of the queries (the replayed counting of
  every seat, up to 13 s a state late in seed 19), not timed;
* boerenbridge (1,260 states) and zpy5 (351), one run beside the BS-ZPY run below (two
  runs on the 2 cores): every state on both routes, the same answers; BoerenBridge median
  0.005 s against 0.036 s, worst 0.16 s a state and a query, 113 MiB; ZPY median 0.007 s
  both, worst 0.35 s against 0.27 s (counting answers on both routes), 125 MiB;
* bs-classic, also beside the BS-ZPY run: 97.6% of 461 (450) against 44.3% (204), the
  same answers on the 204 both answered; median 0.009 s against 0.015 s, worst 1.72 s a
  state and a query (4 states with a query over 1 s), peak 155 MiB, 163 MiB the largest
  racing peer; 11 over the budget in seeds 0, 2, 10 and 11 (98.0% at the last run, alone
  on the machine);
* CP-SAT started from the last round's world (its values as hints) in the covering's
  rounds, the covering alone on the 6 late koth states of the last session (10 s): no
  state faster, seed 0 play 100 undecided (9.3 s before), seed 6 play 50 4.5 -> 5.9 s;
  not kept.  On seed 0 play 165 the covering ends in 6 rounds of ``a`` (0.08-0.5 s each)
  and then spends 5.0 s (CP-SAT; HiGHS 8.8 s) showing that the last program has no world.

Run::

    python benchmarks/whole_game_knowledge.py [--games bs-classic ...] [--seeds 0 1]
        [--bot random] [--route structure-first] [--every 5] [--budget 30]
        [--out whole_game_knowledge.jsonl] [--max-plays N] [--depth 3]
        [--ask probability | bounds | random]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import table  # noqa: E402
from games.errors import InvalidParameterError  # noqa: E402
from kripke.errors import SizeLimitError  # noqa: E402

__all__ = [
    "GAMES",
    "agreement",
    "main",
    "pick_query",
    "plays",
    "random_query",
    "run_state",
    "warm_up",
]

#: The games: name -> (registered game, parameters).
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "bs-classic": ("bs", {"variant": "classic", "players": 4}),
    "bs-koth": ("bs", {"variant": "koth", "players": 4}),
    "boerenbridge": ("boerenbridge", {}),
    "zpy5": ("shengji", {"variant": "zpy", "players": 5, "rounds": 1}),
    "bs-zpy": ("bs-zpy", {"rounds": 1}),
}


def plays(game: str, seed: int, bot: str | None = None) -> Iterator[tuple[int, Any]]:
    """The plays of one seeded game: ``(index, card history)`` after every decision
    that changed the card history (index from 0).

    Every seat is played by the bot ``bot`` (default :data:`BOTS`), seat ``i`` seeded ``1000 * seed + i``; chance is
    drawn from ``seed`` as :func:`games.base.play_game` draws it."""
    from games.base import load_game, make_bot, play_game
    from games.errors import GameError

    name, params = GAMES[game]
    g = load_game(name, **params)
    n = g.num_players()
    bots = [make_bot(name, bot or BOTS[game], seed=1000 * seed + i) for i in range(n)]
    actions = play_game(g, bots, seed=seed).history
    s: Any = g.new_initial_state()
    last: Any = None
    k = 0
    for action in actions:
        chance = s.is_chance_node()
        s.apply_action(action)
        if chance:
            continue
        try:
            h = s.card_history()
        except GameError:  # no dealt cards to describe (between rounds)
            continue
        key = (len(h.events), tuple(sorted((loc, tuple(v)) for loc, v in h.initial.items())))
        if key != last:
            last = key
            yield k, h
            k += 1


#: The bot playing every seat of a game unless ``--bot`` says otherwise.
BOTS: dict[str, str] = {
    "bs-classic": "probabilistic",
    "bs-koth": "probabilistic",
    "boerenbridge": "greedy",
    "zpy5": "heuristic",
    "bs-zpy": "probabilistic",
}


def pick_query(h: Any, index: int, depth: int = 2, ask: str = "holds") -> dict[str, Any]:
    """Seats ``a``, ``b``, ``c``, card ``X`` and the two formulas for play ``index``:
    those of modal depth 2 of the module's text, or with ``depth=3``
    ``K_c K_a ~K_b has(c, X)`` and ``M_c K_a K_b has(c, X)``, or with
    ``ask="probability"`` ``a``'s probabilities of ``has(c, X)`` and ``K_b has(c, X)``
    (``ask="bounds"``: their bounds).

    When no seat but ``a`` holds a card (the end of a BoerenBridge round),
    ``c`` is the first other location holding one.

    Raises
    ------
    InvalidParameterError
        When every card is at ``a``'s locations.
    """
    agents = h.agents
    n = len(agents)
    a = agents[index % n]
    b = agents[(index + 1) % n]
    content = h.content()
    ds: Any = None
    try:
        ds = h.deal_state()
    except Exception:  # noqa: BLE001 - a history the counting does not take: no uncertainty test
        ds = None
    fallback: tuple[str, str, str] | None = None
    for j in range(2, n + 1):
        c = agents[(index + j) % n]
        if c == a:
            continue
        for loc in h.owns[c]:
            for x in sorted(set(content.get(loc, ()))):
                if fallback is None:
                    fallback = (c, loc, x)
                if ds is not None:
                    try:  # X lies there: a's probability is above 0, below 1 unless a knows it
                        known = ds.knows(a, f"has({loc}, {x})")
                    except SizeLimitError:  # too wide to count: no uncertainty test
                        ds = None
                        continue
                    if not known:
                        return _query(a, b, c, loc, x, True, depth, ask=ask)
    if fallback is None:  # the seats other than a hold nothing: a card elsewhere
        mine = set(h.owns[a])
        for loc in h.locations:
            if loc not in mine and content.get(loc):
                x = sorted(content[loc])[0]
                return _query(a, b, loc, loc, x, None, depth, agents[(index + 2) % n], ask)
        raise InvalidParameterError(f"no card outside {a}'s locations to ask about")
    c, loc, x = fallback
    return _query(a, b, c, loc, x, None if ds is None else False, depth, ask=ask)


def _query(
    a: str,
    b: str,
    c: str,
    loc: str,
    x: str,
    uncertain: bool | None,
    depth: int = 2,
    seat: str | None = None,
    ask: str = "holds",
) -> dict[str, Any]:
    """The query's record; ``seat``: the third seat of depth 3 when ``c`` is not a seat;
    ``ask="probability"``: ``a``'s probabilities of ``has(c, X)`` and ``K_b has(c, X)``
    (``Pr_a f``, see :func:`run_state`)."""
    p = f"has({loc}, {x})"
    if ask in ("probability", "bounds"):
        op = "Pr" if ask == "probability" else "Bounds"
        formulas = [f"{op}_{a} {p}", f"{op}_{a} K_{b} {p}"]
    elif depth == 3:
        e = seat or c
        formulas = [f"K_{e} K_{a} ~K_{b} {p}", f"M_{e} K_{a} K_{b} {p}"]
    else:
        formulas = [f"K_{a} ~K_{b} {p}", f"C_{{{a},{b}}} {p}"]
    return {"a": a, "b": b, "c": c, "card": x, "uncertain": uncertain, "formulas": formulas}


def random_query(h: Any, seed: str, depth: int = 2, n: int = 2) -> dict[str, Any]:
    """``n`` random formulas of modal depth at most ``depth`` over the named cards and
    the seats of ``h`` (K, M, Kw, E, C, D, announcements), as the random playouts of
    the tests draw them (:func:`tests.test_epistemic.random_formula`); the same
    ``seed`` (text: game, seed and play) gives the same formulas."""
    import random

    from tests.test_epistemic import random_formula

    rng = random.Random(seed)
    return {"formulas": [str(random_formula(rng, h, depth)) for _ in range(n)]}


def run_state(
    h: Any, formulas: list[str], route: str = "default", cover_seconds: float | None = None
) -> dict[str, Any]:
    """Build ``h``'s knowledge and answer ``formulas``: answers, routes, seconds.
    A formula ``Pr_a f`` asks seat ``a``'s exact probability of ``f``
    (:meth:`GameKnowledge.probability`), its answer the fraction as text; ``Bounds_a f``
    its :meth:`GameKnowledge.probability_bounds`, the answer ``low..high``.

    ``route="structure-first"`` never asks the card-symmetry quotient before the
    knowledge structure (the routes before ``quotient_width``); ``route="baseline"``
    also asks exact counting last, after the structure and the quotients refused
    (``counting_first=False``): the routes as they were when whole-game knowledge
    was first measured."""
    from games.epistemic import GameKnowledge
    from kripke.errors import SizeLimitError

    out: dict[str, Any] = {"answers": [], "routes": [], "query_s": []}
    c0 = time.process_time()
    t0 = time.perf_counter()
    gk = GameKnowledge(
        h,
        quotient_width=None if route == "default" else 2**62,
        counting_first=route != "baseline",
        cover_seconds=cover_seconds,
    )
    try:
        for f in formulas:
            t1 = time.perf_counter()
            if f.startswith("Pr_"):  # "Pr_a f": a's probability of f, exact, as text
                seat, g = f[3:].split(" ", 1)
                out["answers"].append(str(gk.probability(seat, g)))
            elif f.startswith("Bounds_"):  # "Bounds_a f": a's probability_bounds of f
                seat, g = f[7:].split(" ", 1)
                low, high = gk.probability_bounds(seat, g)
                out["answers"].append(f"{low}..{high}")
            else:
                out["answers"].append(gk.holds(f))
            out["query_s"].append(time.perf_counter() - t1)
            out["routes"].append(gk.route)
        out["status"] = "ok"
    except SizeLimitError as exc:
        out["status"] = "size-limit"
        out["error"] = str(exc)[:300]
        out["refused_by"] = gk.refused_by or "structure"
    out["state_s"] = time.perf_counter() - t0
    out["state_cpu_s"] = time.process_time() - c0
    return out


def warm_up() -> None:
    """Import the engines every route may use (the BDD package, the quotients) once,
    in the process the states are forked from: a state's time is its own work,
    not the first import of ``dd`` (about 0.15 s), as in a session that has
    answered one formula before."""
    import scipy.optimize  # noqa: F401  (the seats' integer programs; about 0.5 s)

    from games.epistemic.program import _cp_sat

    _cp_sat()  # CP-SAT, the covering's later rounds (about 0.4 s)

    import games.epistemic.kinds  # noqa: F401
    import games.epistemic.quotient  # noqa: F401
    import games.epistemic.symbolic  # noqa: F401
    import kripke.symbolic  # noqa: F401


def _child(h: Any, formulas: list[str], route: str, q: Any, cover: float | None = None) -> None:
    from games.epistemic.history import clear_deal_states

    os.setpgrp()  # a group of its own: a state over budget is killed with the covering's peers
    clear_deal_states()  # a state's counting starts from its deal, not from a kept state
    try:
        r = run_state(h, formulas, route, cover)
    except Exception as exc:  # noqa: BLE001 - recorded as the state's result
        r = {"status": f"error: {type(exc).__name__}", "error": str(exc)[:300]}
    r["maxrss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # the largest of the covering's forked peers (games.epistemic.cover.PEER_SECONDS), if any
    r["peers_maxrss_mib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    q.put(r)


def _pick_one(h: Any, index: int, depth: int, ask: str = "holds") -> dict[str, Any]:
    """:func:`pick_query`, run in one pool process for the whole run: its counting (the
    uncertainty test) does not grow the process the states are forked from, so a
    state's peak memory is its own work over the parent's, and it builds each play's
    deal state on the last one's (:meth:`CardHistory.deal_state` keeps them), so
    choosing a query late in a long game does not replay the whole game."""
    try:
        return pick_query(h, index, depth, ask)
    except InvalidParameterError as exc:
        return {"formulas": [], "error": str(exc)}


def _measure(
    h: Any,
    formulas: list[str],
    budget: float,
    route: str = "default",
    cover_seconds: float | None = None,
) -> dict[str, Any]:
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(h, formulas, route, q, cover_seconds))
    t0 = time.perf_counter()
    p.start()
    try:
        r: dict[str, Any] = q.get(timeout=budget)
    except Exception:  # noqa: BLE001 - queue.Empty: over budget
        r = {"status": "timeout", "state_s": time.perf_counter() - t0}
    if p.is_alive():
        try:  # the state and the covering's peers it forked (its process group)
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            p.terminate()
    p.join()
    return r


def _hidden(h: Any) -> int:
    from games.epistemic.history import Move

    return sum(1 for e in h.events if isinstance(e, Move) and e.seen_by is not None)


def summarize(records: list[dict[str, Any]], budget: float) -> str:
    """The per-game table of ``records``."""
    rows = []
    routes_run = sorted({r.get("route", "default") for r in records})
    for game, route in ((g, x) for g in GAMES for x in routes_run):
        rs = [
            r
            for r in records
            if r["game"] == game
            and r.get("route", "default") == route
            and r["status"] != "no-query"
        ]
        if not rs:
            continue
        ok = [r for r in rs if r["status"] == "ok"]
        times = [r["state_s"] for r in ok if r["state_s"] <= budget]
        cpu = [r["state_cpu_s"] for r in ok if r["state_s"] <= budget and "state_cpu_s" in r]
        answered = len(times)
        queries = [t for r in ok for t in r["query_s"]]
        routes = Counter(x for r in ok for x in r["routes"])
        fails = Counter(r["status"] for r in rs if r["status"] != "ok")
        first = min((r["play"] for r in rs if r["status"] != "ok"), default=None)
        rows.append(
            [
                game if len(routes_run) == 1 else f"{game} ({route})",
                len({r["seed"] for r in rs}),
                len(rs),
                f"{100 * answered / len(rs):.0f}%",
                f"{statistics.median(times):.3f}" if times else "-",
                f"{max(times):.3f}" if times else "-",
                f"{statistics.median(cpu):.3f}" if cpu else "-",
                f"{max(cpu):.3f}" if cpu else "-",
                f"{max(queries):.3f}" if queries else "-",
                f"{max((r.get('maxrss_mib', 0) for r in rs), default=0):.0f}",
                f"{max((r.get('peers_maxrss_mib', 0) for r in rs), default=0):.0f}",
                " ".join(f"{k}:{v}" for k, v in sorted(routes.items())) or "-",
                " ".join(f"{k}:{v}" for k, v in sorted(fails.items())) or "-",
                "-" if first is None else first,
            ]
        )
    headers = ["game", "seeds", "states", "answered", "median s", "worst s"]
    headers += ["median CPU s", "worst CPU s", "worst query s"]
    headers += ["peak MiB", "peers' peak MiB", "routes", "not answered", "first unanswered play"]
    return table(headers, rows)


def agreement(records: list[dict[str, Any]]) -> str:
    """How many states every route answered, and where their answers differ."""
    by_state: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in records:
        if r["status"] == "ok":
            by_state.setdefault((r["game"], r["seed"], r["play"]), {})[r["route"]] = r["answers"]
    routes = {r["route"] for r in records}
    common = {k: v for k, v in by_state.items() if len(v) == len(routes)}
    differ = sorted(k for k, v in common.items() if len({json.dumps(a) for a in v.values()}) > 1)
    line = f"states every route answered: {len(common)}, answers differ at {len(differ)}"
    return line + (
        ": " + ", ".join(f"{g} seed {s} play {p}" for g, s, p in differ) if differ else ""
    )


def main(argv: list[str] | None = None) -> int:
    from tqdm import tqdm

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1])
    ap.add_argument(
        "--bot", default=None, help="the bot of every seat of every game (default: BOTS)"
    )
    ap.add_argument(
        "--route",
        nargs="+",
        choices=["default", "structure-first", "baseline"],
        default=["default"],
        help="structure-first: the structure before the quotient at any width (the old routes); "
        "both: every state is measured on each, with the same query",
    )
    ap.add_argument("--every", type=int, default=5, help="measure every N-th play")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per state")
    ap.add_argument("--max-plays", type=int, default=None, help="stop a game after N plays")
    ap.add_argument(
        "--depth",
        type=int,
        choices=[2, 3],
        default=2,
        help="3: ask K_c K_a ~K_b has(c, X) and M_c K_a K_b has(c, X) instead",
    )
    ap.add_argument(
        "--ask",
        choices=["holds", "probability", "bounds", "random"],
        default="holds",
        help="probability: ask a's exact probabilities of has(c, X) and K_b has(c, X) "
        "instead; bounds: their probability_bounds; random: two random formulas of "
        "modal depth --depth over the named cards (random_formula, seeded by game, "
        "seed and play)",
    )
    ap.add_argument(
        "--cover-seconds",
        type=float,
        default=None,
        help="the covering's budget for one question (GameKnowledge's cover_seconds; "
        "default 2 s); give a --budget above it",
    )
    ap.add_argument("--out", type=Path, default=Path("whole_game_knowledge.jsonl"))
    ap.add_argument(
        "--cold",
        action="store_true",
        help="do not import the engines before forking: every state pays the first import",
    )
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error(f"--every must be at least 1, got {args.every}")
    if args.budget <= 0:
        ap.error(f"--budget must be positive, got {args.budget}")
    if args.cover_seconds is not None and not 0 < args.cover_seconds < float("inf"):
        ap.error(f"--cover-seconds must be positive, got {args.cover_seconds}")
    done: dict[tuple[Any, ...], dict[str, Any]] = {}
    if args.out.exists():
        for n, line in enumerate(args.out.read_text().splitlines(), 1):
            try:
                r = json.loads(line)
                key = (r["game"], r["bot"], r["route"], r["seed"], r["play"], r["every"])
                opts = (r["budget"], r.get("depth", 2), r.get("ask", "holds"))
                done[(*key, *opts, r.get("cover_seconds"))] = r
            except (ValueError, KeyError, TypeError):
                print(f"{args.out}:{n}: not a result line, ignored", file=sys.stderr)
    records: list[dict[str, Any]] = []
    if not args.cold:
        warm_up()
    with args.out.open("a") as out, mp.get_context("fork").Pool(1) as picker:
        for game in args.games:
            for seed in args.seeds:
                bot = args.bot or BOTS[game]
                bar = tqdm(desc=f"{game} ({bot}) seed {seed}", unit="state")
                for k, h in plays(game, seed, bot):
                    if args.max_plays is not None and k >= args.max_plays:
                        break
                    if k % args.every:
                        continue
                    query: dict[str, Any] | None = None
                    for route in args.route:
                        state = (game, bot, route, seed, k, args.every)
                        options = (args.budget, args.depth, args.ask, args.cover_seconds)
                        if (*state, *options) in done:
                            records.append(done[(*state, *options)])
                            continue
                        if query is None and args.ask == "random":
                            query = random_query(h, f"{game}:{seed}:{k}", args.depth)
                        if query is None:
                            query = picker.apply(
                                _pick_one, (h, k // args.every, args.depth, args.ask)
                            )
                        rec = {"game": game, "bot": bot, "route": route, "seed": seed, "play": k}
                        rec["every"], rec["depth"], rec["ask"] = args.every, args.depth, args.ask
                        rec |= {"budget": args.budget, "events": len(h.events)}
                        if args.cover_seconds is not None:
                            rec["cover_seconds"] = args.cover_seconds
                        rec |= {"hidden_moves": _hidden(h), **query}
                        if query["formulas"]:
                            rec |= _measure(
                                h, query["formulas"], args.budget, route, args.cover_seconds
                            )
                        else:
                            rec |= {"status": "no-query", "state_s": 0.0}
                        out.write(json.dumps(rec) + "\n")
                        out.flush()
                        records.append(rec)
                        bar.set_postfix(
                            play=k, status=rec["status"], s=f"{rec.get('state_s', 0.0):.2f}"
                        )
                    bar.update()
                bar.close()
    print()
    print(summarize(records, args.budget))
    if len({r["route"] for r in records}) > 1:
        print(agreement(records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
