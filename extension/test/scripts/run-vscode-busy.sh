#!/usr/bin/env bash
# The real-VS-Code suite on a machine with no idle core: one busy loop per core (at least two) runs
# beside it, the suite runs three times, and the loops stop however the script ends. Fails if any
# run failed. Shows that the suite waits on conditions, never on an idle machine's timing.
# Usage: bash extension/test/scripts/run-vscode-busy.sh   (after the build; npm run test:vscode:busy)
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=3
loops=$(nproc)
((loops >= 2)) || loops=2

busy=()
stop_loops() {
  if ((${#busy[@]})); then kill "${busy[@]}" 2>/dev/null || true; fi
  wait 2>/dev/null || true
}
trap stop_loops EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < loops; i++)); do
  node -e 'for (;;) {}' &
  busy+=($!)
done
echo "busy: $loops busy loops running (pids ${busy[*]}); the suite runs $runs times"

log=$(mktemp)
failed=0
summary=()
for ((run = 1; run <= runs; run++)); do
  started=$SECONDS
  status=0
  node extension/test/scripts/run-vscode.mjs 2>&1 | tee "$log" || status=$?
  passing=$(grep -Eo '^ *[0-9]+ passing' "$log" | tr -dc '0-9' || true)
  failing=$(grep -Eo '^ *[0-9]+ failing' "$log" | tr -dc '0-9' || true)
  line="run $run: exit $status, ${passing:-0} passing, ${failing:-0} failing, $((SECONDS - started)) s"
  summary+=("$line")
  echo "busy: $line"
  ((status == 0)) || failed=$((failed + 1))
done
rm -f "$log"
printf 'busy: %s\n' "${summary[@]}"
if ((failed)); then
  echo "busy: $failed of $runs runs failed" >&2
  exit 1
fi
echo "busy: all $runs runs passed"
