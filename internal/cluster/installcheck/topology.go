package installcheck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
)

// The topology checks: single-node and image-based installs, and the
// control-plane sizes the installers accept.

// singleNode: platform none takes no VIPs (its install-config section has no
// VIP fields: openshift/installer pkg/types/none/platform.go; "API VIPs
// cannot be set with User Managed Networking": assisted-service
// ValidateVIPsWereNotSetUserManagedNetworking), and one control-plane node
// without workers needs platform none or external, with the agent-based
// installer ("Only platform none and external supports 1 ControlPlane and 0
// Compute nodes": pkg/asset/agent/installconfig.go validateSNOConfiguration)
// and the assisted service ("Single node cluster is not supported alongside
// %s platform": internal/cluster/validations/validations.go
// ValidateControlPlaneCountWithPlatform).
func (c *checker) singleNode() {
	f := c.f
	if f.Platform == platform.PlatformNone {
		for _, vs := range [][]Value{f.APIVIPs, f.IngressVIPs} {
			for _, v := range vs {
				c.add(CheckSingleNode, v.Key, nil,
					fmt.Sprintf("platform none takes no VIPs, but %s is one: the user's own load balancer and DNS carry the API and ingress (the installer's none platform has no VIP fields; the assisted service: VIPs cannot be set with User Managed Networking)", v.V),
					"remove apiVIPs and ingressVIPs, or use platform baremetal (VIPs on keepalived) with three or more control-plane nodes")
			}
		}
	}
	if f.Method != MethodAgent && f.Method != MethodAssisted {
		return
	}
	if f.ControlPlane == 1 && f.Workers > 0 {
		// openshift/installer pkg/asset/agent/installconfig.go
		// validateSNOConfiguration: "Total number of compute replicas must
		// be 0 when controlPlane.replicas is 1 for platform none or
		// external. Found N" (and, before platforms were named, the same
		// rule for every platform); openshift/assisted-service
		// internal/cluster/validator.go: "Single-node clusters must have a
		// single control plane node and no workers."
		msg := fmt.Sprintf("a single control-plane node with %d workers: the agent-based installer installs a single node only without workers (the compute replicas must be 0 when controlPlane.replicas is 1)", f.Workers)
		if f.Method == MethodAssisted {
			msg = fmt.Sprintf("a single control-plane node with %d workers: the assisted service installs a single-node cluster only without workers (\"Single-node clusters must have a single control plane node and no workers\")", f.Workers)
		}
		c.add(CheckSingleNode, f.WorkersKey, nil, msg,
			"install the single node without workers and add them after the installation, or install three control-plane nodes")
	}
	if f.ControlPlane == 1 && f.Workers == 0 && f.Platform != platform.PlatformNone && f.Platform != "external" && f.Platform != "" {
		tool := "the agent-based installer"
		if f.Method == MethodAssisted {
			tool = "the assisted service"
		}
		c.add(CheckSingleNode, f.PlatformKey, nil,
			fmt.Sprintf("a single-node cluster (1 control-plane node, no workers) on platform %s: %s installs one only on platform none or external", f.Platform, tool),
			"set the platform to none (and remove the VIPs: a single node answers on its own IP), or add control-plane nodes")
	}
}

