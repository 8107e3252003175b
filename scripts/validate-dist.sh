#!/usr/bin/env bash
# Runs the shared validator (../shared/tools/validate) on a rendered tree the
# way it is applied: each dist/<cluster>/ is one cluster's API server, so it is
# validated on its own (validating several clusters as one set reports every
# shared object, such as the namespaces, as a duplicate). Each cluster is
# checked against Kubernetes 1.30 (OpenShift 4.17, the oldest with v1
# ValidatingAdmissionPolicy) and 1.33; _fleet/ (the hub's objects) once.
# Usage: scripts/validate-dist.sh [ROOT...]   (default: dist). Exit 1 on any error.
set -euo pipefail
validator=${VALIDATOR:-../shared/tools/validate/validate.mjs}
if [ ! -f "$validator" ]; then
  echo "validator not found at $validator (set VALIDATOR, or put the shared tools beside the repository)" >&2
  exit 2
fi
[ $# -gt 0 ] || set -- dist
failed=0
for root in "$@"; do
  for dir in "$root"/*/; do
    dir=${dir%/}
    versions="1.30 1.33"
    [ "$(basename "$dir")" = "_fleet" ] && versions="1.33"
    for version in $versions; do
      summary=$(node "$validator" --k8s-version "$version" --no-warnings "$dir" | tail -n 1) || failed=1
      echo "$dir (k8s $version): $summary"
    done
  done
done
exit $failed
