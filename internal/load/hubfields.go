package load

import (
	"fmt"
	"strings"

	"github.com/siteforge/siteforge/internal/credential"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// checkInstallFields checks the install fields the installers read as
// text or only on some releases: cpuPartitioningMode's release, the JSON
// texts a ClusterInstance carries (installConfigOverrides and
// ignitionConfigOverride objects, installerArgs a list of strings) and that
// they hold no credential, and a node's hub section only on a hub install.
func checkInstallFields(s *site.Site) diag.List {
	var out diag.List
	in := s.Install
	if in == nil {
		in = &site.Install{}
	}
	if in.CPUPartitioningMode != "" {
		if minor, err := s.Minor(); err == nil && minor < platform.CPUPartitioningInstallSince {
			out = append(out, s.At("install.cpuPartitioningMode",
				fmt.Sprintf("cpuPartitioningMode needs OpenShift %s or later, this is %s: the installer of %s takes it only as a tech preview (openshift/installer pkg/types/installconfig.go InstallConfig CPUPartitioning)", platform.CPUPartitioningInstallSince, minor, minor),
				"remove install.cpuPartitioningMode, or install a later release"))
		}
	}
	if h := in.Hub; h != nil {
		out = append(out, jsonText(s, "install.hub.installConfigOverrides", h.InstallConfigOverrides, platform.JSONObject)...)
		out = append(out, jsonText(s, "install.hub.ignitionConfigOverride", h.IgnitionConfigOverride, platform.JSONObject)...)
	}
	for _, pname := range s.PoolNames() {
		for i, n := range s.Pools[pname].Nodes {
			if n.Hub == nil {
				continue
			}
			at := func(f ...any) string {
				return site.FieldPath(append([]any{"pools", pname, "nodes", i, "hub"}, f...)...)
			}
			if !s.HubInstalled() {
				out = append(out, s.At(at(),
					fmt.Sprintf("node %s has a hub section, but installMethod %q is not installed from a hub: nothing reads it", n.Name, s.Cluster.InstallMethod),
					`remove it, or install with installMethod "assisted" or "image-based"`))
				continue
			}
			out = append(out, jsonText(s, at("installerArgs"), n.Hub.InstallerArgs, platform.JSONStringsList)...)
			out = append(out, jsonText(s, at("ignitionConfigOverride"), n.Hub.IgnitionConfigOverride, platform.JSONObject)...)
		}
	}
	return out
}

// jsonText checks a JSON text of a ClusterInstance: that it holds no
// credential (the ClusterInstance is in git and on the hub), and its JSON
// and shape under lint's rule for the same fact on a ClusterInstance
// (ruleid.ClusterInstanceJSON, platform.ClusterInstanceJSONProblem).
func jsonText(s *site.Site, path, text string, shape byte) diag.List {
	if text == "" {
		return nil
	}
	if what := credential.Find([]byte(text)); what != "" {
		return diag.List{s.At(path, fmt.Sprintf("the text holds %s: a site never embeds credentials (the ClusterInstance is in git and on the hub)", what),
			"keep credentials out of git: put them in a Secret on the hub or the cluster and reference it")}
	}
	if p := platform.ClusterInstanceJSONProblem(text, shape); p != "" {
		hint := `write it as JSON: '{"key": "value"}'`
		if shape == platform.JSONStringsList {
			hint = `write it as JSON: '["--append-karg", "rd.multipath=default"]'`
		}
		field := path[strings.LastIndexByte(path, '.')+1:]
		d := s.At(path, field+" "+p, hint)
		d.Rule = ruleid.ClusterInstanceJSON
		return diag.List{d}
	}
	return nil
}
