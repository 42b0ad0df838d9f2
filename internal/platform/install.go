package platform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Day0Kinds are the kinds of day-2 objects a site to be installed also
// hands the installer, so the cluster comes up with them instead of
// rebooting every node for them right after the installation: the docs
// "Installing a cluster with customizations" / "Customizing nodes"
// ("Adding day-1 kernel arguments": MachineConfigs in <installation_directory>/openshift),
// "Configuring image registry repository mirroring" (mirror sets), and
// "Ingress sharding" (IngressControllers created at install). The same bytes
// are applied again on day 2 (Argo CD), which changes nothing.
var Day0Kinds = map[[2]string]bool{
	{"machineconfiguration.openshift.io/v1", "MachineConfig"}:      true,
	{"config.openshift.io/v1", "ImageDigestMirrorSet"}:             true,
	{"config.openshift.io/v1", "ImageTagMirrorSet"}:                true,
	{"operator.openshift.io/v1alpha1", "ImageContentSourcePolicy"}: true,
	{"operator.openshift.io/v1", "IngressController"}:              true,
}

// Day0Kind reports whether objects of apiVersion and kind are applied at
// installation as well (Day0Kinds).
func Day0Kind(apiVersion, kind string) bool { return Day0Kinds[[2]string{apiVersion, kind}] }

// CheckPullSecret checks a pull secret as the installer does before it
// accepts install-config.yaml: openshift/installer
// pkg/types/validation/installconfig.go ValidateInstallConfig calls
// pkg/validate/validate.go ImagePullSecret, which decodes the JSON into
// {"auths": map[string]map[string]interface{}}, requires at least one auths
// entry ("auths required") and, in every entry, an "auth" or a "credsStore"
// field ("%q requires either auth or credsStore"). It returns the auths keys
// in file order. Its errors never quote the secret: not a key, not a value,
// not a byte of it (the installer's own message quotes the registry key, and
// its field.Invalid error the whole secret); they say where, by byte offset
// or by entry number.
func CheckPullSecret(data []byte) (keys []string, err error) {
	var top struct {
		Auths json.RawMessage `json:"auths"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, pullSecretJSONError(err)
	}
	auths := bytes.TrimSpace(top.Auths)
	if len(auths) == 0 || bytes.Equal(auths, []byte("null")) {
		return nil, &PullSecretError{Why: `has no "auths" object (the installer: auths required)`}
	}
	dec := json.NewDecoder(bytes.NewReader(auths))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, &PullSecretError{Why: `has an "auths" field that is not a JSON object`}
	}
	var bad []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, pullSecretJSONError(err)
		}
		key, _ := t.(string)
		var entry map[string]json.RawMessage
		if err := dec.Decode(&entry); err != nil {
			return nil, &PullSecretError{Why: fmt.Sprintf(`has an "auths" entry (number %d) that is not a JSON object`, len(keys)+1)}
		}
		keys = append(keys, key)
		_, auth := entry["auth"]
		_, store := entry["credsStore"]
		if !auth && !store {
			bad = append(bad, strconv.Itoa(len(keys)))
		}
	}
	if len(keys) == 0 {
		return nil, &PullSecretError{Why: `has an empty "auths" object (the installer: auths required)`}
	}
	if len(bad) > 0 {
		return nil, &PullSecretError{Why: fmt.Sprintf(`has "auths" entries (number %s of %d, in file order) with neither an "auth" nor a "credsStore" field (the installer requires one of them)`, strings.Join(bad, ", "), len(keys))}
	}
	return keys, nil
}

// PullSecretError is a pull secret the installer refuses; its text quotes
// nothing of the secret.
type PullSecretError struct{ Why string }

func (e *PullSecretError) Error() string { return "the pull secret " + e.Why }

// pullSecretJSONError describes a JSON error by offset only: the decoder's
// own text quotes the offending character.
func pullSecretJSONError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &PullSecretError{Why: fmt.Sprintf("is not JSON (syntax error at byte %d)", syn.Offset)}
	case errors.As(err, &typ):
		return &PullSecretError{Why: fmt.Sprintf("is not a JSON object with an \"auths\" object (wrong type at byte %d)", typ.Offset)}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &PullSecretError{Why: "is not JSON (it ends too early)"}
	}
	return &PullSecretError{Why: "is not JSON"}
}

// AuthKeyRegistry is the registry host[:port] a pull secret's auths key
// gives credentials for, as the container runtime on the nodes reads it
// (containers/image pkg/docker/config/config.go normalizeAuthFileKey: an
// http:// or https:// prefix is dropped with everything after the host, and
// docker.io and registry-1.docker.io are index.docker.io; a key
// "host/namespace" is looked up for images under that namespace only,
// authKeyLookupOrder).
func AuthKeyRegistry(key string) string {
	stripped := strings.TrimPrefix(strings.TrimPrefix(key, "http://"), "https://")
	host, _, _ := strings.Cut(stripped, "/")
	return normalizeDockerHost(host)
}

// MirrorHost is the registry host[:port] of an install-config mirror
// (imageDigestSources / imageContentSources mirrors): the installer accepts
// only a canonical repository name, whose first component is the registry,
// or a bare host[:port] (openshift/installer
// pkg/types/validation/installconfig.go validateNamedRepository).
func MirrorHost(mirror string) string {
	host, _, _ := strings.Cut(mirror, "/")
	return normalizeDockerHost(host)
}

func normalizeDockerHost(h string) string {
	switch h {
	case "registry-1.docker.io", "docker.io":
		return "index.docker.io"
	}
	return h
}
