"""The players of a game: the operating-turn advisor (advise.py) and the self-play
policies (policies.py). They play a game through the engine, as a person would."""
