"""Owned trains for tests that prepare a state: the game's own :class:`Train` objects by
name (game/train.py: a company and the open market hold Trains, not names)."""


def owned(game, *names):
    """The trains named ``names`` as the game sells them, for a company's ``trains`` or
    the open market's ``market_trains``."""
    return [game.rules.trains[n] for n in names]
