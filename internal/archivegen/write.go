// Package archivegen writes must-gathers of synthetic running clusters, for
// tests and benchmarks: typed API objects (openshift/api, k8s.io/api, and
// siteforge's own types of upstream objects without a Go module), status
// included, marshalled and laid out as `oc adm must-gather` and `oc adm
// inspect` write them. It is not part of the siteforge command.
//
// The layout follows openshift/oc pkg/cli/admin/inspect (util.go
// dirPathForInfo and filenameForInfo, resource.go gatherConfigResourceData,
// namespace.go gatherNamespaceData, pod.go gatherPodData, secret.go
// elideSecret) and pkg/cli/admin/mustgather/mustgather.go (the image
// folder, the timestamp file): see platform.MustGatherClusterScopedDir.
package archivegen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	corev1 "k8s.io/api/core/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/platform"
)

// Object is one API object of a cluster and where `oc adm inspect` files
// it.
type Object struct {
	// Group is the API group folder ("core" for the legacy group),
	// Resource the resource's plural name.
	Group, Resource string
	Namespace, Name string
	// Obj is the typed object, TypeMeta set, status included.
	Obj any
}

// MustGather is what `oc adm must-gather` collects of one cluster.
type MustGather struct {
	// ImageID is the must-gather image's ID; the image folder is named
	// after it.
	ImageID string
	// Version is the must-gather image's version file.
	Version string
	Objects []Object
	// Events are each namespace's events (namespaces/<ns>/core/events.yaml).
	Events map[string][]corev1.Event
	// Secrets are each namespace's Secrets, written as inspect writes
	// them (data elided but for public keys: secret.go elideSecret).
	Secrets map[string][]corev1.Secret
	// Logs are each pod's containers' logs, by namespace/pod/container.
	Logs map[string]string
	// Timestamp is the content of the timestamp files.
	Timestamp string
}

// imageFolder is the folder `oc adm must-gather` copies the image's output
// into (mustgather.go copyFilesFromPod: the image ID with every run of
// non-alphanumerics replaced by "-").
func (m *MustGather) imageFolder() string {
	return regexp.MustCompile("[^A-Za-z0-9]+").ReplaceAllString(m.ImageID, "-")
}

