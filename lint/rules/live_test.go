package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/archivegen"
)

// fixture is a must-gather of internal/archivegen's testdata, as the files
// of a rule case.
func fixture(name string) map[string]string {
	files, err := archivegen.Files(filepath.Join("..", "..", "internal", "archivegen", "testdata", name))
	if err != nil {
		panic(err) // the fixtures are checked in (archivegen TestFixtures)
	}
	return files
}

// editFixture is fixture(name) with old replaced by new (once) in the file
// whose path ends with suffix.
func editFixture(name, suffix, old, new string) map[string]string {
	return editFiles(fixture(name), suffix, old, new)
}

// editFiles replaces old by new (once) in the file of files whose path ends
// with suffix.
func editFiles(files map[string]string, suffix, old, new string) map[string]string {
	for rel, content := range files {
		if strings.HasSuffix(rel, suffix) {
			if !strings.Contains(content, old) {
				panic(rel + " does not hold " + old)
			}
			files[rel] = strings.Replace(content, old, new, 1)
			return files
		}
	}
	panic("no file ends with " + suffix)
}

// The rules about a running cluster, on must-gathers of synthetic clusters
// (internal/archivegen: typed objects, status included, laid out as oc adm
// inspect writes them).
func init() {
	ruleCases = append(ruleCases,
		ruleCase{rule: "MTU001", name: "KCS 6996487: Local Zone nodes under cluster MTU 8901", files: fixture("kcs6996487"),
			want: []string{"cluster-scoped-resources/config.openshift.io/networks.yaml:30:24: error: cluster MTU 8901 does not fit the 1300-byte path"}},
		ruleCase{rule: "MTU001", name: "the same cluster at 1200", files: fixture("kcs6996487-fixed")},
		ruleCase{rule: "MTU001", name: "phase 1 of the migration to 1200 applied", files: fixture("mtu-migration-phase1")},
		ruleCase{rule: "MTU014", name: "phase 1 on every pool, phase 2 not applied", files: fixture("mtu-migration-phase1"),
			want: []string{"cluster-scoped-resources/operator.openshift.io/networks/cluster.yaml:26:13: warning: phase 1 of the MTU migration 8901 -> 1200 is rolled out on every pool"}},
		ruleCase{rule: "MTU014", name: "phase 2 rolling out", files: fixture("mtu-migration-phase2-rolling"),
			want: []string{"machineconfigpools/worker.yaml:38:13: warning: pool worker runs rendered-worker-"}},
		ruleCase{rule: "MTU014", name: "no migration", files: fixture("kcs6996487-fixed")},
		ruleCase{rule: "MIR026", name: "catalog pod in ImagePullBackOff under digest-only mirrors", files: fixture("catalog-digest-only"),
			want: []string{"cs-redhat-operator-index-7x9kq.yaml:41:17: error: the catalog pod's container registry-server is in ImagePullBackOff"}},
		ruleCase{rule: "MIR026", name: "tag mirror set, the pod runs", files: fixture("catalog-tag-mirrored")},
		ruleCase{rule: "MIR026", name: "tag mirror set, but the pod's node is in a paused pool that runs the file from before it", files: fixture("mirrors-pool-paused"),
			want: []string{"in the registries.conf its node ip-10-0-130-40.ec2.internal runs (pool worker, rendered-worker-344c2b4eef934c0ea344ef93344c2b4e), registry.redhat.io/redhat has only digest-only mirrors"}},
		ruleCase{rule: "MIR027", name: "the worker pool paused before the tag mirror set", files: fixture("mirrors-pool-paused"),
			want: []string{"machineconfigpools/worker.yaml:33:11: warning: pool worker is paused (spec.paused): its nodes run rendered-worker-344c2b4eef934c0ea344ef93344c2b4e, whose registries.conf is not the one the cluster's mirror objects render for them now (the table of registry.redhat.io/redhat differs)"}},
		ruleCase{rule: "MIR027", name: "the same pool unpaused, rolling out", files: editFixture("mirrors-pool-paused", "machineconfigpools/worker.yaml", "  paused: true\n", ""),
			want: []string{"machineconfigpools/worker.yaml:62:11: warning: pool worker is rolling out rendered-worker-5e27b5aca3024c3aa5e2a3025e27b5ac (0 of 3 nodes updated): until it is done, its nodes run rendered-worker-344c2b4eef934c0ea344ef93344c2b4e"}},
		ruleCase{rule: "MIR027", name: "every pool runs the file the mirror objects render", files: fixture("catalog-digest-only")},
		ruleCase{rule: "MIR027", name: "every pool runs the file the mirror objects render, with tag mirrors", files: fixture("catalog-tag-mirrored")},
		ruleCase{rule: "EGR008", name: "no node labelled egress-assignable", files: fixture("egressip-unassigned"),
			want: []string{"k8s.ovn.org/egressips/egress-prod.yaml:15:3: error: egress IP 10.0.130.200 is assigned to no node (status.items does not list it): the selected pods leave the cluster with their node's address; why: the finding EGR006 (egress-ip-not-enough-nodes) at spec.egressIPs[0]"}},
		ruleCase{rule: "EGR008", name: "assigned", files: fixture("egressip-assigned")},
		ruleCase{rule: "MCF008", name: "RenderDegraded by an Ignition version MCF005 flags", files: fixture("pool-degraded-ignition"),
			want: []string{"machineconfigpools/worker.yaml:53:14: error: pool worker is degraded (RenderDegraded"}},
		ruleCase{rule: "MCF008", name: "NodeDegraded by a disk, no config flagged", files: fixture("pool-degraded-node")},
		// the default IngressController of a running cluster is the
		// administrator's to edit, and the default router
		ruleCase{rule: "ING005", name: "the default IngressController edited to require type=public", files: fixture("ingress-default-drops-platform-routes"),
			want: []string{"ingresscontrollers/default.yaml:19:5: error: the default IngressController's routeSelector type=public rejects the platform's routes openshift-console/console, openshift-authentication/oauth-openshift, openshift-ingress-canary/canary"}},
		ruleCase{rule: "ING005", name: "the default IngressController excludes the shard with NotIn", files: fixture("ingress-sharded")},
		ruleCase{rule: "ING004", name: "the default IngressController excludes the shard with NotIn", files: fixture("ingress-sharded")},
		ruleCase{rule: "ING003", name: "the default without spec.domain has the Ingress config's, the shard its own", files: fixture("ingress-sharded")},
	)
}

