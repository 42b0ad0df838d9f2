package butane

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/ignition"
)

// Credentials never belong in a site: site files live in Git and render into
// MachineConfigs any cluster reader can see. The pull secret is the cluster's
// global pull secret (openshift-config/pull-secret), referenced, never
// embedded (docs "Updating the global cluster pull secret"); node
// certificates and keys are issued by the cluster's operators.
//
// The check looks at what Ignition will write, not at the YAML text: every
// string of the body with YAML anchors and merge keys resolved, data: URLs
// decoded (base64 or percent-encoded, gzip-compressed or not), base64 runs
// of a PEM block decoded, systemd units and drop-ins included.

// credentialFiles are node files that hold credentials.
var credentialFiles = map[string]string{
	// MCO templates/common/_base/files/pull-secret.yaml; constants.KubeletAuthFile
	"/var/lib/kubelet/config.json": "the kubelet's copy of the global pull secret",
	// MCO pkg/daemon/image_manager_helper.go internalRegistryAuthFile
	"/etc/mco/internal-registry-pull-secret.json": "the internal registry's pull secret",
	// MCO pkg/server/server.go defaultMachineKubeConfPath (appendKubeConfig)
	"/etc/kubernetes/kubeconfig": "the node's bootstrap kubeconfig and its token",
	// MCO pkg/daemon/writer.go nodeWriterKubeconfigPath
	"/var/lib/kubelet/kubeconfig": "the kubelet's kubeconfig",
	// registry auth files of podman, skopeo and docker (containers-auth.json(5))
	"/root/.docker/config.json":   "registry credentials",
	"/etc/containers/auth.json":   "registry credentials",
	"/run/containers/0/auth.json": "registry credentials",
}

// credentialDirs are node directories whose files are certificates, keys
// and secrets: nothing may be written under them.
var credentialDirs = map[string]string{
	// kubelet --cert-dir default (k8s.io/kubernetes cmd/kubelet/app/options
	// NewKubeletFlags CertDirectory): kubelet-client/server-current.pem
	"/var/lib/kubelet/pki": "the kubelet's client and serving certificates and private keys",
	// kubelet root dir pods/ (kubeletconfig DefaultKubeletPodsDirName):
	// volumes, projected service account tokens included
	"/var/lib/kubelet/pods": "the pods' volumes, service account tokens included",
	// where kube-apiserver mounts its certificates (cluster-kube-apiserver-
	// operator bindata/assets/kube-apiserver/pod.yaml); on the node they are
	// static-pod-resources/kube-apiserver-certs, below
	"/etc/kubernetes/static-pod-certs": "the control plane's certificates and private keys",
	// the usual RHEL directory of private keys (RHEL "Securing networks":
	// /etc/pki/tls/private)
	"/etc/pki/tls/private": "private keys",
}

// staticPodResources holds, per static pod, its configuration (MCO's own
// templates write keepalived and coredns files there) and its secrets and
// certificates: <dir>/secrets/<name>/ (library-go
// pkg/operator/staticpod/installerpod/cmd.go getSecretTargetDir) and the
// unrevisioned <component>-certs folders (cluster-kube-apiserver-operator and
// cluster-etcd-operator pkg/operator/starter.go WithUnrevisionedCerts).
const staticPodResources = "/etc/kubernetes/static-pod-resources/"

// sshHostKey is an SSH host private key (sshd_config(5) HostKey:
// /etc/ssh/ssh_host_<type>_key; the .pub is public).
var sshHostKey = regexp.MustCompile(`^/etc/ssh/ssh_host_[a-z0-9]+_key$`)

// credentialPath says what a node path holds when it is a credential.
func credentialPath(p string) (string, bool) {
	c := path.Clean(p)
	if what, ok := credentialFiles[c]; ok {
		return what, true
	}
	dirs := make([]string, 0, len(credentialDirs))
	for d := range credentialDirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if c == d || strings.HasPrefix(c, d+"/") {
			return "is under " + d + ", which holds " + credentialDirs[d], true
		}
	}
	if rest, ok := strings.CutPrefix(c, staticPodResources); ok {
		parts := strings.Split(rest, "/")
		for i, part := range parts {
			if strings.HasSuffix(part, "-certs") || (part == "secrets" && i < len(parts)-1) {
				dir := staticPodResources + strings.Join(parts[:i+1], "/")
				return "is under " + dir + ", which holds a static pod's certificates, keys and secrets", true
			}
		}
	}
	if sshHostKey.MatchString(c) {
		return "an SSH host private key", true
	}
	return "", false
}

