"""Players that make deals: a uniform random player today; heuristic bots later."""
