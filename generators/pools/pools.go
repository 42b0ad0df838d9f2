// Package pools renders what the site's node pools need from the cluster: a
// MachineConfigPool per custom pool (inheriting worker), the role labels
// those pools select their nodes by, and, where the release does not handle remote workers
// itself, the manual remote-worker method (keepalived off on the remote
// nodes, masters schedulable; the ingress generator pins the default router
// to the masters). It also holds the node model (model.go) the ingress and
// egress generators share.
package pools

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/butane"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// Name is the generator's stable name.
const Name = "pools"

// Generate renders the pools' MachineConfigPools, the node label script and
// the manual remote-worker method where the site needs it.
func Generate(ctx *generators.Context, s *site.Site) ([]generators.Artifact, error) {
	minor := ctx.Minor
	diags := checkPools(s)

	var arts []generators.Artifact
	for _, name := range s.PoolNames() {
		if s.Pools[name].Role != site.RoleCustom {
			continue
		}
		arts = append(arts, generators.Artifact{
			Path:   fmt.Sprintf("%s/machineconfigpool-%s.yaml", dir, name),
			Role:   generators.Resource,
			Object: generators.MustCleanMap(MachineConfigPool(name)),
			Origin: []diag.Position{s.Positions.Of(site.Field("pools", name))},
		})
	}

	fix, fixDiags, err := keepalivedFix(ctx, s, minor)
	if err != nil {
		return nil, err
	}
	diags = append(diags, fixDiags...)
	arts = append(arts, fix...)

	if script := labelScript(s); script != nil {
		arts = append(arts, generators.Artifact{
			Path: labelScriptPath, Role: generators.File, Data: script, Comment: "#",
			Origin: []diag.Position{s.Positions.Of("pools")},
		})
	}
	if len(diags) > 0 {
		return nil, diags.Sort()
	}
	return arts, nil
}

// MachineConfigPool is the pool of a custom pool's nodes: every worker
// MachineConfig plus the pool's own, on the nodes labelled
// node-role.kubernetes.io/<pool> (docs "Creating a
// custom machine config pool").
func MachineConfigPool(pool string) *mcfgv1.MachineConfigPool {
	return &mcfgv1.MachineConfigPool{
		TypeMeta: metav1.TypeMeta{APIVersion: mcfgv1.GroupVersion.String(), Kind: "MachineConfigPool"},
		ObjectMeta: metav1.ObjectMeta{
			Name:   pool,
			Labels: map[string]string{fmt.Sprintf(platform.PoolSelectorLabelFormat, pool): ""},
		},
		Spec: mcfgv1.MachineConfigPoolSpec{
			MachineConfigSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
				Key:      platform.MachineConfigRoleLabel,
				Operator: metav1.LabelSelectorOpIn,
				Values:   []string{site.RoleWorker, pool},
			}}},
			NodeSelector: &metav1.LabelSelector{MatchLabels: map[string]string{nodes.NodeRoleLabel(pool): ""}},
		},
	}
}

// checkPools reports what the MachineConfigPools cannot express: a node in
// two pools, or a pool whose labels put its nodes into another custom pool
// too (MCO: a node may match only one custom pool).
func checkPools(s *site.Site) diag.List {
	var out diag.List
	owner := map[string]string{}
	for _, name := range s.PoolNames() {
		for i, n := range s.Pools[name].Nodes {
			path := site.Field("pools", name, "nodes")
			path = site.Index(path, i)
			if prev, dup := owner[n.Name]; dup {
				out = append(out, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
					Message: fmt.Sprintf("node %q is already listed in pool %q: a node belongs to one pool (one MachineConfigPool)", n.Name, prev),
					Hint:    "list the node in one pool only"})
				continue
			}
			owner[n.Name] = name
		}
	}
	for _, name := range s.PoolNames() {
		for _, key := range slices.Sorted(maps.Keys(s.Pools[name].Labels)) {
			other, ok := strings.CutPrefix(key, platform.NodeRolePrefix)
			if !ok || other == name {
				continue
			}
			if p, exists := s.Pools[other]; exists && p.Role == site.RoleCustom {
				path := site.Field("pools", name, "labels", key)
				out = append(out, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Rule: ruleid.NodeInTwoCustomPools,
					Message: fmt.Sprintf("label %s puts the nodes of pool %q into the MachineConfigPool of pool %q too: a node may match only one custom pool", key, name, other),
					Hint:    "remove the label, or move the nodes into pool " + other})
			}
		}
	}
	return out
}

