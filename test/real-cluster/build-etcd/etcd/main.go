// Command etcd is etcd's own server entry point (go.etcd.io/etcd/server/v3/main.go), built from a
// pinned module version so the real-cluster lane gets the etcd release Kubernetes v1.35 expects
// (Debian's etcd 3.4 lacks the watch-progress feature the apiserver's watch-list needs).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
