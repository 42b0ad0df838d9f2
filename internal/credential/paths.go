package credential

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Node files that hold credentials. Whatever an Ignition config or a
// Butane body writes to one of them is a credential on the node: the pull
// secret is the cluster's global pull secret (openshift-config/pull-secret),
// which MCO writes to the kubelet's file; node certificates and keys are
// issued by the cluster's operators.

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
	"/root/.docker/config.json": "registry credentials",
	"/etc/containers/auth.json": "registry credentials",
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

// credentialDirNames are the keys of credentialDirs, sorted: Path tries
// them in this order.
var credentialDirNames = slices.Sorted(maps.Keys(credentialDirs))

// staticPodResources holds, per static pod, its configuration (MCO's own
// templates write keepalived and coredns files there) and its secrets and
// certificates: <dir>/secrets/<name>/ (library-go
// pkg/operator/staticpod/installerpod/cmd.go getSecretTargetDir) and the
// unrevisioned <component>-certs folders (cluster-kube-apiserver-operator and
// cluster-etcd-operator pkg/operator/starter.go WithUnrevisionedCerts).
const staticPodResources = "/etc/kubernetes/static-pod-resources/"

var (
	// an SSH host private key (sshd_config(5) HostKey:
	// /etc/ssh/ssh_host_<type>_key; the .pub is public)
	sshHostKey = regexp.MustCompile(`^/etc/ssh/ssh_host_[a-z0-9]+_key$`)
	// a user's SSH private key (ssh(1) FILES: ~/.ssh/id_rsa, id_ecdsa,
	// id_ed25519, ...; the .pub is public); on RHCOS the core user's home
	// is /var/home/core
	sshUserKey = regexp.MustCompile(`/\.ssh/id_[a-z0-9_]+$`)
	// a user's registry auth file, in any home: docker's
	// ~/.docker/config.json and its older ~/.dockercfg, podman's
	// ~/.config/containers/auth.json and ${XDG_RUNTIME_DIR}/containers/auth.json
	// (containers-auth.json(5): /run/user/<uid>/containers/auth.json, and
	// /run/containers/<uid>/auth.json for root)
	userAuthFile = regexp.MustCompile(`(/\.docker/config\.json|/\.dockercfg|/\.config/containers/auth\.json|^/run/user/[0-9]+/containers/auth\.json|^/run/containers/[0-9]+/auth\.json)$`)
	// a private key file by its name: *.key (openssl, kubernetes tls.key)
	// and the PEM names that say key (*-key.pem as cfssl and the kubelet
	// write them, *.key.pem, *_key.pem, privkey*.pem as certbot). A plain
	// *.pem is usually a certificate (a CA bundle in
	// /etc/pki/ca-trust/source/anchors): its contents are checked (In
	// reports a PEM private key wherever it is written).
	keyFile = regexp.MustCompile(`(\.key|[-_.]key\.pem|/privkey[^/]*\.pem)$`)
)

// Path says what a node path holds when it is a credential: a file of
// credentialFiles, a registry auth file or SSH private key in a home, a
// private key file by its name, or a path under a directory of keys and
// secrets (the answer then starts with "is under ").
func Path(p string) (string, bool) {
	c := path.Clean(p)
	if what, ok := credentialFiles[c]; ok {
		return what, true
	}
	for _, d := range credentialDirNames {
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
	switch {
	case sshHostKey.MatchString(c):
		return "an SSH host private key", true
	case sshUserKey.MatchString(c):
		return "an SSH private key", true
	case userAuthFile.MatchString(c):
		return "registry credentials", true
	case keyFile.MatchString(c):
		return "a private key", true
	}
	return "", false
}
