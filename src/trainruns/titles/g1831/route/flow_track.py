"""Which track the runs of the 1831 flow model (flow.py) take between two stops, chosen
once for all of them.

5.6.2: no track twice. A train's path, or a commuter run's leg, says only which stops it
goes between: one literal per pair of nodes it may go between. The track is a literal
per chain (a stretch of track between two stops passing none; a chain and the same
track walked the other way are one), shared by all runs: as many chains are taken
between two stops as runs go between them, and no two chains taken share a track bit.
Any chain between two stops serves any run between them, either way, so the choice is
exact: a run's way between two stops can always be given one of the chains taken. Where
few chains join two stops (``PER_RUN``), each run chooses its own way among them.

(A literal per run and chain instead made a dense board's model two to three times
the size: nocommute-50hex-s6 has 804 chains between 242 pairs of stops, up to 26
between one pair, and its first part had 3,965 variables against 1,515, a track bit's
row up to 1,976 literals; benchmarks/README.md, "the track chosen once for all runs".)
"""

from __future__ import annotations

# Where this many chains or fewer join two stops, each run going between them has a
# literal per chain (its way) instead of the choice shared by all runs: the same linear
# relaxation, but CP-SAT branches on a run's own way. The family at ``--time-limit 10``,
# interleaved board by board in two rounds (benchmarks/README.md, "the track chosen once
# for all runs, and per run where few chains"): 29 and 29 proven against 28 and 27 with
# the choice shared wherever two or more chains join two stops; 28 with three, one round
PER_RUN = 2


class Track:
    """The chains between the stops of ``chains`` (flow.py's, each with its reverse),
    and the literals of the runs going between stops, joined to a choice of chains by
    :meth:`close`."""

    def __init__(self, arrays, chains):
        comp = arrays.compiled
        self.arrays = arrays
        self.between = {}    # (stop, stop), lower first -> undirected chains joining them
        self.directed = {}   # (undirected chain, stop it leaves) -> the chain that way
        self.bits = {}       # undirected chain -> its track bits (the same either way)
        for c in chains:
            a, b, u = int(comp.chain_from[c]), int(comp.chain_to[c]), int(arrays.chain_und[c])
            self.directed[(u, a)] = c
            self.bits[u] = arrays.chain_bits[c]
            pair = (min(a, b), max(a, b))
            if u not in self.between.setdefault(pair, []):
                self.between[pair].append(u)
        self.going = {}      # (stop, stop), lower first -> literals of runs going between them
        self.taken = {}      # undirected chain -> literals, any of them true: the chain is taken
        self.shared = {}     # undirected chain -> its literal in the choice shared by all runs

    def go(self, a, b, lit):
        """``lit``: a run goes from stop ``a`` to stop ``b`` (on one chain between them)."""
        self.going.setdefault((min(a, b), max(a, b)), []).append(lit)

    def close(self, model, bit_lits, on_track, clock):
        """The chains taken: where one chain joins two stops, the runs going between
        them take its track bits themselves; where ``PER_RUN`` or fewer do, each run
        going between them a literal per chain (its way), on that chain's bits; where
        more do, a literal per chain, as many taken as runs go between the two, each
        taking its chain's bits. ``bit_lits``: track bit -> literals (``on_track``
        notes a literal's bits)."""
        for pair, lits in self.going.items():
            chains = self.between[pair]
            clock.tick(len(lits) * len(chains))
            if len(chains) == 1:
                self.taken[chains[0]] = list(lits)
            elif len(chains) <= PER_RUN:
                for u in chains:
                    self.taken[u] = []
                for lit in lits:
                    way = [model.new_bool_var("") for _ in chains]
                    for u, w in zip(chains, way):
                        self.taken[u].append(w)
                    model.add(sum(way) == lit)
            else:
                for u in chains:
                    self.shared[u] = model.new_bool_var("")
                    self.taken[u] = [self.shared[u]]
                model.add(sum(lits) == sum(self.shared[u] for u in chains))
            for u in chains:
                for lit in self.taken[u]:
                    on_track(bit_lits, self.bits[u], lit)

    def hint(self, model, used):
        """CP-SAT's hint for the chains chosen once for all runs: ``used``, the chains a
        run of the hint takes (a run's own way, where it has one, is left to CP-SAT)."""
        used = {int(self.arrays.chain_und[c]) for c in used}
        for u, z in self.shared.items():
            model.add_hint(z, u in used)

    def ways(self, value):
        """A chain for each way a run goes between two stops in a solution (``value``:
        a literal's value there): ``pick(a, b)`` gives one of the chains taken between
        ``a`` and ``b``, walked from ``a``, a different one at each call."""
        left = {}
        for pair, chains in self.between.items():
            if pair in self.going:
                left[pair] = [u for u in chains if any(value(lit) for lit in self.taken[u])]

        def pick(a, b):
            return self.directed[(left[(min(a, b), max(a, b))].pop(), a)]

        return pick
