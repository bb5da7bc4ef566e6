"""The hooks a title gives the engine, one module a group (:mod:`trainruns.game.game_rules`)."""
