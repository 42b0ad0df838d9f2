package importer

import (
	"fmt"
	"slices"

	"github.com/siteforge/siteforge/internal/credential"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// The ClusterInstance fields a site carries as written (install.hub and a
// node's hub section; cpuPartitioningMode and proxy in install, shared
// with install-config): imported as they are, but for what vet would
// refuse (a value outside the CRD's enum, a JSON text of the wrong shape)
// and what holds a credential, left out with a warning each.

// proxyOf is install.proxy of a proxy, nil when it has none or when it
// holds a credential (user-info in a URL, anything Find reports in
// noProxy): then warn says so.
func proxyOf(p *upstream.Proxy, warn func(msg, hint string)) map[string]any {
	if p == nil || *p == (upstream.Proxy{}) {
		return nil
	}
	const hint = "set install.proxy without the credentials, and give the proxy's credentials to the cluster out of band"
	if credential.URLUserInfo(p.HTTPProxy) || credential.URLUserInfo(p.HTTPSProxy) {
		warn("proxy holds a credential (user-info in a URL): left out (siteforge never copies a secret)", hint)
		return nil
	}
	if what := credential.Find([]byte(p.NoProxy)); what != "" {
		warn(fmt.Sprintf("proxy noProxy holds %s: left out (siteforge never copies a secret)", what), hint)
		return nil
	}
	out := map[string]any{}
	set := func(k, v string) {
		if v != "" {
			out[k] = v
		}
	}
	set("httpProxy", p.HTTPProxy)
	set("httpsProxy", p.HTTPSProxy)
	set("noProxy", p.NoProxy)
	return out
}

// jsonField imports a JSON text of a ClusterInstance, or warns why not.
func jsonField(m map[string]any, key, text string, shape byte, warn func(msg, hint string, p ...string), p ...string) {
	if text == "" {
		return
	}
	if what := credential.Find([]byte(text)); what != "" {
		warn(fmt.Sprintf("%s holds %s: left out (siteforge never copies a secret)", key, what),
			"write it without the credential: the secret belongs in a Secret on the hub or the cluster", p...)
		return
	}
	if problem := platform.ClusterInstanceJSONProblem(text, shape); problem != "" {
		warn(fmt.Sprintf("%s %s: left out", key, problem), "write it as the siteconfig operator takes it, in the site", p...)
		return
	}
	m[key] = text
}

// oneOf imports a value of an enum, or warns that the CRD refuses it.
func oneOf(m map[string]any, key, v string, allowed []string, warn func(msg, hint string, p ...string), p ...string) {
	if v == "" {
		return
	}
	if !slices.Contains(allowed, v) {
		warn(fmt.Sprintf("%s %q is not imported: the ClusterInstance takes one of %v", key, diag.Clean(v), allowed), "set it in the site", p...)
		return
	}
	m[key] = v
}

// annotations and kinds as the site writes them.
func annotations(a map[string]map[string]string) map[string]any {
	if len(a) == 0 {
		return nil
	}
	out := map[string]any{}
	for kind, m := range a {
		kv := map[string]any{}
		for k, v := range m {
			kv[k] = v
		}
		out[kind] = kv
	}
	return out
}

// hubFields adds to install.hub the ClusterInstanceSpec fields it carries
// as written.
func hubFields(hub map[string]any, spec upstream.ClusterInstanceSpec, warn func(msg, hint string, p ...string)) {
	oneOf(hub, "cpuArchitecture", spec.CPUArchitecture, platform.ClusterInstanceCPUArchitectures, warn, "spec", "cpuArchitecture")
	if spec.HoldInstallation {
		hub["holdInstallation"] = true
	}
	jsonField(hub, "installConfigOverrides", spec.InstallConfigOverrides, platform.JSONObject, warn, "spec", "installConfigOverrides")
	jsonField(hub, "ignitionConfigOverride", spec.IgnitionConfigOverride, platform.JSONObject, warn, "spec", "ignitionConfigOverride")
	if a := annotations(spec.ExtraAnnotations); a != nil {
		hub["extraAnnotations"] = a
	}
	setList(hub, "suppressedManifests", strs(spec.SuppressedManifests))
	if d := spec.DiskEncryption; d != nil && d.Type != "" {
		if !slices.Contains(platform.ClusterInstanceDiskEncryptionTypes, d.Type) {
			warn(fmt.Sprintf("diskEncryption type %q is not imported: one of %v", diag.Clean(d.Type), platform.ClusterInstanceDiskEncryptionTypes), "set install.hub.diskEncryption", "spec", "diskEncryption", "type")
			return
		}
		de := map[string]any{"type": d.Type}
		var tang []any
		for _, t := range d.Tang {
			tang = append(tang, map[string]any{"url": t.URL, "thumbprint": t.Thumbprint})
		}
		setList(de, "tang", tang)
		hub["diskEncryption"] = de
	}
}

// hubNodeFields is a node's hub section: the NodeSpec fields it carries as
// written.
func hubNodeFields(n upstream.NodeSpec, warn func(msg, hint string, p ...string)) map[string]any {
	h := map[string]any{}
	if len(n.NodeLabels) > 0 {
		labels := map[string]any{}
		for k, v := range n.NodeLabels {
			labels[k] = v
		}
		h["nodeLabels"] = labels
	}
	jsonField(h, "installerArgs", n.InstallerArgs, platform.JSONStringsList, warn, "installerArgs")
	jsonField(h, "ignitionConfigOverride", n.IgnitionConfigOverride, platform.JSONObject, warn, "ignitionConfigOverride")
	oneOf(h, "automatedCleaningMode", n.AutomatedCleaningMode, platform.ClusterInstanceAutomatedCleaningModes, warn, "automatedCleaningMode")
	oneOf(h, "ironicInspect", n.IronicInspect, []string{platform.IronicInspectDisabled}, warn, "ironicInspect")
	if a := annotations(n.ExtraAnnotations); a != nil {
		h["extraAnnotations"] = a
	}
	setList(h, "suppressedManifests", strs(n.SuppressedManifests))
	return h
}
