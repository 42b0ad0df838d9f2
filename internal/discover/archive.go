package discover

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
)

// What a running cluster's state is (Cluster.What).
const (
	// MustGather is the folder `oc adm must-gather` writes (or one image
	// folder of it, or what `oc adm inspect` writes).
	MustGather = "must-gather"
	// InsightsArchive is the Insights operator's archive, unpacked.
	InsightsArchive = "insights archive"
)

// Live reports whether the cluster is a running cluster's state (a
// must-gather or an Insights archive): its objects are what the cluster
// holds, status included, not what a repository asks it to hold.
func (c *Cluster) Live() bool { return c.What == MustGather || c.What == InsightsArchive }

// archiveOf says whether dir holds a running cluster's state, by its
// structure: an Insights archive (config/version.json and config/id, which
// its ClusterVersion gatherer writes into every archive), a must-gather
// image folder or `oc adm inspect` folder (cluster-scoped-resources/, or
// namespaces/ beside the timestamp file inspect writes), or the folder `oc
// adm must-gather` writes (a timestamp file beside one or more image
// folders). roots are the folders holding the objects.
func archiveOf(dir string, entries []os.DirEntry) (what string, roots []string) {
	has := holds(entries)
	if has(platform.InsightsConfigDir, true) && regular(filepath.Join(dir, platform.InsightsConfigDir, "version.json")) &&
		regular(filepath.Join(dir, platform.InsightsConfigDir, "id")) {
		return InsightsArchive, []string{dir}
	}
	if imageFolder(has) {
		return MustGather, []string{dir}
	}
	if !has(platform.MustGatherTimestampFile, false) {
		return "", nil
	}
	for _, e := range entries {
		if !e.IsDir() || hidden(e.Name()) {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		subEntries, err := os.ReadDir(sub)
		if err != nil {
			continue
		}
		if imageFolder(holds(subEntries)) {
			roots = append(roots, sub)
		}
	}
	if len(roots) == 0 {
		return "", nil
	}
	return MustGather, roots
}

// holds says whether a folder's entries hold a folder (isDir) or a file of
// a name, not a symbolic link.
func holds(entries []os.DirEntry) func(name string, isDir bool) bool {
	return func(name string, isDir bool) bool {
		for _, e := range entries {
			if e.Name() == name && e.IsDir() == isDir && e.Type()&os.ModeSymlink == 0 {
				return true
			}
		}
		return false
	}
}

// imageFolder: what `oc adm inspect` writes.
func imageFolder(has func(name string, isDir bool) bool) bool {
	return has(platform.MustGatherClusterScopedDir, true) ||
		has(platform.MustGatherNamespacesDir, true) && has(platform.MustGatherTimestampFile, false)
}

func regular(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// archive reads a running cluster's state into one cluster of its own: only
// the kinds platform.ArchiveResources lists (never a Secret, an event or a
// log), each file bounded as any manifest; nothing is written. Of the
// rendered MachineConfigs only those a pool or a node uses are read (a
// cluster keeps every config it ever rendered), and of the pods only those
// serving a CatalogSource (platform.CatalogPodLabel). An object written
// twice (inspect writes a config.openshift.io object in its resource's
// List and on its own) is read once, from its own file. The objects a
// platform operator wrote itself say so (manifests.Object.WrittenBy).
func (w *walker) archive(dir, what string, roots []string) {
	a := &archiveReader{w: w}
	for _, r := range roots {
		if what == InsightsArchive {
			a.insights(r)
		} else {
			a.mustGather(r)
		}
	}
	a.deferred()
	objs := dedupArchive(a.objs)
	manifests.MarkPlatformWritten(objs)
	w.res.Clusters = append(w.res.Clusters, Cluster{Root: dir, What: what, Objects: objs, enclosing: -1})
}

// archiveReader collects a running cluster's objects; MachineConfigs and
// pods wait until the pools, nodes and catalog sources are read.
type archiveReader struct {
	w    *walker
	objs []*manifests.Object
	// mcs are the MachineConfig files (and how to read them); pods the
	// folders of namespaces' pods, by namespace.
	mcs  []archiveFile
	pods []podFiles
}

type archiveFile struct {
	path string
	as   *manifests.As
}

// podFiles are where a namespace's pods are: its List (core/pods.yaml) and
// its pods' own folders (pods/<pod>/<pod>.yaml). anyNamespace: read them
// whether the namespace holds a CatalogSource or not (an Insights archive
// holds none).
type podFiles struct {
	namespace    string
	list         string
	each         []archiveFile
	anyNamespace bool
}

// read reads one file's objects (as: what the path says they are), those
// keep keeps (nil: the kinds platform.ArchiveKindRead lists). want, when
// given, is a word the file must hold to be scanned at all (a pod file
// without the catalog label is not parsed).
func (a *archiveReader) read(p string, as *manifests.As, keep func(*manifests.Object) bool, want ...string) {
	data, probs := readFile(p)
	for _, w := range want {
		if probs == nil && !bytes.Contains(data, []byte(w)) {
			return
		}
	}
	if probs == nil {
		var objs []*manifests.Object
		if as != nil {
			objs, probs = manifests.ScanAs(p, data, *as)
		} else {
			objs, probs = manifests.Scan(p, data)
		}
		for _, o := range objs {
			if keep == nil && platform.ArchiveKindRead(o.APIVersion, o.Kind) || keep != nil && keep(o) {
				a.objs = append(a.objs, o)
			}
		}
	}
	a.w.res.Problems = append(a.w.res.Problems, probs...)
}

// list is os.ReadDir without symbolic links (an archive holds none; one
// that does is not followed out of it).
func list(dir string) []os.DirEntry {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	return slices.DeleteFunc(entries, func(e os.DirEntry) bool { return e.Type()&os.ModeSymlink != 0 || hidden(e.Name()) })
}

// manifestFile: a regular file of objects (YAML or JSON).
func manifestFile(e os.DirEntry) bool {
	return e.Type().IsRegular() && manifests.HasManifestExtension(e.Name())
}

// mustGather reads one image folder: cluster-scoped-resources/<group>/ and
// namespaces/<ns>/<group>/, the resources siteforge reads.
func (a *archiveReader) mustGather(root string) {
	csr := filepath.Join(root, platform.MustGatherClusterScopedDir)
	for _, g := range list(csr) {
		if g.IsDir() {
			a.group(filepath.Join(csr, g.Name()), g.Name(), nil)
		}
	}
	nsDir := filepath.Join(root, platform.MustGatherNamespacesDir)
	for _, ns := range list(nsDir) {
		if !ns.IsDir() {
			continue
		}
		pf := &podFiles{namespace: ns.Name()}
		dir := filepath.Join(nsDir, ns.Name())
		for _, g := range list(dir) {
			switch {
			case g.Name() == platform.MustGatherPodsDir && g.IsDir():
				for _, pod := range list(filepath.Join(dir, g.Name())) {
					for _, ext := range []string{".yaml", ".json"} {
						if p := filepath.Join(dir, g.Name(), pod.Name(), pod.Name()+ext); pod.IsDir() && regular(p) {
							pf.each = append(pf.each, archiveFile{path: p})
						}
					}
				}
			case g.IsDir():
				a.group(filepath.Join(dir, g.Name()), g.Name(), pf)
			}
		}
		if pf.list != "" || len(pf.each) > 0 {
			a.pods = append(a.pods, *pf)
		}
	}
}

// group reads a group folder: <resource>/<name>.yaml and <resource>.yaml.
// pf collects a namespace's pods (nil: cluster-scoped).
func (a *archiveReader) group(dir, group string, pf *podFiles) {
	for _, e := range list(dir) {
		name := e.Name()
		resource := strings.TrimSuffix(name, filepath.Ext(name))
		if !e.IsDir() {
			if !manifestFile(e) {
				continue
			}
			r, ok := platform.ArchiveResourceOf(group, resource)
			switch {
			case !ok:
			case r.Kind == "Pod" && pf != nil:
				pf.list = filepath.Join(dir, name)
			case r.Kind == "Pod":
			default:
				a.read(filepath.Join(dir, name), nil, nil)
			}
			continue
		}
		r, ok := platform.ArchiveResourceOf(group, name)
		if !ok {
			continue
		}
		for _, f := range list(filepath.Join(dir, name)) {
			if !manifestFile(f) {
				continue
			}
			p := filepath.Join(dir, name, f.Name())
			switch {
			case r.Kind == "MachineConfig":
				a.mcs = append(a.mcs, archiveFile{path: p})
			case r.Kind == "Pod" && pf != nil:
				pf.each = append(pf.each, archiveFile{path: p})
			case r.Kind == "Pod":
			default:
				a.read(p, nil, nil)
			}
		}
	}
}

// insights reads an Insights archive: the files platform.InsightsFiles
// lists, and the operator configs of config/clusteroperator of the kinds
// siteforge reads.
func (a *archiveReader) insights(root string) {
	for _, f := range platform.InsightsFiles {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		as := &manifests.As{APIVersion: f.APIVersion, Kind: f.Kind}
		if !strings.HasSuffix(f.Path, "/") {
			switch {
			case !regular(p):
			case f.Kind == "": // the install-config, read by content
				a.read(p, nil, func(o *manifests.Object) bool { return o.Kind == manifests.KindInstallConfig })
			default:
				a.read(p, as, nil)
			}
			continue
		}
		a.insightsDir(p, f, "")
	}
	co := filepath.Join(root, filepath.FromSlash(platform.InsightsClusterOperatorDir))
	for _, g := range list(co) {
		for _, k := range list(filepath.Join(co, g.Name())) {
			if !g.IsDir() || !k.IsDir() {
				continue
			}
			kindDir := filepath.Join(co, g.Name(), k.Name())
			for _, e := range list(kindDir) {
				switch {
				case manifestFile(e):
					a.operatorConfig(filepath.Join(kindDir, e.Name()), g.Name(), k.Name(), "")
				case e.IsDir():
					for _, f := range list(filepath.Join(kindDir, e.Name())) {
						if manifestFile(f) {
							a.operatorConfig(filepath.Join(kindDir, e.Name(), f.Name()), g.Name(), k.Name(), e.Name())
						}
					}
				}
			}
		}
	}
}

// insightsDir reads the objects of a folder of InsightsFiles: each file
// one object, named by the file (config/pod/{namespace}/{pod}.json: the
// folder names the namespace; logs/ holds no object).
func (a *archiveReader) insightsDir(dir string, f platform.InsightsFile, namespace string) {
	for _, e := range list(dir) {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir() && namespace == "" && f.Kind == "Pod" && e.Name() != "logs":
			a.insightsDir(p, f, e.Name())
		case !manifestFile(e):
		case f.Kind == "MachineConfig":
			a.mcs = append(a.mcs, archiveFile{path: p, as: &manifests.As{APIVersion: f.APIVersion, Kind: f.Kind, Name: strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))}})
		case f.Kind == "Pod":
			a.pods = append(a.pods, podFiles{namespace: namespace, anyNamespace: true,
				each: []archiveFile{{path: p, as: &manifests.As{APIVersion: f.APIVersion, Kind: f.Kind, Namespace: namespace}}}})
		default:
			a.read(p, &manifests.As{APIVersion: f.APIVersion, Kind: f.Kind, Namespace: namespace, Name: strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))}, nil)
		}
	}
}

