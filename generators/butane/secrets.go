package butane

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/siteforge/siteforge/internal/diag"
)

// Credentials never belong in a site: site files live in Git and render into
// MachineConfigs any cluster reader can see. The pull secret is the cluster's
// global pull secret (openshift-config/pull-secret), referenced, never
// embedded (docs "Updating the global cluster pull secret").
var credentialFiles = map[string]string{
	"/var/lib/kubelet/config.json":     "the kubelet's copy of the global pull secret",
	"/root/.docker/config.json":        "registry credentials",
	"/etc/containers/auth.json":        "registry credentials",
	"/run/containers/0/auth.json":      "registry credentials",
	"/etc/kubernetes/kubeconfig":       "a kubeconfig",
	"/var/lib/kubelet/kubeconfig":      "the kubelet's kubeconfig",
	"/etc/kubernetes/static-pod-certs": "certificates and keys",
}

var (
	privateKey   = regexp.MustCompile(`-----BEGIN ([A-Z]+ )?PRIVATE KEY-----`)
	dockerAuths  = regexp.MustCompile(`"auths"\s*:\s*\{[^}]*"auth"\s*:`)
	kubeconfigPW = regexp.MustCompile(`(?m)^\s*(client-key-data|token|password)\s*:\s*\S`)
)

// checkSecrets refuses a user's Butane body that writes credentials: a
// credential file path, or inline contents holding a private key, registry
// auths or kubeconfig secrets.
func (m *mapper) checkSecrets(body []byte) diag.List {
	var doc yaml.Node
	if yaml.Unmarshal(body, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	var out diag.List
	files := find(doc.Content[0], "storage", "files")
	if files == nil || files.Kind != yaml.SequenceNode {
		return nil
	}
	for _, f := range files.Content {
		if p := find(f, "path"); p != nil {
			if what, ok := credentialFiles[strings.TrimRight(p.Value, "/")]; ok {
				out = append(out, m.diag(m.bodyPos(p.Line, p.Column), "storage.files.path",
					fmt.Sprintf("%s holds %s: a site never embeds credentials", p.Value, what),
					"keep credentials out of Git: update the global pull secret (openshift-config/pull-secret) or use a Secret, and reference it"))
				continue
			}
		}
		if in := find(f, "contents", "inline"); in != nil {
			for _, re := range []*regexp.Regexp{privateKey, dockerAuths, kubeconfigPW} {
				if re.MatchString(in.Value) {
					out = append(out, m.diag(m.bodyPos(in.Line, in.Column), "storage.files.contents.inline",
						"inline contents hold a secret (a private key, registry auths or kubeconfig credentials): a site never embeds credentials",
						"keep credentials out of Git: put them in a Secret or the global pull secret and reference it"))
					break
				}
			}
		}
	}
	return out
}

// find walks mapping keys.
func find(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}