// keepalivedFix renders the manual remote-worker method for the pools that
// need it: per MachineConfigPool of a remote pool the MachineConfig emptying
// keepalived's static pod manifest, and the Scheduler config with masters
// schedulable.
//
// Role choice: the docs label 50-worker-fix-ipi-rwn with role worker, which
// stops keepalived on every worker, main-site ones included. Here the
// MachineConfig carries the role of the remote pool's own MachineConfigPool
// (its selector is In [worker, <pool>]), so it reaches exactly the nodes that
// must not run keepalived; the main-site workers keep theirs, which is
// harmless: the ingress VIP's check follows the router, and the default
// router runs on the masters.
func keepalivedFix(ctx *generators.Context, s *site.Site, minor platform.OCPMinor) ([]generators.Artifact, diag.List, error) {
	remote := nodes.KeepalivedFixPools(s, minor)
	if len(remote) == 0 {
		return nil, nil, nil
	}
	var diags diag.List
	origins := map[string][]diag.Position{}
	var roles []string
	for _, name := range remote {
		p := s.Pools[name]
		path := site.Field("pools", name, "placement")
		if p.Role == site.RoleMaster {
			diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
				Message: "the control plane cannot be remote: the API and ingress VIPs float between the masters, at L2",
				Hint:    `put the masters in the VIPs' subnet (placement "plain")`})
			continue
		}
		role := p.MachineConfigPool()
		if _, seen := origins[role]; !seen {
			roles = append(roles, role)
		}
		origins[role] = append(origins[role], s.Positions.Of(path))
	}
	if len(diags) > 0 {
		return nil, diags, nil
	}
	sort.Strings(roles)
	versionPos := s.Positions.Of("cluster.version")

	var arts []generators.Artifact
	for _, role := range roles {
		name := fmt.Sprintf(platform.KeepalivedFixNameFormat, role)
		body := butane.Body{Files: []butane.File{{Path: platform.KeepalivedManifestPath, Mode: platform.KeepalivedManifestMode, Contents: ""}}}
		res, err := butane.Build(butane.Config{
			Name:   name,
			Role:   role,
			Body:   body.YAML(),
			Origin: butane.Origin{Pos: origins[role][0], Path: "pools"},
		}, s.Cluster.Version)
		if err != nil {
			if dl, ok := err.(diag.List); ok {
				diags = append(diags, dl...)
				continue
			}
			return nil, nil, fmt.Errorf("keepalived fix %s: %w", name, err)
		}
		for _, w := range res.Warnings {
			ctx.Warn(ruleid.ButaneTranslation, w)
		}
		origin := append(append([]diag.Position(nil), origins[role]...), versionPos)
		arts = append(arts,
			generators.Artifact{Path: dir + "/" + name + ".bu", Role: generators.File, Data: res.Butane, Comment: "#", Origin: origin},
			generators.Artifact{Path: fmt.Sprintf("%s/machineconfig-%s.yaml", dir, name), Role: generators.Resource, Object: res.Object, Origin: origin},
		)
	}
	sched, err := schedulerFile(s, minor, remote)
	if err != nil {
		return nil, nil, err
	}
	arts = append(arts, generators.Artifact{Path: schedulerPath, Role: generators.File, Data: sched, Comment: "#",
		Origin: append([]diag.Position{versionPos}, flatten(origins, roles)...)})
	return arts, diags, nil
}

// Scheduler is the Scheduler config with masters schedulable.
func Scheduler() *configv1.Scheduler {
	return &configv1.Scheduler{
		TypeMeta:   metav1.TypeMeta{APIVersion: configv1.GroupVersion.String(), Kind: "Scheduler"},
		ObjectMeta: metav1.ObjectMeta{Name: platform.ConfigSingletonName},
		Spec:       configv1.SchedulerSpec{MastersSchedulable: true},
	}
}

