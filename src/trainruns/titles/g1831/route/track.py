"""Double track (5.6.2.4; tiles #301 and #401, 5.2.6.9) for the 1831 route model.

The core gives every hex side where two or more paths meet on both hexes one bit of
track: two routes never cross such a side both. A double track is two tracks side by
side, so where a double track meets a double track at one hex edge, each track goes on
into its own (the reading of docs/rules-1831.md): two trains, or two legs of a commuter
run, may cross that edge, each on its own track. These bits are rebuilt here, the same
way as the core's (one per path, per junction, per shared side) but without the shared
bit of a side where double track meets double track. Boards without double track keep
the core's bits.
"""

from __future__ import annotations

import numpy as np

from trainruns.route.hexgrid import opposite


def chain_bits(board, compiled, double_sides):
    """[n_chains, words] track bits of the compiled chains, double-track edges unshared
    (``double_sides``: the (hex, side) where a hex's double track ends)."""
    if not double_sides:
        return compiled.chain_bits
    touching = {}  # (hex, side) -> paths of the hex ending there
    for hx in board.hexes.values():
        for a, b in hx.paths:
            for end in (a, b):
                if end[0] == "side":
                    touching[(hx.id, end[1])] = touching.get((hx.id, end[1]), 0) + 1
    extra = {}
    n_paths = len(compiled.paths)
    out = np.zeros_like(compiled.chain_bits)

    def put(c, bit):
        out[c, bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)

    for c in range(compiled.n_chains):
        hex_id, k = compiled.stop_refs[compiled.chain_from[c]]
        cur_hex, cur_end = hex_id, ("stop", k)
        for p in compiled.chain_paths[compiled.chain_path_ptr[c]:compiled.chain_path_ptr[c + 1]]:
            hx, i = compiled.paths[p]
            ends = board.hexes[hx].paths[i]
            put(c, int(p))
            if hx != cur_hex:  # crossed the side cur_end of cur_hex
                here, there = (cur_hex, cur_end[1]), (hx, opposite(cur_end[1]))
                entry = ("side", there[1])
                shared = touching.get(here, 0) >= 2 and touching.get(there, 0) >= 2
                if shared and not (here in double_sides and there in double_sides):
                    put(c, _bit(extra, ("side",) + tuple(sorted([here, there])), n_paths))
            else:
                entry = cur_end
                if entry[0] == "junction":
                    put(c, _bit(extra, ("junction", hx, entry[1]), n_paths))
            cur_hex, cur_end = hx, (ends[1] if ends[0] == entry else ends[0])
    return out


def _bit(extra, key, base):
    if key not in extra:
        extra[key] = base + len(extra)
    return extra[key]
