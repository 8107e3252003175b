// Command etcd is etcd's own server entry point, built at the version the
// Kubernetes tag pins (etcd-io/etcd@v3.5.21 server/etcdmain/main.go).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
