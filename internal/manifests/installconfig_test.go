package manifests

import (
	"reflect"
	"testing"
)

func TestInstallConfigs(t *testing.T) {
	objs, d := ReadBytes("install-config.yaml", []byte(`apiVersion: v1
baseDomain: example.com
metadata: {name: lab}
platform:
  BareMetal:
    apiVIP: 192.168.0.5
    ingressVIPs: [192.168.0.6]
networking:
  serviceNetwork: [172.30.0.0/16]
compute: [{name: worker, replicas: 2}]
`))
	if len(d) > 0 {
		t.Fatal(d)
	}
	ics := InstallConfigs(objs)
	if len(ics) != 1 {
		t.Fatalf("%d install-configs", len(ics))
	}
	ic := ics[0]
	if ic.Platform != "baremetal" || !reflect.DeepEqual(ic.APIVIPs, []string{"192.168.0.5"}) || !reflect.DeepEqual(ic.IngressVIPs, []string{"192.168.0.6"}) ||
		ic.NetworkType() != "OVNKubernetes" || ic.Pool("worker") == nil || *ic.Pool("worker").Replicas != 2 || ic.Metadata.Name != "lab" {
		t.Errorf("%+v", ic)
	}
	// two platform sections: no platform (the installer refuses it), not
	// whichever a map iteration yields last
	two, _ := ReadBytes("install-config.yaml", []byte("apiVersion: v1\nbaseDomain: x\nplatform: {aws: {}, gcp: {}}\n"))
	for i := 0; i < 20; i++ {
		if p := InstallConfigs(two)[0].Platform; p != "" {
			t.Fatalf("platform %q from two sections", p)
		}
	}
}