// operatorConfig reads config/clusteroperator/{group}/{kind}/[{ns}/]{name}.json
// when siteforge reads the kind: the object names itself by a top-level
// name, else the file does.
func (a *archiveReader) operatorConfig(p, group, kindDir, namespace string) {
	for _, r := range platform.ArchiveResources {
		if r.Group == group && strings.EqualFold(r.Kind, kindDir) {
			a.read(p, &manifests.As{Namespace: namespace, Name: strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))}, nil)
			return
		}
	}
}

// deferred reads the MachineConfigs and pods, once the pools, nodes and
// catalog sources are known.
func (a *archiveReader) deferred() {
	inUse := manifests.RenderedInUse(manifests.MachineConfigPools(a.objs), manifests.Nodes(a.objs))
	catalogs := map[string][]string{} // namespace -> CatalogSource names
	for _, o := range a.objs {
		if o.Kind == "CatalogSource" {
			catalogs[o.Namespace] = append(catalogs[o.Namespace], o.Name)
		}
	}
	for _, f := range a.mcs {
		name := strings.TrimSuffix(filepath.Base(f.path), filepath.Ext(f.path))
		if strings.HasPrefix(name, platform.RenderedMachineConfigPrefix) && !inUse[name] {
			continue
		}
		a.read(f.path, f.as, nil)
	}
	catalogPod := func(o *manifests.Object) bool {
		var p corev1.Pod
		return o.Kind == "Pod" && o.APIVersion == "v1" && o.DecodeLoose(&p) == nil && p.Labels[platform.CatalogPodLabel] != ""
	}
	for _, pf := range a.pods {
		names, known := catalogs[pf.namespace]
		if !known && !pf.anyNamespace {
			continue // a namespace without a CatalogSource runs no catalog pod
		}
		if len(pf.each) == 0 {
			a.read(pf.list, nil, catalogPod, platform.CatalogPodLabel)
			continue
		}
		for _, f := range pf.each {
			pod := strings.TrimSuffix(filepath.Base(f.path), filepath.Ext(f.path))
			if known && !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(pod, n+"-") }) {
				continue // OLM names a catalog's pod after it (GenerateName <catalog>-)
			}
			a.read(f.path, f.as, catalogPod, platform.CatalogPodLabel)
		}
	}
}

