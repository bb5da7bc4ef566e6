"""Read a position (a file path or a parsed dict) into a :class:`~trainruns.route.board.Board`
through its title (:mod:`trainruns.titles`; a position with its own ``map`` is the
custom title). It stands above the titles and the field readers of
:mod:`trainruns.position.reader`, which the titles use."""

from __future__ import annotations

import os
import warnings

from trainruns.errors import InputError, InputWarning
from trainruns.position.reader import read_json
from trainruns.route.board import Board


def load_position(source, where: str | None = None) -> Board:
    """Build the board of a position given as a file path or an already parsed dict
    (``where`` names it in errors; default: the path, or "position").

    The position is first checked against its JSON Schema (:mod:`trainruns.position.schema`:
    one per title, one for a custom map); a company with no token of its own on the
    map is warned about (:class:`~trainruns.errors.InputWarning`): its routes need one."""
    from trainruns.titles import of_position

    if isinstance(source, (str, os.PathLike)):
        data, where = read_json(source), where or str(source)
    else:
        data, where = source, where or "position"
    if not isinstance(data, dict):
        raise InputError("a position must be a JSON object", where)
    board = of_position(data, where).load(data, where)
    warn_if_no_token(board, where)
    return board


def load_engine_position(data: dict, where: str = "game position") -> Board:
    """The Board of a position a game engine built from its own state, which it asks for
    on every action (tile lays, token cities, runs): the title's rules are checked as
    for any position, but not the JSON Schema, whose walk of a late game's tiles cost
    more than the solve (2-15 ms a call, against about 1 ms). The engines' positions
    fit the schema by construction, and tests/game/test_engine_positions.py checks every one
    a game hands over against it; input from outside (a file, the CLI, a position dict
    given to :func:`load_position`) is always checked in full.

    No warning for a company without a token: before it operates that is a normal game
    state, not a slip in a position's ``tokens``."""
    from trainruns.titles import of_position

    if not isinstance(data, dict):
        raise InputError("a position must be a JSON object", where)
    return of_position(data, where).load(data, where, shaped=True)


def engine_map_reading(data: dict, where: str = "game position"):
    """The title's typed reading of a position a game engine built, but for the running
    company's trains (:meth:`~trainruns.titles.base.Title.read_apart`), or None where
    the title does not read apart: as :func:`load_engine_position`, its rules checked
    but not the JSON Schema."""
    from trainruns.titles import of_position

    return of_position(data, where).read_apart(data, where)


def load_engine_position_from(reading, data: dict, where: str = "game position") -> Board:
    """The Board of an engine's position ``data`` (:func:`load_engine_position`), from
    ``reading``: :func:`engine_map_reading` of a position that differs from it only in
    its trains, which are read here."""
    from trainruns.titles import of_position

    title = of_position(data, where)
    return title.build(title.with_trains(reading, data, where))


def warn_if_no_token(board: Board, where: str):
    """Every route needs a token of the running company (docs/custom-map.md, plain rules;
    each title's route rules): without one on the map the answer is almost surely 0
    because of a slip in ``tokens``, so say so (the answer is still given)."""
    if not any(board.corporation in stop.tokens for hx in board.hexes.values() for stop in hx.stops):
        warnings.warn(InputWarning(f"{where}: {board.corporation} has no token of its own on the map "
                                   "(check 'tokens' and the company's name): its routes need one"), stacklevel=3)


def solve(source, **options):
    """``trainruns.solve``: the best run of a position given as a file path, a dict or a
    Board (:func:`trainruns.route.search.solve` on its Board, with the same ``options``).
    ``memory`` is bytes, or text as ``--memory`` takes it (``"1G"``; bad text is bad
    input)."""
    from trainruns.route.search import solve as solve_board

    if isinstance(options.get("memory"), str):
        from trainruns.route.limits import memory_size

        try:
            options["memory"] = memory_size(options["memory"])
        except ValueError as e:
            raise InputError(str(e), "memory") from None
    return solve_board(source if isinstance(source, Board) else load_position(source), **options)