// schedulerFile is the Scheduler config as a File, not a Resource: the
// installer writes the object (manifests/cluster-scheduler-02-config.yml)
// and the cluster owns it; a Resource in the kustomization would let a
// pruning sync delete it once the site no longer needs the fix. The same
// file serves both lifecycles: it is the installer's manifest with the docs'
// change, and, applied with a merge patch (CRDs have no strategic merge),
// it sets only the fields it names.
func schedulerFile(s *site.Site, minor platform.OCPMinor, remote []string) ([]byte, error) {
	obj, err := generators.EncodeObject(generators.MustCleanMap(Scheduler()), s.SourceName())
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Masters schedulable: part of the manual remote-worker method (docs \"Configuring network\n")
	fmt.Fprintf(&b, "# components to run on the control plane\"). OpenShift %s on %s %s does not detect remote\n", minor, s.Cluster.Platform, s.Cluster.InstallMethod)
	fmt.Fprintf(&b, "# workers itself (baremetal IPI does from %s), and the site has remote pools (%s): the default\n", platform.RemoteWorkerAutoDetectSince, strings.Join(remote, ", "))
	fmt.Fprintf(&b, "# router, and the ingress VIP that follows it, must run on the masters.\n#\n")
	if s.Cluster.Lifecycle == site.LifecycleInstall {
		fmt.Fprintf(&b, "# Install: after `openshift-install create manifests`, replace\n#   <installation directory>/manifests/%s with this file.\n", platform.SchedulerManifestName)
		fmt.Fprintf(&b, "# Running cluster: oc patch scheduler.config.openshift.io/%s --type=merge --patch-file=%s\n", platform.ConfigSingletonName, schedulerPath)
	} else {
		fmt.Fprintf(&b, "# Apply: oc patch scheduler.config.openshift.io/%s --type=merge --patch-file=%s\n", platform.ConfigSingletonName, schedulerPath)
	}
	b.Write(obj)
	return b.Bytes(), nil
}

// labelScript is a shell script labelling the listed nodes of each custom
// pool with its role label, with a note per pool whose machines a MachineSet
// creates; nil without custom pools.
func labelScript(s *site.Site) []byte {
	var b bytes.Buffer
	for _, name := range s.PoolNames() {
		labels := nodes.DeliveredLabels(s, name)
		if len(labels) == 0 {
			continue
		}
		WriteLabelCommands(&b, s, name, labels)
	}
	if b.Len() == 0 {
		return nil
	}
	var out bytes.Buffer
	out.WriteString("# Each custom pool's role label: its MachineConfigPool selects the nodes labelled\n")
	out.WriteString("# node-role.kubernetes.io/<pool>, and nothing else sets it. Run with sh.\n")
	out.WriteString("set -eu\n")
	out.Write(b.Bytes())
	return out.Bytes()
}

// WriteLabelCommands writes, for one pool, `oc label node` for each listed
// node and the notes a MachineSet-managed or unlisted pool needs.
func WriteLabelCommands(b *bytes.Buffer, s *site.Site, pool string, labels map[string]string) {
	p := s.Pools[pool]
	var args []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		args = append(args, k+"="+labels[k])
	}
	fmt.Fprintf(b, "\n# pool %s (%s)\n", pool, nodes.SizeString(p))
	for _, n := range p.Nodes {
		fmt.Fprintf(b, "oc label node %s %s --overwrite\n", n.Name, strings.Join(args, " "))
	}
	if len(p.Nodes) == 0 {
		fmt.Fprintf(b, "# The site lists no nodes of this pool: label each of them when it joins:\n")
		fmt.Fprintf(b, "#   oc label node <node> %s --overwrite\n", strings.Join(args, " "))
	}
	if nodes.MachineSetManaged(s, pool) {
		fmt.Fprintf(b, "# Its machines come from a MachineSet (installer-provisioned): also put the labels in the\n")
		fmt.Fprintf(b, "# MachineSet's spec.template.spec.metadata.labels, so replacement machines get them:\n")
		fmt.Fprintf(b, "#   oc edit machineset <name> -n openshift-machine-api\n")
	}
}

func flatten(m map[string][]diag.Position, keys []string) []diag.Position {
	var out []diag.Position
	for _, k := range keys {
		out = append(out, m[k]...)
	}
	return out
}