// dedupArchive keeps one copy of an object the archive holds twice: the
// one in a file of its own, else the first.
func dedupArchive(objs []*manifests.Object) []*manifests.Object {
	type id struct{ group, kind, ns, name string }
	key := func(o *manifests.Object) id {
		return id{path.Dir(o.APIVersion), o.Kind, o.Namespace, o.Name}
	}
	best := map[id]*manifests.Object{}
	for _, o := range objs {
		if o.Name == "" {
			continue
		}
		k := key(o)
		if b, ok := best[k]; !ok || b.Item > 0 && o.Item == 0 {
			best[k] = o
		}
	}
	var out []*manifests.Object
	for _, o := range objs {
		if o.Name == "" || best[key(o)] == o {
			out = append(out, o)
		}
	}
	return out
}

// LiveCluster reads path when it is a running cluster's state itself (a
// must-gather, one of its image folders, an Insights archive): the cluster
// and what could not be read of it; ok is false when path is not one.
func LiveCluster(path string) (c Cluster, problems []manifests.Problem, ok bool) {
	entries, err := os.ReadDir(path)
	if err != nil {
		return Cluster{}, nil, false
	}
	what, roots := archiveOf(path, entries)
	if what == "" {
		return Cluster{}, nil, false
	}
	w := &walker{res: &Result{}}
	w.archive(path, what, roots)
	return w.res.Clusters[0], w.res.Problems, true
}
