#!/usr/bin/env bash
# Mutation testing of the rules engine and the tracker (issue 10, hardening item 6): how many
# deliberately broken versions of follow, tricks, scoring, tracker and inference the tests catch.
#
#   bash bench/mutation.sh [SAMPLE] [SEED]      # default: 200 mutants drawn with seed 1; 0 = all
#
# mutmut (from PyPI, not a project dependency) runs in a scratch copy of the working tree with
# its own virtual environment (the project's editable install would shadow mutmut's mutated
# copy), so nothing here touches .venv or the repository. It mutates the five modules, runs the
# engine, tracking and bot tests against each sampled mutant (only the tests that reach the
# mutated function), and prints killed / survived / timeout counts, then the survivors' names:
# `mutmut show NAME` in the scratch folder prints a survivor's diff. A full run takes hours on
# two cores; the default sample about half an hour (run it under `nice`).
set -euo pipefail
SAMPLE="${1:-200}"
SEED="${2:-1}"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${JIPAI_MUTATION_DIR:-/tmp/jipai-mutation}"
rm -rf "$WORK/src"
mkdir -p "$WORK/src"
(cd "$HERE" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$WORK/src")
cd "$WORK/src"
if [ ! -x "$WORK/venv/bin/mutmut" ]; then
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/pip" install -q ".[test]" mutmut
  "$WORK/venv/bin/pip" uninstall -q -y jipai-trainer
fi
cat >> pyproject.toml <<'EOF'

[tool.mutmut]
paths_to_mutate = ["trainer/"]
only_mutate = ["trainer/engine/follow.py", "trainer/engine/tricks.py", "trainer/engine/scoring.py",
               "trainer/tracking/tracker.py", "trainer/tracking/inference.py"]
tests_dir = ["tests/engine/", "tests/tracking/", "tests/bots/"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-o", "addopts=-q"]
also_copy = ["tests/", "drills/", "templates/", "static/", "migrations/"]
EOF
export PATH="$WORK/venv/bin:$PATH"
# generate the mutants and the test ↔ function map (a run restricted to a name that matches nothing)
mutmut run "nothing-matches-this" >/dev/null 2>&1 || true
NAMES="$(python3 - "$SAMPLE" "$SEED" <<'EOF'
import json, random, sys
from pathlib import Path
names = []
for meta in sorted(Path("mutants").rglob("*.meta")):
    names += sorted(json.loads(meta.read_text())["exit_code_by_key"])
sample, seed = int(sys.argv[1]), int(sys.argv[2])
print(len(names), file=sys.stderr)
print("\n".join(random.Random(seed).sample(names, sample) if 0 < sample < len(names) else names))
EOF
)"
echo "$NAMES" > "$WORK/sample.txt"
echo "sampled $(wc -l < "$WORK/sample.txt") mutants"
echo "$NAMES" | xargs mutmut run --max-children 2 >/dev/null 2>&1 || true
python3 - "$WORK/sample.txt" <<'EOF'
import json, sys
from collections import Counter
from pathlib import Path
from mutmut.stats import status_by_exit_code
wanted = Path(sys.argv[1]).read_text().split()
codes = {}
for meta in Path("mutants").rglob("*.meta"):
    codes.update(json.loads(meta.read_text())["exit_code_by_key"])
results = {name: status_by_exit_code[codes.get(name)] for name in wanted}
print(dict(Counter(results.values())))
print("\n".join(sorted(name for name, result in results.items() if result not in ("killed", "timeout"))))
EOF
