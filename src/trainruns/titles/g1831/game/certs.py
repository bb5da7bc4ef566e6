"""1831 certificates (1.9, 4.1): each a record, since 1831 needs what a count cannot say.

A company's certificates are the president's preferred (10%, 20% or 30%: the config's
company table), ordinary 10% preferred making up 50% (4.7.10: "50% preferred"), and
five 10/5/0% commons (50%). The five 5% "common for mergers" certificates enter play
only with a merger (4.1.1.3.1; mergers.py); until then their holder is "none". Each certificate carries its holder and its
2x markers (4.3.4: players' and companies' certificates only). Shares are counted in
the smallest share, 5% (the merger commons' size), so a 10% certificate is 2 units;
``State.move_shares`` keeps the engine's per-holder counts in step with the records.
"""

from __future__ import annotations

from dataclasses import dataclass

UNIT = 5   # percent per share unit


@dataclass
class Cert:
    """One certificate (1.9, 4.1) or bond (4.1.1.3.2, 5.9.10.8)."""

    #: "president", "preferred", "common" (10/5/0%), "merger" (the 5% common for
    #: mergers, 4.1.1.3.1) or "bond"
    kind: str
    #: its size in units of :data:`UNIT` percent (a 10% certificate is 2)
    size: int
    #: "ipo", "treasury", "market" (the pool), "player:NAME", "corp:ID", or out of play:
    #: "none" (a merger common not yet issued), "retired" (B's preferred, 5.9.7.4)
    holder: str
    #: its 2x markers (4.3.4)
    splits: int = 0
    #: a bond's company: B, whose commons it was (5.9.10.8)
    origin: str | None = None
    #: the stock round a player bought it in, from where ("ipo" or "market") and for how
    #: much: what cycling and profit taking ask of a later sale that round (4.6.6-4.6.8)
    bought_round: int | None = None
    bought_from: str | None = None
    bought_price: int | None = None


def make_certs(president_percent: int) -> list[Cert]:
    certs = [Cert("president", president_percent // UNIT, "ipo")]
    for _ in range((50 - president_percent) // 10):
        certs.append(Cert("preferred", 2, "ipo"))
    for _ in range(5):
        certs.append(Cert("common", 2, "ipo"))
    for _ in range(5):
        # 4.1.1.3.1: the 5% common for mergers, out of play ("none") until a merger
        certs.append(Cert("merger", 1, "none"))
    return certs


OUT_OF_PLAY = ("none", "retired")


def recount(corp):
    """The company's per-holder share counts from its certificates (after a merger
    changes their sizes, 4.7.8)."""
    shares = {}
    for x in corp.certs:
        if x.holder not in OUT_OF_PLAY:
            shares[x.holder] = shares.get(x.holder, 0) + x.size
    corp.shares = shares
    corp.total_shares = sum(shares.values())


def is_preferred(cert) -> bool:
    return cert.kind in ("president", "preferred")


def president_cert(corp) -> Cert:
    """The company's president's certificate (4.1.1.1)."""
    return next(x for x in corp.certs if x.kind == "president")


def held(corp, holder: str, kind: str | None = None) -> list[Cert]:
    """The certificates ``holder`` holds (``kind``: ``preferred`` takes the president's
    too; ``common``; None for all)."""
    if kind == "bond":
        return [b for b in corp.bonds if b.holder == holder]
    out = []
    for cert in corp.certs:
        if cert.holder != holder:
            continue
        if kind == "preferred" and not is_preferred(cert):
            continue
        if kind == "common" and cert.kind not in ("common", "merger"):
            continue
        out.append(cert)
    return out


def units(corp, holder: str, kind: str | None = None) -> int:
    return sum(c.size for c in held(corp, holder, kind))


def move(state, corp, cert, dst: str):
    if cert.kind == "bond":
        cert.holder = dst   # bonds are no part of the company's shares (5.9.10.8)
        return
    state.move_shares(corp, cert.holder, dst, cert.size)
    cert.holder = dst


def shares_of(cert) -> int:
    """The number of shares a certificate is (4.6.1.1: a 10% certificate is one share;
    4.7.8: a 10/5/0% common that became 5% in a system is "still 1 share"; a bond
    counts as 1 share, 4.6.3.2.4)."""
    if cert.kind in ("common", "merger", "bond"):
        return 1
    return max(1, cert.size * UNIT // 10)
