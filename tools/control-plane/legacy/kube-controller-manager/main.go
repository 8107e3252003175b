// Command kube-controller-manager is the upstream controller manager of an older minor (built
// with the providerless tag, so no in-tree cloud is compiled in) with k8s.io/cloud-provider's
// in-memory fake cloud registered under each provider name a leader-migration plan passes in
// --cloud-provider: the real leader election and leader migration run, no cloud is ever called.
// Its entry point has the shape of kubernetes/kubernetes@v1.30.14 cmd/kube-controller-manager/controller-manager.go.
package main

import (
	"io"
	"os"
	_ "time/tzdata"

	cloudprovider "k8s.io/cloud-provider"
	"k8s.io/cloud-provider/fake"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

// The in-tree names a leader migration moves from.
var providerNames = []string{"aws", "azure", "gce", "openstack", "vsphere"}

func init() {
	for _, name := range providerNames {
		name := name
		cloudprovider.RegisterCloudProvider(name, func(io.Reader) (cloudprovider.Interface, error) {
			return &fake.Cloud{Provider: name}, nil
		})
	}
}

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
