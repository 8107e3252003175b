// Command fake-cloud-controller-manager is the generic cloud-controller-manager of
// k8s.io/cloud-provider (the shape of its sample/basic_main.go at the same version)
// with the library's in-memory fake cloud registered under each provider name the
// rendered trees pass in --cloud-provider, so that the real controller manager,
// leader election and leader migration run and no cloud is ever called.
package main

import (
	"io"
	"os"

	"k8s.io/apimachinery/pkg/util/wait"
	cloudprovider "k8s.io/cloud-provider"
	"k8s.io/cloud-provider/app"
	"k8s.io/cloud-provider/app/config"
	"k8s.io/cloud-provider/fake"
	"k8s.io/cloud-provider/names"
	"k8s.io/cloud-provider/options"
	"k8s.io/component-base/cli"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/klog/v2"
)

// The --cloud-provider names the fake answers to: the in-tree names a leader
// migration moves from and the external providers' own names.
var providerNames = []string{
	"alicloud", "aws", "azure", "digitalocean", "equinixmetal", "external", "fake", "gce", "nutanix", "openstack", "vsphere",
}

func init() {
	for _, name := range providerNames {
		name := name
		cloudprovider.RegisterCloudProvider(name, func(io.Reader) (cloudprovider.Interface, error) {
			return &fake.Cloud{Provider: name}, nil
		})
	}
}

func main() {
	ccmOptions, err := options.NewCloudControllerManagerOptions()
	if err != nil {
		klog.Fatalf("unable to initialize command options: %v", err)
	}
	command := app.NewCloudControllerManagerCommand(ccmOptions, cloudInitializer, app.DefaultInitFuncConstructors,
		names.CCMControllerAliases(), cliflag.NamedFlagSets{}, wait.NeverStop)
	os.Exit(cli.Run(command))
}

func cloudInitializer(c *config.CompletedConfig) cloudprovider.Interface {
	shared := c.ComponentConfig.KubeCloudShared.CloudProvider
	cloud, err := cloudprovider.InitCloudProvider(shared.Name, shared.CloudConfigFile)
	if err != nil || cloud == nil {
		klog.Fatalf("fake cloud %q could not be initialized: %v", shared.Name, err)
	}
	return cloud
}
