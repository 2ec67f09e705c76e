"""Counting drills: definitions loaded from `drills/*.toml`, checkpoints in a deal, and questions
asked from the viewer's seat and graded against the tracker's exact facts."""
