"""trainruns: proven-optimal train runs for 18xx games.

Data flows one way: ``load_position`` (parse, apply the title's rules) -> Board ->
``compile_board`` (flat arrays) -> route enumeration and train assignment (numba
kernels) -> :class:`Run`.
"""

from .audit import AuditResult, audit
from .board import Board, Bonus, Hex, Stop, Train
from .errors import InputError
from .position import load_position
from .result import Route, Run
from .search import solve

__all__ = ["solve", "audit", "AuditResult", "load_position", "Board", "Hex", "Stop", "Train", "Bonus", "Run", "Route",
           "InputError"]
__version__ = "0.1.0"
