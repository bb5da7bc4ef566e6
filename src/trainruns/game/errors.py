"""What a game says when it refuses an action: a rule id and the rulebook's section.

Bad input (a malformed action, an unknown id) is :class:`trainruns.errors.InputError`
(exit 2); an action that is well formed but not allowed now is a :class:`Refusal`
(exit 1, ``{"index", "rule", "message"}``)."""


class Refusal(Exception):
    """An illegal action: ``rule`` is a stable id (``"stock.cert-limit"``), ``message``
    says why in the game's words and names the rulebook section."""

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule
        self.message = message
