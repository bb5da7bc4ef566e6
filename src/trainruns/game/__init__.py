"""The title-agnostic game engine (docs/game-log.md).

A game is its replayed log: :class:`~trainruns.game.game.Game` starts from a title's
setup and processes decisions one by one (:mod:`.action` validates each record);
undo is a replay of the log minus one decision (:mod:`.log`). Rounds are made of steps
(:mod:`.round`, :mod:`.steps`), each listing its legal actions and processing one.
Money and shares each live in one place (:mod:`.state`), so conservation holds by
construction. A title supplies data and hooks (``titles/<title>/game.py``).
"""