// imageBased: what the siteconfig operator's image-based templates can
// install (stolostron/siteconfig internal/templates/image-based-installer/template.go):
// one node (ImageClusterInstall is a node-level template named after the
// cluster, with one hostname and one bareMetalHostRef), no VIPs (no template
// reads them), and a bare-metal host on platform baremetal or none (the
// ClusterDeployment is platform none). platform.ImageBasedNodes,
// platform.ImageBasedPlatforms.
func (c *checker) imageBased() {
	f := c.f
	if f.Method != MethodImage {
		return
	}
	const why = "the siteconfig operator's image-based templates render one ImageClusterInstall per node, named after the cluster, with that node's hostname and bareMetalHostRef (stolostron/siteconfig internal/templates/image-based-installer/template.go ImageClusterInstall)"
	if f.ControlPlane >= 0 && f.ControlPlane != platform.ImageBasedNodes {
		c.add(CheckImageBased, f.ControlPlaneKey, nil,
			fmt.Sprintf("an image-based install installs exactly %d control-plane node, not %d: %s", platform.ImageBasedNodes, f.ControlPlane, why),
			`install one control-plane node (single-node OpenShift), or use installMethod "assisted" for a multi-node cluster`)
	}
	if f.Workers > 0 {
		c.add(CheckImageBased, f.WorkersKey, nil,
			fmt.Sprintf("an image-based install installs a single node without workers, not with %d: %s", f.Workers, why),
			"install the single node without workers and add workers after the installation, or use installMethod \"assisted\"")
	}
	if f.Platform != "" && !slices.Contains(platform.ImageBasedPlatforms, f.Platform) {
		c.add(CheckImageBased, f.PlatformKey, nil,
			fmt.Sprintf("platform %q cannot be installed by an image-based install: it installs a bare-metal host registered by its BMC, and its ClusterDeployment has platform none (stolostron/siteconfig internal/templates/image-based-installer/template.go ClusterDeployment, BareMetalHost)", f.Platform),
			fmt.Sprintf("use platform %s, or installMethod \"ipi\" for a cloud", strings.Join(quoted(platform.ImageBasedPlatforms), " or ")))
	}
	if f.Platform == platform.PlatformNone {
		return // singleNode reports the VIPs of platform none
	}
	for _, vs := range [][]Value{f.APIVIPs, f.IngressVIPs} {
		for _, v := range vs {
			c.add(CheckImageBased, v.Key, nil,
				fmt.Sprintf("an image-based install configures no VIPs, but %s is one: no image-based template reads apiVIPs or ingressVIPs, and the single node answers on its own IP (stolostron/siteconfig internal/templates/image-based-installer/template.go)", v.V),
				"remove apiVIPs and ingressVIPs, and point the api and *.apps DNS records at the node's IP")
		}
	}
}

func quoted(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.Quote(v)
	}
	return out
}

// controlPlane: the control-plane sizes the agent-based installer and the
// assisted service accept (platform.ControlPlaneSizes).
func (c *checker) controlPlane() {
	f := c.f
	if f.Method != MethodAgent && f.Method != MethodAssisted || f.ControlPlane < 0 {
		return
	}
	minor, release := f.Minor, "the latest release"
	if minor == 0 {
		minor = platform.LatestMinor
	} else {
		release = minor.String()
	}
	n := f.ControlPlane
	sizes := platform.ControlPlaneSizes(minor)
	if slices.Contains(sizes, n) {
		return
	}
	if n == 2 && f.TwoNode && minor >= platform.TwoNodeArbiterSince {
		return
	}
	tool := "the agent-based installer"
	if f.Method == MethodAssisted {
		tool = "the assisted service"
	}
	msg := fmt.Sprintf("%d control-plane nodes: %s accepts %s on %s", n, tool, orList(sizes), release)
	hint := "use " + orList(sizes) + " control-plane nodes"
	switch {
	case n == 2:
		msg += fmt.Sprintf(" (two control-plane nodes only as a two-node cluster with an arbiter, from %s, or with fencing, from %s)", platform.TwoNodeArbiterSince, platform.TwoNodeFencingSince)
		if f.Minor != 0 && minor < platform.TwoNodeArbiterSince {
			hint += fmt.Sprintf("; a two-node cluster needs %s or later", platform.TwoNodeArbiterSince)
		}
	case (n == 4 || n == 5) && minor < platform.ControlPlaneFlexibleSince:
		msg += fmt.Sprintf(" (4 and 5 from %s)", platform.ControlPlaneFlexibleSince)
		hint += fmt.Sprintf(", or install %s or later", platform.ControlPlaneFlexibleSince)
	}
	c.add(CheckControlPlane, f.ControlPlaneKey, nil, msg, hint)
}

func orList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}
