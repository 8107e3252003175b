#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager and etcd at pinned versions into a cache folder keyed by
# the Kubernetes tag, outside the repository, so that a second run builds nothing.
#
# kube-apiserver and kube-controller-manager come from an unpublished module that requires k8s.io/kubernetes
# at the tag; the tag's go.mod replaces each staging module by ./staging/src/k8s.io/<x>, which a dependant
# cannot use, so the replace list is generated from that go.mod with the published v0.<minor>.<patch>.
# etcd is go.etcd.io/etcd/server/v3 at the version the same go.mod pins; the cloud-controller-manager is
# k8s.io/cloud-provider's generic one with its fake cloud (cmd/fake-cloud-controller-manager).
#
# --legacy builds, instead, the kube-controller-manager of an older minor (LEGACY_KUBE_VERSION, default
# v1.30.14: the last minor whose controller manager still accepts an in-tree --cloud-provider) with the
# providerless tag and the fake cloud registered under the in-tree names (legacy/kube-controller-manager),
# for the leader-migration replay. --check (after --legacy or alone) builds nothing: exit 0 when the
# binaries are all there.
#
# Exit 0: built or present; 1: --check found a binary missing; 2: a compile or module error;
# 4: the environment cannot build (no go on PATH, the module proxy unreachable), said in one line.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cache_root="${CCM_GITOPS_CONTROL_PLANE_CACHE:-$HOME/.cache/ccm-gitops/control-plane}"
legacy=0
[ "${1:-}" = "--legacy" ] && { legacy=1; shift; }
if [ "$legacy" = 1 ]; then
  KUBE_VERSION="${LEGACY_KUBE_VERSION:-v1.30.14}"
  binaries=(kube-controller-manager)
  tags=providerless
else
  KUBE_VERSION="${KUBE_VERSION:-v1.33.5}"
  binaries=(kube-apiserver kube-controller-manager etcd fake-cloud-controller-manager)
  tags=
fi
cache="$cache_root/$KUBE_VERSION"
bin="$cache/bin"

missing=0
for b in "${binaries[@]}"; do [ -x "$bin/$b" ] || missing=1; done
[ "${1:-}" = "--check" ] && exit "$missing"
if [ "$missing" = 0 ]; then
  echo "control-plane: $KUBE_VERSION binaries present in $bin; nothing to build"
  exit 0
fi

command -v go >/dev/null 2>&1 || { echo "control-plane: no go on PATH: cannot build the $KUBE_VERSION binaries; install Go to run these checks" >&2; exit 4; }
export GOMODCACHE="$cache/gomodcache" GOCACHE="$cache/gocache" GOFLAGS="${GOFLAGS:--p=2}" GOTOOLCHAIN=local
export CGO_ENABLED=0
mkdir -p "$bin" "$cache/module"
start=$(date +%s)

# The proxy must serve the tag; record what it served.
# A download that fails without a JSON "Error" naming the tag is the network's, not the tag's.
if ! go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" > "$cache/kubernetes.download.json" 2>"$cache/download.err"; then
  if grep -q '"Error"' "$cache/kubernetes.download.json" && ! grep -qiE 'dial tcp|timeout|no such host|connection refused|proxyconnect|TLS handshake|i/o timeout' "$cache/kubernetes.download.json"; then
    echo "control-plane: the module proxy does not serve k8s.io/kubernetes@$KUBE_VERSION:" >&2
    cat "$cache/kubernetes.download.json" >&2
    exit 2
  fi
  echo "control-plane: the Go module proxy ($(go env GOPROXY)) is unreachable: cannot build the $KUBE_VERSION binaries" >&2
  exit 4
fi
kube_mod="$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' "$cache/kubernetes.download.json")"
staging_version="v0.${KUBE_VERSION#v1.}"
etcd_version="$(awk '$1=="go.etcd.io/etcd/server/v3"{print $2; exit}' "$kube_mod")"
go_version="$(awk '$1=="go"{print $2; exit}' "$kube_mod")"
[ -n "$etcd_version" ] || { echo "control-plane: no go.etcd.io/etcd/server/v3 in $kube_mod" >&2; exit 2; }

module="$cache/module"
rm -rf "$module" && mkdir -p "$module"
if [ "$legacy" = 1 ]; then cp -R "$here/legacy" "$module/cmd"; else cp -R "$here/cmd" "$module/cmd"; fi
{
  echo "module ccm-gitops.local/control-plane"
  echo
  echo "go $go_version"
  echo
  echo "require ("
  echo "	k8s.io/kubernetes $KUBE_VERSION"
  [ "$legacy" = 1 ] || echo "	go.etcd.io/etcd/server/v3 $etcd_version"
  echo ")"
  echo
  echo "replace ("
  sed -n 's#^[[:space:]]*\(k8s.io/[^[:space:]]*\) => \./staging/src/.*#\1#p' "$kube_mod" | sort -u |
    while read -r m; do echo "	$m => $m $staging_version"; done
  echo ")"
} > "$module/go.mod"
[ "$legacy" = 1 ] || cat > "$module/tools.go" <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
GO

cd "$module"
nice -n 15 go mod tidy
build() { [ -x "$bin/$1" ] || nice -n 15 go build -trimpath -tags "$tags" -o "$bin/$1" "$2"; }
if [ "$legacy" = 1 ]; then
  build kube-controller-manager ./cmd/kube-controller-manager
else
  build etcd ./cmd/etcd
  build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
  build kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager
  build fake-cloud-controller-manager ./cmd/fake-cloud-controller-manager
fi
echo "control-plane: built $KUBE_VERSION (etcd $etcd_version) in $(( $(date +%s) - start )) s into $bin"