// Write writes the must-gather into dir (the --dest-dir, created): the
// timestamp and the image folder. It returns the image folder.
func (m *MustGather) Write(dir string) (string, error) {
	w := writer{root: dir}
	w.file("timestamp", m.Timestamp)
	w.file("must-gather.logs", "")
	img := m.imageFolder()
	w.file(filepath.Join(img, "version"), m.Version)
	w.file(filepath.Join(img, "timestamp"), m.Timestamp)
	w.file(filepath.Join(img, "event-filter.html"), "<html><body>events</body></html>\n")

	lists := map[string][]any{} // config.openshift.io <resource>.yaml Lists
	pods := map[string][]any{}  // namespaces/<ns>/core/pods.yaml
	namespaces := map[string]bool{}
	for _, o := range m.Objects {
		if o.Namespace == "" {
			base := filepath.Join(img, platform.MustGatherClusterScopedDir, o.Group)
			if o.Group == "config.openshift.io" {
				// every config.openshift.io resource as a List
				// (gatherConfigResourceData), and the object on its own
				// when it is inspected by name too (the gather script's
				// clusterversion)
				lists[o.Resource] = append(lists[o.Resource], o.Obj)
				if o.Resource != "clusterversions" {
					continue
				}
			}
			w.yaml(filepath.Join(base, o.Resource, o.Name+".yaml"), o.Obj)
			continue
		}
		namespaces[o.Namespace] = true
		nsDir := filepath.Join(img, platform.MustGatherNamespacesDir, o.Namespace)
		if o.Group == platform.MustGatherCoreGroup && o.Resource == "pods" {
			pods[o.Namespace] = append(pods[o.Namespace], o.Obj)
			podDir := filepath.Join(nsDir, platform.MustGatherPodsDir, o.Name)
			w.yaml(filepath.Join(podDir, o.Name+".yaml"), o.Obj)
			if p, ok := o.Obj.(*corev1.Pod); ok {
				for _, c := range p.Spec.Containers {
					// pod.go gatherContainerInfo: <pod>/<container>/<container>/logs/current.log
					w.file(filepath.Join(podDir, c.Name, c.Name, "logs", "current.log"), m.Logs[o.Namespace+"/"+o.Name+"/"+c.Name])
				}
			}
			continue
		}
		w.yaml(filepath.Join(nsDir, o.Group, o.Resource, o.Name+".yaml"), o.Obj)
	}
	for ns := range m.Events {
		namespaces[ns] = true
	}
	for ns := range m.Secrets {
		namespaces[ns] = true
	}
	for _, resource := range sortedKeys(lists) {
		kind := ""
		for _, r := range platform.ArchiveResources {
			if r.Group == "config.openshift.io" && r.Resource == resource {
				kind = r.Kind
			}
		}
		w.yaml(filepath.Join(img, platform.MustGatherClusterScopedDir, "config.openshift.io", resource+".yaml"),
			map[string]any{"apiVersion": "config.openshift.io/v1", "kind": kind + "List", "metadata": map[string]any{"resourceVersion": "48213"}, "items": lists[resource]})
	}
	for _, ns := range sortedKeys(namespaces) {
		nsDir := filepath.Join(img, platform.MustGatherNamespacesDir, ns)
		w.yaml(filepath.Join(nsDir, ns+".yaml"), &corev1.Namespace{
			TypeMeta:   typeMeta("v1", "Namespace"),
			ObjectMeta: meta(ns, "", map[string]string{platform.NamespaceNameLabel: ns}),
			Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceActive},
		})
		w.yaml(filepath.Join(nsDir, "core", "pods.yaml"), list(pods[ns]))
		var events []any
		for i := range m.Events[ns] {
			events = append(events, &m.Events[ns][i])
		}
		w.yaml(filepath.Join(nsDir, "core", "events.yaml"), list(events))
		var secrets []any
		for i := range m.Secrets[ns] {
			s := m.Secrets[ns][i].DeepCopy()
			elide(s)
			secrets = append(secrets, s)
		}
		w.yaml(filepath.Join(nsDir, "core", "secrets.yaml"), list(secrets))
	}
	return filepath.Join(dir, img), w.err
}

// elide is oc inspect's elideSecret: every data value but the public
// certificates' becomes its length.
func elide(s *corev1.Secret) {
	for k, v := range s.Data {
		if k == "tls.crt" || k == "ca.crt" || k == "service-ca.crt" {
			continue
		}
		s.Data[k] = []byte(fmt.Sprintf("%d bytes long", len(v)))
	}
}

// list is a v1 List of items, as kubectl's printer writes a list.
func list(items []any) map[string]any {
	if items == nil {
		items = []any{}
	}
	return map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type writer struct {
	root string
	err  error
}

func (w *writer) file(rel, content string) {
	if w.err != nil {
		return
	}
	p := filepath.Join(w.root, rel)
	if w.err = os.MkdirAll(filepath.Dir(p), 0o755); w.err == nil {
		w.err = os.WriteFile(p, []byte(content), 0o644)
	}
}

// yaml writes an object as oc's YAML printer does (JSON field order made
// YAML: keys sorted).
func (w *writer) yaml(rel string, obj any) {
	data, err := sigsyaml.Marshal(obj)
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("%s: %w", rel, err)
	}
	w.file(rel, string(data))
}

// Files reads back a written tree (for tests that hold fixtures as files):
// slash paths relative to dir.
func Files(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	return out, err
}

// DestDir is the folder the fixtures' must-gathers are written in, as `oc
// adm must-gather` names it (mustgather.go: must-gather.local.<random>).
const DestDir = "must-gather.local.5483957185"