// TestKCS6996487: the finding at the Network config names the edge nodes
// and gives the two-phase migration to 1200.
func TestKCS6996487(t *testing.T) {
	res := lintFiles(t, fixture("kcs6996487"))
	if len(res.Findings) != 1 {
		t.Fatalf("findings %v, want MTU001 alone", res.Findings)
	}
	f := res.Findings[0]
	for _, want := range []string{"ip-10-0-208-20.ec2.internal, ip-10-0-209-21.ec2.internal (us-east-1-nyc-1a)", "KCS 6996487",
		`'{"spec":{"migration":{"mtu":{"machine":{"to":9001},"network":{"from":8901,"to":1200}}}}}'`,
		`'{"spec":{"defaultNetwork":{"ovnKubernetesConfig":{"mtu":1200}},"migration":null}}'`} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("%s does not say %s", f.Message, want)
		}
	}
	if f.Rule != "MTU001" || f.Resource == nil || f.Resource.Kind != "Network" || f.Resource.APIVersion != "config.openshift.io/v1" {
		t.Errorf("finding %s on %+v, want MTU001 on the Network config", f.Rule, f.Resource)
	}
}

// TestPlatformObjectsNotReported: the fixtures' MCO base configs write
// kubelet.service twice (00-worker and 01-worker-kubelet, as MCO's
// templates do): MCF004's finding on MCO's own configs is not reported on a
// running cluster, and is on the same files read as plain manifests.
func TestPlatformObjectsNotReported(t *testing.T) {
	files := fixture("kcs6996487-fixed")
	if res := lintFiles(t, files, "MCF004"); len(res.Findings) != 0 {
		t.Errorf("MCF004 on MCO's configs of a running cluster: %v", res.Findings)
	}
	plain := map[string]string{}
	for rel, content := range files {
		if strings.Contains(rel, "/machineconfigs/") {
			plain["manifests/"+filepath.Base(rel)] = content
		}
	}
	if res := lintFiles(t, plain, "MCF004"); len(res.Findings) == 0 {
		t.Errorf("MCF004 does not find the duplicate unit in plain manifests: the test shows nothing")
	}
}

// TestPoolDegradedQuotesNoPlatformFinding: a finding on a MachineConfig MCO
// generated is not reported on a running cluster, and MCF008 does not
// quote it either: with the Ignition version MCF005 flags moved from the
// user's 99-worker-chrony to MCO's 00-worker, the degraded worker pool
// names no config siteforge reports, whether MCF005 is selected or not.
func TestPoolDegradedQuotesNoPlatformFinding(t *testing.T) {
	users := fixture("pool-degraded-ignition") // read before lintFiles changes the working folder
	files := editFixture("pool-degraded-ignition", "machineconfigs/99-worker-chrony.yaml", "version: 3.5.0", "version: 3.4.0")
	files = editFiles(files, "machineconfigs/00-worker.yaml", "version: 3.4.0", "version: 3.5.0")
	for _, enable := range [][]string{nil, {"MCF008"}, {"MCF005", "MCF008"}} {
		if res := lintFiles(t, files, enable...); len(res.Findings) != 0 {
			t.Errorf("enable %v: %v, want no finding (00-worker is MCO's)", enable, res.Findings)
		}
	}
	// the same edit on the user's config is reported, and quoted
	if res := lintFiles(t, users, "MCF008"); len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Message, "its MachineConfig 99-worker-chrony is one siteforge reports") {
		t.Errorf("MCF008 on the user's config: %v", res.Findings)
	}
}
