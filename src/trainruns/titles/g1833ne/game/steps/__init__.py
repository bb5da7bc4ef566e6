"""1833NE's steps where the shared engine's differ: the private sale, the stock turn with
incremental capitalisation, and the track step an issue may pay for."""
