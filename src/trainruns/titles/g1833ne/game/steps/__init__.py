"""1833NE's steps the shared engine lacks: the private sale and the stock turn with
incremental capitalisation."""
