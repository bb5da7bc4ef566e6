"""1833NE's rounds and the steps the generic engine lacks (private sale, stock turn with
incremental capitalisation, discards counting only live trains, deals between two
parties)."""
