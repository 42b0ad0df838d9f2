package butane

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/siteforge/siteforge/internal/credential"
	"github.com/siteforge/siteforge/internal/diag"
)

// Credentials never belong in a site: site files live in Git and render into
// MachineConfigs any cluster reader can see. The pull secret is the cluster's
// global pull secret (openshift-config/pull-secret), referenced, never
// embedded (docs "Updating the global cluster pull secret"); node
// certificates and keys are issued by the cluster's operators.
//
// The check is internal/credential's, the one import and the snippets use:
// it looks at what Ignition will write, not at the YAML text (every string
// of the body with YAML anchors and merge keys resolved, data: URLs decoded,
// base64 runs of a PEM block or a registry auth file decoded, systemd units
// and drop-ins included), and at the node paths that hold credentials.

// checkSecrets refuses a user's Butane body that writes credentials: to a
// credential path (any entry of storage, contents or not), or in any
// contents Ignition would write.
func (m *mapper) checkSecrets(body []byte) diag.List {
	var doc yaml.Node
	if yaml.Unmarshal(body, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	var out diag.List
	storage := credential.Lookup(root, "storage")
	for _, section := range []string{"files", "links", "directories", "trees"} {
		list := credential.Resolve(credential.Lookup(storage, section))
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for _, e := range list.Content {
			p := credential.Resolve(credential.Lookup(e, "path"))
			if p == nil || p.Kind != yaml.ScalarNode {
				continue
			}
			if what, ok := credential.Path(p.Value); ok {
				msg := fmt.Sprintf("%s holds %s: a site never embeds credentials", p.Value, what)
				if strings.HasPrefix(what, "is under ") {
					msg = fmt.Sprintf("%s %s: a site never writes there", p.Value, what)
				}
				out = append(out, m.diag(m.bodyPos(p.Line, p.Column), "storage."+section+".path", msg,
					"keep credentials out of Git: update the global pull secret (openshift-config/pull-secret) or use a Secret, and reference it; node certificates and keys are the cluster operators' to issue"))
			}
		}
	}
	// the strings; the paths are above, for every storage section
	credential.WalkStrings(root, func(f credential.Finding) bool {
		out = append(out, m.diag(m.bodyPos(f.Node.Line, f.Node.Column), "",
			fmt.Sprintf("%s a secret (%s): a site never embeds credentials", describeKey(f.Key), f.What),
			"keep credentials out of Git: put them in a Secret or the global pull secret and reference it"))
		return true
	})
	return out
}

func describeKey(key string) string {
	switch key {
	case "inline":
		return "inline contents hold"
	case "contents":
		return "contents hold"
	case "source":
		return "the contents source holds"
	case "":
		return "the body holds"
	}
	return "the value of " + key + " holds"
}
