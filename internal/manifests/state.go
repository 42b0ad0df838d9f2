package manifests

import (
	"slices"
	"sort"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// State is what a running cluster's objects (a must-gather, an Insights
// archive) say the cluster is doing: status is the truth. The one reader of
// a cluster's state; what a field is missing from is nil or zero.
type State struct {
	// Config is Network.config "cluster": status.clusterNetworkMTU and
	// status.networkType are the applied MTU and network type (CNO
	// StatusFromOperatorConfig writes them from the applied operator
	// configuration), status.migration the migration CNO applies.
	Config    *Object
	NetConfig configv1.Network
	// Operator is Network.operator "cluster": its spec.migration.mtu is
	// the MTU migration asked for.
	Operator    *Object
	NetOperator operatorv1.Network
	// Infrastructure is the Infrastructure "cluster"; InfrastructureName
	// its status.infrastructureName (the cluster's name with the
	// installer's suffix), Platform its platform type as siteforge spells
	// platforms (aws, baremetal, ...) and Region the cloud's region.
	Infrastructure     *Object
	InfrastructureName string
	Platform, Region   string
	Release            Release
	Nodes              []*Node
	Pools              []*Pool
	// Rendered are the rendered MachineConfigs the pools and nodes use
	// (RenderedInUse), by name.
	Rendered map[string]*MachineConfig
	Catalogs []*Catalog
}

// Pool is a MachineConfigPool with its status.
type Pool struct {
	Obj *Object
	MCP machineconfigv1.MachineConfigPool
}

// Condition is the pool's condition of a type, nil when absent.
func (p *Pool) Condition(t string) *machineconfigv1.MachineConfigPoolCondition {
	for i, c := range p.MCP.Status.Conditions {
		if string(c.Type) == t {
			return &p.MCP.Status.Conditions[i]
		}
	}
	return nil
}

// ConditionIndex is the index of the condition of a type in
// status.conditions, -1 when absent (a field path names it).
func (p *Pool) ConditionIndex(t string) int {
	return slices.IndexFunc(p.MCP.Status.Conditions, func(c machineconfigv1.MachineConfigPoolCondition) bool { return string(c.Type) == t })
}

// True reports whether the pool's condition of a type is True.
func (p *Pool) True(t string) bool {
	c := p.Condition(t)
	return c != nil && c.Status == corev1.ConditionTrue
}

// Catalog is a CatalogSource and the pods serving it (platform.CatalogPodLabel).
type Catalog struct {
	Obj  *Object
	Spec upstream.CatalogSourceSpec
	Pods []*CatalogPod
}

// CatalogPod is a pod serving a catalog, with its status.
type CatalogPod struct {
	Obj *Object
	Pod corev1.Pod
}

// MachineConfigPools reads the MachineConfigPools among objs. The one
// reader of MachineConfigPool.
func MachineConfigPools(objs []*Object) []*Pool {
	var out []*Pool
	for _, o := range objs {
		if o.Kind != "MachineConfigPool" || o.APIVersion != GroupMachineConfigV1 {
			continue
		}
		p := &Pool{Obj: o}
		if o.DecodeLoose(&p.MCP) == nil {
			out = append(out, p)
		}
	}
	return out
}

// ReadState reads a running cluster's state from its objects.
func ReadState(objs []*Object) *State {
	st := &State{Release: ReadRelease(objs), Nodes: Nodes(objs), Pools: MachineConfigPools(objs), Rendered: map[string]*MachineConfig{}}
	catalogs := map[[2]string]*Catalog{}
	var pods []*CatalogPod
	for _, o := range objs {
		switch {
		case o.Kind == "Network" && o.APIVersion == GroupConfig && o.Name == platform.ConfigSingletonName:
			if o.DecodeLoose(&st.NetConfig) == nil {
				st.Config = o
			}
		case o.Kind == "Network" && o.APIVersion == GroupOperatorV1 && o.Name == platform.ConfigSingletonName:
			if o.DecodeLoose(&st.NetOperator) == nil {
				st.Operator = o
			}
		case o.Kind == "Infrastructure" && o.APIVersion == GroupConfig && o.Name == platform.ConfigSingletonName:
			var infra configv1.Infrastructure
			if o.DecodeLoose(&infra) != nil {
				continue
			}
			st.Infrastructure, st.InfrastructureName = o, infra.Status.InfrastructureName
			if ps := infra.Status.PlatformStatus; ps != nil {
				st.Platform = platform.InfrastructurePlatform(string(ps.Type))
				if ps.AWS != nil {
					st.Region = ps.AWS.Region
				}
			}
			if st.Platform == "" {
				st.Platform = platform.InfrastructurePlatform(string(infra.Status.Platform))
			}
		case o.Kind == "CatalogSource" && o.APIVersion == GroupOperatorsCoreOS:
			var cs upstream.CatalogSource
			if o.DecodeLoose(&cs) == nil {
				c := &Catalog{Obj: o, Spec: cs.Spec}
				catalogs[[2]string{o.Namespace, o.Name}] = c
				st.Catalogs = append(st.Catalogs, c)
			}
		case o.Kind == "Pod" && o.APIVersion == "v1":
			p := &CatalogPod{Obj: o}
			if o.DecodeLoose(&p.Pod) == nil && p.Pod.Labels[platform.CatalogPodLabel] != "" {
				pods = append(pods, p)
			}
		}
	}
	for _, p := range pods {
		if c := catalogs[[2]string{p.Obj.Namespace, p.Pod.Labels[platform.CatalogPodLabel]}]; c != nil {
			c.Pods = append(c.Pods, p)
		}
	}
	inUse := RenderedInUse(st.Pools, st.Nodes)
	for _, mc := range MachineConfigs(objs) {
		if inUse[mc.Obj.Name] {
			st.Rendered[mc.Obj.Name] = mc
		}
	}
	return st
}

// RenderedInUse are the names of the rendered MachineConfigs a running
// cluster uses, of the many it keeps (MCO deletes none it rendered): those
// its MachineConfigPools roll out and their nodes run (spec.configuration,
// status.configuration), and those its nodes' Machine Config Daemons run
// and move to (Node.CurrentConfig, DesiredConfig: MCO pkg/daemon sets the
// annotations, a node mid-update runs one and moves to the other).
func RenderedInUse(pools []*Pool, nodes []*Node) map[string]bool {
	out := map[string]bool{}
	for _, p := range pools {
		out[p.MCP.Spec.Configuration.Name], out[p.MCP.Status.Configuration.Name] = true, true
	}
	for _, n := range nodes {
		out[n.CurrentConfig], out[n.DesiredConfig] = true, true
	}
	delete(out, "") // not said
	return out
}

// AppliedMTU is the cluster MTU the cluster applies
// (status.clusterNetworkMTU), 0 when the state does not say.
func (st *State) AppliedMTU() int { return st.NetConfig.Status.ClusterNetworkMTU }

// NetworkType is the applied network type (status.networkType), else the
// spec's.
func (st *State) NetworkType() string {
	if t := st.NetConfig.Status.NetworkType; t != "" {
		return platform.CanonicalNetworkType(t)
	}
	return platform.CanonicalNetworkType(st.NetConfig.Spec.NetworkType)
}

// MTUMigration is the MTU migration Network.operator asks for
// (spec.migration.mtu), nil when none.
func (st *State) MTUMigration() *operatorv1.MTUMigration {
	if m := st.NetOperator.Spec.Migration; m != nil {
		return m.MTU
	}
	return nil
}

// IPsecFull reports whether the operator configuration runs IPsec in mode
// Full (an ipsecConfig without a mode is Full: CNO GetIPsecMode).
func (st *State) IPsecFull() bool {
	ovn := st.NetOperator.Spec.DefaultNetwork.OVNKubernetesConfig
	return ovn != nil && ovn.IPsecConfig != nil && platform.IPsecModeIsFull(true, string(ovn.IPsecConfig.Mode))
}

// ClusterNetworks are the cluster network CIDRs (status, else spec).
func (st *State) ClusterNetworks() []string {
	cn := st.NetConfig.Status.ClusterNetwork
	if len(cn) == 0 {
		cn = st.NetConfig.Spec.ClusterNetwork
	}
	var out []string
	for _, c := range cn {
		out = append(out, c.CIDR)
	}
	return out
}

// PoolOf is the MachineConfigPool a node is in: the custom pool whose
// nodeSelector takes it, else the built-in pool of its role (MCO
// pkg/controller/node getPrimaryPoolForNode: a custom pool wins over
// worker); "" when none.
func (st *State) PoolOf(n *Node) string {
	var builtin, custom string
	for _, p := range st.Pools {
		if sel := p.MCP.Spec.NodeSelector; sel == nil || !SelectorMatches(sel, n.Labels) {
			continue // a pool without a nodeSelector takes no node
		}
		if platform.BuiltinPool(p.Obj.Name) {
			if builtin == "" || p.Obj.Name == platform.MachineConfigRoleMaster {
				builtin = p.Obj.Name
			}
		} else if custom == "" {
			custom = p.Obj.Name
		}
	}
	if builtin == platform.MachineConfigRoleMaster {
		return builtin // the control plane stays in master
	}
	if custom != "" {
		return custom
	}
	return builtin
}

// EdgeNodes are the AWS edge nodes (Local Zone or Wavelength Zone) and
// their zone types, sorted by name: a node with the edge role
// (platform.EdgeRoleLabel) or in a zone AWS names a Local or Wavelength
// Zone.
func (st *State) EdgeNodes() []*Node {
	var out []*Node
	for _, n := range st.Nodes {
		if _, ok := n.AWSEdgeZone(); ok {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// AWSEdgeZone is the node's zone and its type when the node sits in an AWS
// edge zone (the edge role, or a Local or Wavelength Zone name).
func (n *Node) AWSEdgeZone() (platform.AWSZoneType, bool) {
	zone := n.Labels[platform.ZoneLabel]
	_, typ, known := platform.AWSZone(zone)
	switch {
	case known && (typ == platform.AWSLocalZone || typ == platform.AWSWavelengthZone):
		return typ, true
	case strings.HasPrefix(n.ProviderID, "aws://") || known:
		if _, ok := n.Labels[platform.EdgeRoleLabel]; ok {
			return platform.AWSLocalZone, true
		}
	}
	return "", false
}

// PoolFile is a file of a rendered MachineConfig a pool names: the one its
// nodes run (status.configuration) or the one it rolls out
// (spec.configuration). MCO merges every MachineConfig the pool's
// machineConfigSelector takes into one rendered config, the last by name
// writing a path winning (machine-config-operator pkg/controller/common
// helpers.go MergeMachineConfigs); its daemon writes the rendered config's
// files on each node (pkg/daemon/update.go), and the pool's
// status.configuration becomes spec.configuration once every node runs it
// (pkg/controller/node status.go calculateStatus).
type PoolFile struct {
	Pool *Pool
	// Config is the rendered MachineConfig's name ("" when the pool names
	// none).
	Config string
	// Data is the file's content; nil when the state does not say it: the
	// rendered config is not in the state, or it holds no contents for the
	// path (an Insights archive strips spec.config.storage.files:
	// insights-operator docs/gathered-data.md "MachineConfigs"), or they
	// cannot be read (Err).
	Data []byte
	Err  error
}

// RunningFile is the file at path of the rendered config pool p's nodes
// run (status.configuration).
func (st *State) RunningFile(p *Pool, path string) PoolFile {
	return st.renderedFile(p, p.MCP.Status.Configuration.Name, path)
}

// TargetFile is the file at path of the rendered config pool p rolls out
// (spec.configuration).
func (st *State) TargetFile(p *Pool, path string) PoolFile {
	return st.renderedFile(p, p.MCP.Spec.Configuration.Name, path)
}

func (st *State) renderedFile(p *Pool, config, path string) PoolFile {
	out := PoolFile{Pool: p, Config: config}
	mc := st.Rendered[config]
	if config == "" || mc == nil {
		return out
	}
	for _, f := range mc.Config.Storage.Files {
		if f.Path == path {
			out.Data, out.Err = f.Data(MaxFileSize)
		}
	}
	if out.Err != nil {
		out.Data = nil
	}
	return out
}
