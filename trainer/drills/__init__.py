"""Counting drills: definitions loaded from `drills/*.toml`, checkpoints in a deal, and questions
asked from the viewer's seat and graded against the tracker's exact facts."""

from trainer.drills import decide  # noqa: E402,F401  (registers the decision types of training.md §2 with the others)
