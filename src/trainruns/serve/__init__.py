"""``trainruns serve``: a position or a game on a local web page (docs/serve.md).

Modules, bottom to top:

- :mod:`.picture` — the map as ``trainruns draw`` draws it, as SVG text;
- :mod:`.lays` — the one adapter to the legal tile lays and their ranking (whatif);
- :mod:`.game_engine` — the one adapter to the game engine (docs/game-log.md);
- :mod:`.jobs` — solves, audits and rankings in a worker thread, with progress;
- :mod:`.position_mode`, :mod:`.game_mode` — what the server keeps and how it changes;
- :mod:`.app` — the Starlette application (routes, safety, JSON errors);
- ``static/`` — the pages: plain HTML, CSS and JavaScript, no build step.

The command itself is :mod:`trainruns.cli.serve`.
"""
