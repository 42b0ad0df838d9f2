package fidelity

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// The ClusterInstance CRD is not embedded: it is upstream data (stolostron/siteconfig
// config/crd/bases/siteconfig.open-cluster-management.io_clusterinstances.yaml) kept next to the
// repository, in ../shared/upstream/siteconfig/ from the repository root, and never copied into
// the project. Tests that validate ClusterInstances register it when it is there and skip, saying
// so, when it is not.

// SiteconfigCRDFile is the CRD's path under the shared folder.
const SiteconfigCRDFile = "upstream/siteconfig/siteconfig.open-cluster-management.io_clusterinstances.yaml"

// crdServedGVK is the group, first served version and kind a CRD defines:
// the kind is registered as the CRD says, not as the code under test says.
func crdServedGVK(crdYAML []byte) (schema.GroupVersionKind, error) {
	var crd struct {
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
			Versions []struct {
				Name   string `json:"name"`
				Served bool   `json:"served"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(crdYAML, &crd); err != nil {
		return schema.GroupVersionKind{}, err
	}
	for _, v := range crd.Spec.Versions {
		if v.Served {
			return schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}, nil
		}
	}
	return schema.GroupVersionKind{}, fmt.Errorf("the CRD serves no version")
}

// ErrNoSharedCRD says the shared upstream folder, or the CRD in it, is absent.
var ErrNoSharedCRD = errors.New("the ClusterInstance CRD is not there")

var clusterInstanceOnce struct {
	sync.Once
	err error
}

// RegisterClusterInstance registers ClusterInstance with the upstream CRD found in the shared
// folder (../shared from the repository root, found from the working directory), newObj being the
// Go type rendered ClusterInstances strictly decode into. It registers once per process; later
// calls return the first result. The error wraps ErrNoSharedCRD when the CRD is absent.
func RegisterClusterInstance(newObj func() any) error {
	clusterInstanceOnce.Do(func() {
		file, err := sharedFile(SiteconfigCRDFile)
		if err != nil {
			clusterInstanceOnce.err = err
			return
		}
		crd, err := os.ReadFile(file)
		if err != nil {
			clusterInstanceOnce.err = fmt.Errorf("%w: %v", ErrNoSharedCRD, err)
			return
		}
		gvk, err := crdServedGVK(crd)
		if err != nil {
			clusterInstanceOnce.err = fmt.Errorf("%s: %w", file, err)
			return
		}
		clusterInstanceOnce.err = Register(gvk, newObj, crd)
	})
	return clusterInstanceOnce.err
}

// sharedFile finds rel under <repository root>/../shared.
func sharedFile(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		// the repository root: the main module's go.mod
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/siteforge/siteforge\n")) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%w: no go.mod above the working directory", ErrNoSharedCRD)
		}
		dir = parent
	}
	file := filepath.Join(filepath.Dir(dir), "shared", filepath.FromSlash(rel))
	if _, err := os.Stat(file); err != nil {
		return "", fmt.Errorf("%w: %s is absent (the shared upstream data lives in ../shared from the repository root)", ErrNoSharedCRD, file)
	}
	return file, nil
}

// CheckExtraManifestsRefs checks the references of the ClusterInstance in files[ciPath] (files:
// one site's output, path -> bytes): every spec.extraManifestsRefs entry names a ConfigMap written
// in the same folder, in the ClusterInstance's namespace; every key of it is a manifest file name
// the siteconfig operator and assisted-service accept (a ConfigMap key ending in one of
// keyExts (the caller passes platform.ExtraManifestKeyExtensions), no leading dot), unique across the ConfigMaps
// (assisted-service clusterdeployments_controller.go getClusterDeploymentManifest refuses a name
// twice); every value is whole objects that pass CheckStream; and every ConfigMap passes Check.
// It returns the problems found.
func CheckExtraManifestsRefs(files map[string][]byte, ciPath string, keyExts []string) []error {
	var ci struct {
		Metadata struct {
			Namespace string `json:"namespace"`
		} `json:"metadata"`
		Spec struct {
			ExtraManifestsRefs []struct {
				Name string `json:"name"`
			} `json:"extraManifestsRefs"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(files[ciPath], &ci); err != nil {
		return []error{fmt.Errorf("%s: %v", ciPath, err)}
	}
	// The ConfigMaps written next to the ClusterInstance, by name.
	cms := map[string]*corev1.ConfigMap{}
	cmPath := map[string]string{}
	dir := path.Dir(ciPath)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if path.Dir(p) != dir || p == ciPath {
			continue
		}
		var head struct{ Kind string }
		if yaml.Unmarshal(files[p], &head) != nil || head.Kind != "ConfigMap" {
			continue
		}
		j, err := yaml.YAMLToJSON(files[p])
		if err != nil {
			continue
		}
		cm := &corev1.ConfigMap{}
		if _, err := kjson.UnmarshalStrict(j, cm); err != nil {
			continue
		}
		cms[cm.Name] = cm
		cmPath[cm.Name] = p
	}
	var errs []error
	seen := map[string]string{}
	for _, ref := range ci.Spec.ExtraManifestsRefs {
		cm, ok := cms[ref.Name]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: extraManifestsRefs names ConfigMap %q, which is not rendered in %s/", ciPath, ref.Name, dir))
			continue
		}
		p := cmPath[ref.Name]
		if cm.Namespace != ci.Metadata.Namespace {
			errs = append(errs, fmt.Errorf("%s: ConfigMap %s is in namespace %q, the ClusterInstance in %q", p, cm.Name, cm.Namespace, ci.Metadata.Namespace))
		}
		if err := Check(files[p]); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", p, err))
		}
		if len(cm.BinaryData) > 0 {
			errs = append(errs, fmt.Errorf("%s: binaryData is not read as manifests", p))
		}
		keys := make([]string, 0, len(cm.Data))
		for k := range cm.Data {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if msgs := validation.IsConfigMapKey(k); len(msgs) > 0 {
				errs = append(errs, fmt.Errorf("%s: key %q: %s", p, k, strings.Join(msgs, "; ")))
			}
			okExt := false
			for _, e := range keyExts {
				okExt = okExt || (strings.HasSuffix(k, e) && len(k) > len(e))
			}
			if !okExt || strings.HasPrefix(k, ".") {
				errs = append(errs, fmt.Errorf("%s: key %q is not a manifest file name (%v)", p, k, keyExts))
			}
			if prev, dup := seen[k]; dup {
				errs = append(errs, fmt.Errorf("%s: key %q is also in ConfigMap %s", p, k, prev))
			}
			seen[k] = cm.Name
			v := []byte(cm.Data[k])
			if isBlank(v) {
				errs = append(errs, fmt.Errorf("%s: key %q holds no object", p, k))
				continue
			}
			if err := CheckStream(v); err != nil {
				errs = append(errs, fmt.Errorf("%s: key %q: %v", p, k, err))
			}
		}
	}
	return errs
}
