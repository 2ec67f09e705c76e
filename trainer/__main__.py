"""`python -m trainer`: the same as the `trainer` command."""
from trainer.cli import main

raise SystemExit(main())