var (
	// every PEM private key kind (PKCS#1 RSA, SEC1 EC, DSA, PKCS#8 plain
	// and encrypted, OpenSSH) and PGP secret key blocks; PuTTY key files
	privateKey = regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d+:`)
	// kubeconfig credentials (users[].user) and the like, one per line
	kubeconfigPW = regexp.MustCompile(`(?m)^\s*["']?(client-key-data|token|password|access-token|refresh-token|id-token)["']?\s*:\s*["']?\S`)
	// a base64 run of a PEM block: "-----BEGIN" encoded at any of the three
	// byte alignments
	// a registry auth file's shape, where the text is not a whole
	// document (auths inside a unit's heredoc)
	authsText = regexp.MustCompile(`"auths"\s*:\s*\{[\s\S]*"(auth|password|identitytoken|registrytoken)"\s*:\s*"[^"]`)
	base64PEM = regexp.MustCompile(`(?:LS0tLS1CRUdJT|0tLS0tQkVHSU|tLS0tLUJFR0lO)[A-Za-z0-9+/=\r\n]*`)
)

// maxDecoded bounds what one value may decode or decompress to.
const maxDecoded = 16 << 20

// secretIn names the kind of secret text holds ("" for none).
func secretIn(text []byte, depth int) string {
	switch {
	case privateKey.Match(text):
		return "a private key"
	case registryAuths(text):
		return "registry credentials"
	case kubeconfigPW.Match(text):
		return "kubeconfig credentials or a password"
	}
	if depth > 2 {
		return ""
	}
	if bytes.HasPrefix(text, []byte("data:")) {
		if b, err := ignition.Contents(string(text), "", maxDecoded); err == nil {
			if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
				if z, err := ignition.Gunzip(b, maxDecoded); err == nil {
					b = z
				}
			}
			if s := secretIn(b, depth+1); s != "" {
				return s
			}
		}
	}
	if len(text) > 2 && text[0] == 0x1f && text[1] == 0x8b {
		if z, err := ignition.Gunzip(text, maxDecoded); err == nil {
			if s := secretIn(z, depth+1); s != "" {
				return s
			}
		}
	}
	for _, run := range base64PEM.FindAll(text, -1) {
		clean := bytes.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, run)
		for off := 0; off < 3 && off < len(clean); off++ {
			b, err := base64.StdEncoding.DecodeString(trimBase64(string(clean[off:])))
			if err == nil {
				if s := secretIn(b, depth+1); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// trimBase64 cuts s to a whole number of base64 quanta.
func trimBase64(s string) string {
	s = strings.TrimRight(s, "=")
	s = s[:len(s)-len(s)%4]
	return s
}

// registryAuths reports a container auth file (Docker config.json,
// containers auth.json), JSON or YAML, with a credential for any registry.
func registryAuths(text []byte) bool {
	if !bytes.Contains(text, []byte("auths")) {
		return false
	}
	var doc struct {
		Auths map[string]map[string]any `yaml:"auths"`
	}
	if yaml.Unmarshal(text, &doc) != nil {
		// not YAML or JSON as a whole: look for the shape in the text
		return authsText.Match(text)
	}
	for _, entry := range doc.Auths {
		for _, k := range []string{"auth", "password", "identitytoken", "registrytoken"} {
			if v, ok := entry[k].(string); ok && v != "" {
				return true
			}
		}
	}
	return false
}

// checkSecrets refuses a user's Butane body that writes credentials: to a
// credential path, or in any contents Ignition would write.
func (m *mapper) checkSecrets(body []byte) diag.List {
	var doc yaml.Node
	if yaml.Unmarshal(body, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	var out diag.List
	storage := lookup(root, "storage")
	for _, section := range []string{"files", "links", "directories", "trees"} {
		list := resolve(lookup(storage, section))
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for _, e := range list.Content {
			p := resolve(lookup(e, "path"))
			if p == nil || p.Kind != yaml.ScalarNode {
				continue
			}
			if what, ok := credentialPath(p.Value); ok {
				msg := fmt.Sprintf("%s holds %s: a site never embeds credentials", p.Value, what)
				if strings.HasPrefix(what, "is under ") {
					msg = fmt.Sprintf("%s %s: a site never writes there", p.Value, what)
				}
				out = append(out, m.diag(m.bodyPos(p.Line, p.Column), "storage."+section+".path", msg,
					"keep credentials out of Git: update the global pull secret (openshift-config/pull-secret) or use a Secret, and reference it; node certificates and keys are the cluster operators' to issue"))
			}
		}
	}
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node, key string)
	walk = func(n *yaml.Node, key string) {
		n = resolve(n)
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		switch n.Kind {
		case yaml.ScalarNode:
			if kind := secretIn([]byte(n.Value), 0); kind != "" {
				out = append(out, m.diag(m.bodyPos(n.Line, n.Column), "",
					fmt.Sprintf("%s a secret (%s): a site never embeds credentials", describeKey(key), kind),
					"keep credentials out of Git: put them in a Secret or the global pull secret and reference it"))
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], n.Content[i].Value)
			}
		case yaml.SequenceNode, yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, key)
			}
		}
	}
	walk(root, "")
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

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// lookup returns the value of key in mapping n, through aliases and YAML
// merge keys (<<).
func lookup(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case key:
			return n.Content[i+1]
		case "<<":
			v := resolve(n.Content[i+1])
			if v != nil && v.Kind == yaml.SequenceNode {
				merged = append(merged, v.Content...)
			} else {
				merged = append(merged, v)
			}
		}
	}
	for _, mm := range merged {
		if v := lookup(mm, key); v != nil {
			return v
		}
	}
	return nil
}
