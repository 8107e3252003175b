#!/usr/bin/env bash
# The control-plane step of .ci/run: build (or find) the binaries, then run the suite, printing the time
# of each. Its budget in seconds is the first argument (none: no limit).
# - No go on PATH or no module proxy (build.sh exit 4): one line, the suite is skipped, exit 0.
# - A cold build that does not finish inside the budget less what the suite needs: one line, exit 0. The
#   Go module and build caches keep what was compiled, so the next run with the same cache goes on from there.
# - Any other build failure, a failing check, or a suite over its share of the budget: this script fails.
set -uo pipefail
cd "$(dirname "$0")/.."
budget="${1:-}"
# what the suite needs when the binaries are there: twice its warm time on a shared 2-core machine
suite_share=1200
build_limit=()
if [ -n "$budget" ]; then
  build_budget=$((budget - suite_share))
  if [ "$build_budget" -lt 60 ]; then
    echo "control-plane checks skipped: ${budget} s left of the run's budget, the suite alone needs ${suite_share} s"
    exit 0
  fi
  build_limit=(timeout --kill-after=30 "$build_budget")
fi

build() {
  local started=$SECONDS status
  "${build_limit[@]}" nice -n 10 bash tools/control-plane/build.sh "$@"
  status=$?
  echo "control-plane build ${*:-(v1.33 set)} took $((SECONDS - started)) s"
  if [ "${#build_limit[@]}" -gt 0 ]; then build_budget=$((build_budget - (SECONDS - started))); build_limit=(timeout --kill-after=30 "$((build_budget > 1 ? build_budget : 1))"); fi
  return "$status"
}

build
status=$?
# the older kube-controller-manager of the leader-migration replay
[ "$status" -eq 0 ] && { build --legacy; status=$?; }
case "$status" in
  0) ;;
  4) echo "control-plane checks skipped: this machine cannot build the binaries (see the line above)"; exit 0 ;;
  124 | 137)
    echo "control-plane checks skipped: the cold build did not finish inside this run's budget; its caches keep what was compiled, and the next run goes on from there"
    exit 0 ;;
  *) echo "control-plane build failed (exit $status)" >&2; exit "$status" ;;
esac
started=$SECONDS
if [ -n "$budget" ]; then
  timeout --kill-after=30 "$suite_share" nice -n 10 npm run test:control-plane
else
  nice -n 10 npm run test:control-plane
fi
status=$?
echo "control-plane tests took $((SECONDS - started)) s"
[ "$status" -eq 124 ] && echo "control-plane tests did not finish in ${suite_share} s" >&2
exit "$status"
