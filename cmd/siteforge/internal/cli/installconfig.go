package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/output"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// maxPullSecretSize bounds the pull secret read (docs/limits.md): a pull
// secret is a few kilobytes, one entry per registry.
const maxPullSecretSize = 256 << 10

// installDir is the folder of a rendered site that holds the installer's
// inputs (generators/install and the install-config generator write it).
const installDir = "install"

// The installer inputs of a rendered site's install/ folder that the
// assets directory receives. Anything else there (fragments to merge by
// hand) is not an installer input.
const (
	icFile       = "install-config.yaml"
	agentFile    = "agent-config.yaml"
	dirOpenshift = "openshift"
	dirManifests = "manifests"
	// dirDay0Later is where an IPI or UPI site's day-0 manifests go in the
	// assets directory: not manifests/, which openshift-install discards
	// while install-config.yaml is on disk (see docs/install-secrets.md).
	dirDay0Later = "siteforge-manifests"
)

// testHookWrite, when set by a test, runs before each file is written into
// the staging folder (to fail the write half way).
var testHookWrite func(rel string) error

func init() {
	register(&command{
		name:    "install-config",
		args:    "--pull-secret FILE|- --to DIR PATH",
		summary: "complete a site's install-config with the pull secret, outside the repository",
		help: `Makes DIR an assets directory for openshift-install from a site to install by
the agent-based installer or by the installer itself (IPI, UPI): DIR/install-config.yaml
is the rendered install/install-config.yaml, byte for byte, with one header line
and the pullSecret added; the other installer inputs are copied beside it.

PATH is a rendered site folder (render -o OUT writes OUT/<site>, whose install/
holds the inputs) or a site, which is rendered in memory (nothing is written to
the render output or the site).

Agent sites: DIR holds install-config.yaml, agent-config.yaml and openshift/;
run openshift-install agent create image --dir DIR (it writes mirror/ itself,
from install-config.yaml's mirrors and additionalTrustBundle).
IPI and UPI sites: DIR holds install-config.yaml and siteforge-manifests/ (the
day-0 manifests). openshift-install discards manifests it finds beside an
install-config.yaml, so run openshift-install create manifests --dir DIR first,
then copy siteforge-manifests/* into DIR/manifests/, then create the cluster.

--pull-secret - reads the pull secret from stdin (vault kv get ... | siteforge
install-config --pull-secret - ...). It must be the installer's JSON: an
"auths" object whose every entry has "auth" or "credsStore". It is never
printed, not even in part, and render never reads it.

DIR must not exist, or be empty: an existing install folder may hold the auth/
of an earlier installation, which nothing may overwrite. It must lie outside
every git work tree, the rendered folder and the site. DIR is created 0700,
its files 0600, all at once (a failure leaves nothing). openshift-install
consumes the files of DIR: run this command again for another attempt.
Hub-installed sites (installMethod assisted, image-based) have no
install-config: see docs/hub.md. The whole procedure: docs/install-secrets.md.`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			secret := fs.String("pull-secret", "", "the pull secret file (JSON), or - for stdin")
			to := fs.String("to", "", "the assets directory to create, outside any git work tree")
			return func(e env, args []string) int {
				switch {
				case *secret == "":
					return usageError(e, "install-config", "--pull-secret FILE (or -) is required")
				case *to == "":
					return usageError(e, "install-config", "--to DIR is required")
				case len(args) != 1:
					return usageError(e, "install-config", "give exactly one PATH: a rendered site folder or a site")
				}
				return installConfig(e, *secret, *to, args[0])
			}
		},
	})
}

// installInputs are the installer inputs of one site, by path relative to
// the rendered install/ folder.
type installInputs struct {
	site  string            // the site's name, for messages
	files map[string][]byte // install-config.yaml, agent-config.yaml, openshift/..., ...
	// skipped are the files of install/ that are no installer input.
	skipped []string
	// roots are the folders DIR must stay out of (the rendered folder, or
	// the site's inputs).
	roots []string
}

func (in *installInputs) agent() bool { _, ok := in.files[agentFile]; return ok }

func installConfig(e env, secretArg, to, src string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "siteforge install-config: "+format+"\n", a...)
		return ExitFailure
	}
	dest, err := checkAssetsDir(to)
	if err != nil {
		return fail("--to %s: %v", diag.Clean(to), err)
	}
	in, code := readInstallInputs(e, src)
	if in == nil {
		return code
	}
	for _, r := range in.roots {
		real, err := filepath.EvalSymlinks(r)
		if err != nil {
			continue
		}
		if real, err = filepath.Abs(real); err == nil && fsread.Within(real, dest) {
			return fail("--to %s lies inside %s, which is read as input and kept in git: choose a folder outside the repository (for example ~/installs/%s)", diag.Clean(to), diag.Clean(r), in.site)
		}
	}
	ic, ok := in.files[icFile]
	if !ok {
		return fail("%s has no %s/%s: only a site to install (cluster.lifecycle install) by the agent-based installer or by the installer itself (cluster.installMethod agent, ipi, upi) has one; a hub-installed site (assisted, image-based) has a ClusterInstance instead: see docs/hub.md", diag.Clean(src), installDir, icFile)
	}
	secret, err := readPullSecret(e.stdin, secretArg)
	if err != nil {
		return fail("--pull-secret %s: %v", diag.Clean(secretArg), err)
	}
	keys, err := platform.CheckPullSecret(secret)
	if err != nil {
		return fail("--pull-secret %s: %v; get it again from console.redhat.com/openshift/install/pull-secret, or fix it where this message says", diag.Clean(secretArg), err)
	}
	completed, err := withPullSecret(ic, secret)
	if err != nil {
		return fail("%s/%s: %v", installDir, icFile, err)
	}
	for _, host := range uncoveredMirrorHosts(ic, keys) {
		fmt.Fprintf(e.stderr, "siteforge install-config: warning: the pull secret has no auths entry for the mirror registry %s that install-config.yaml names: nodes pull from it without credentials (add one: podman login --authfile FILE %s)\n", diag.Clean(host), diag.Clean(host))
	}
	files := map[string][]byte{icFile: completed}
	for rel, data := range in.files {
		switch {
		case rel == icFile:
		case !in.agent() && strings.HasPrefix(rel, dirManifests+"/"):
			files[dirDay0Later+strings.TrimPrefix(rel, dirManifests)] = data
		default:
			files[rel] = data
		}
	}
	if err := writeAssetsDir(dest, files); err != nil {
		return fail("--to %s: %v (nothing was written)", diag.Clean(to), err)
	}
	for _, s := range in.skipped {
		why := "not an installer input"
		if strings.HasPrefix(s, "mirror/") {
			why = "openshift-install writes it from install-config.yaml (and discards a copy it finds)"
		}
		fmt.Fprintf(e.stderr, "siteforge install-config: not copied: %s/%s: %s\n", installDir, diag.Clean(s), why)
	}
	fmt.Fprintf(e.stdout, "wrote %s for site %s (%d files, mode 0600): install-config.yaml with pullSecret%s\n", diag.Clean(to), diag.Clean(in.site), len(files), summary(files))
	fmt.Fprintf(e.stdout, "%s holds the pull secret: keep it out of git and delete it after the installation\n", diag.Clean(to))
	if in.agent() {
		fmt.Fprintf(e.stdout, "next: openshift-install agent create image --dir %s (it consumes the files: run siteforge install-config again for another attempt)\n", diag.Clean(to))
		return ExitOK
	}
	fmt.Fprintf(e.stdout, "next: openshift-install create manifests --dir %s", diag.Clean(to))
	if hasPrefix(files, dirDay0Later+"/") {
		fmt.Fprintf(e.stdout, "; cp %s/%s/* %s/manifests/", diag.Clean(to), dirDay0Later, diag.Clean(to))
	}
	fmt.Fprintf(e.stdout, "; openshift-install create cluster --dir %s (it consumes install-config.yaml: run siteforge install-config again for another attempt)\n", diag.Clean(to))
	return ExitOK
}

func hasPrefix(files map[string][]byte, prefix string) bool {
	for p := range files {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// summary lists what DIR holds beside install-config.yaml.
func summary(files map[string][]byte) string {
	count := map[string]int{}
	for p := range files {
		if p == icFile {
			continue
		}
		top, _, isDir := strings.Cut(p, "/")
		if isDir {
			top += "/"
		}
		count[top]++
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		if strings.HasSuffix(n, "/") {
			fmt.Fprintf(&b, ", %s (%d)", n, count[n])
		} else {
			fmt.Fprintf(&b, ", %s", n)
		}
	}
	return b.String()
}

// checkAssetsDir resolves DIR (symbolic links of the part that exists) and
// refuses one inside a git work tree, one that exists and is not an empty
// directory, and one whose parent does not exist.
func checkAssetsDir(to string) (string, error) {
	abs, err := filepath.Abs(to)
	if err != nil {
		return "", err
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("its parent folder %s does not exist: create it first (mkdir -m 0700)", diag.Clean(filepath.Dir(abs)))
		}
		return "", err
	}
	if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("its parent %s is not a directory", diag.Clean(parent))
	}
	dest := filepath.Join(parent, filepath.Base(abs))
	if repo := load.GitWorkTree(dest); repo != "" {
		return "", fmt.Errorf("lies inside the git work tree %s: the pull secret would be one `git add` away from the repository; choose a folder outside every repository (for example ~/installs/<site>)", diag.Clean(repo))
	}
	fi, err := os.Lstat(dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", err
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", fmt.Errorf("is a symbolic link: name the folder itself")
	case !fi.IsDir():
		return "", fmt.Errorf("exists and is %s, not a directory", fsread.Kind(fi.Mode()))
	default:
		entries, err := os.ReadDir(dest)
		if err != nil {
			return "", err
		}
		if len(entries) > 0 {
			return "", fmt.Errorf("exists and is not empty (it may hold the auth/ of an earlier installation, which must not be overwritten): move it away or choose a new folder")
		}
	}
	return dest, nil
}

// readInstallInputs reads the installer inputs of src: a rendered site
// folder, or a site rendered in memory. It prints its problems; nil means
// exit with the code returned.
func readInstallInputs(e env, src string) (*installInputs, int) {
	fi, err := os.Stat(src)
	if err != nil {
		fmt.Fprintf(e.stderr, "siteforge install-config: %s: %s\n", diag.Clean(src), fsread.Describe(err))
		return nil, ExitFailure
	}
	if fi.IsDir() && discover.IsRenderedSite(src) {
		in, err := readRenderedInstall(src)
		if err != nil {
			fmt.Fprintf(e.stderr, "siteforge install-config: %s: %v\n", diag.Clean(src), err)
			return nil, ExitFailure
		}
		return in, ExitOK
	}
	return renderInstall(e, src)
}

// readRenderedInstall reads dir/install/ of a rendered site folder: regular
// files only (a symbolic link is refused), each bounded.
func readRenderedInstall(dir string) (*installInputs, error) {
	in := &installInputs{site: filepath.Base(filepath.Clean(dir)), files: map[string][]byte{}, roots: []string{dir}}
	root := filepath.Join(dir, installDir)
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
		return in, nil // no install-config: reported by the caller
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !isInstallerInput(rel) {
			in.skipped = append(in.skipped, rel)
			return nil
		}
		data, err := fsread.FileNoFollow(p, manifests.MaxFileSize)
		if err != nil {
			return fmt.Errorf("%s/%s: %s", installDir, rel, fsread.Describe(err))
		}
		in.files[rel] = data
		return nil
	})
	return in, err
}

// isInstallerInput tells whether a path under install/ goes to the assets
// directory.
func isInstallerInput(rel string) bool {
	switch rel {
	case icFile, agentFile:
		return true
	}
	top, _, nested := strings.Cut(rel, "/")
	// Not mirror/: openshift-install agent create image generates
	// mirror/registries.conf from install-config.yaml and discards a copy
	// it finds beside it (openshift/installer pkg/asset/store/store.go
	// load: "Discarding the Mirror Registries Config ... because its
	// dependencies are dirty"); the rendered one is for review.
	return nested && (top == dirOpenshift || top == dirManifests)
}

// renderInstall renders the one site src names in memory and returns its
// install/ files; the render output on disk is not touched.
func renderInstall(e env, src string) (*installInputs, int) {
	units, diags := load.Discover([]string{src})
	files, dirs := load.InputPaths(units)
	var outs []*generators.Output
	var hub []*site.Site
	var mu sync.Mutex
	run, err := eachUnit(units, diags, verdict.Options{}, func(_ int, o *generators.Output) error {
		mu.Lock()
		defer mu.Unlock()
		outs = append(outs, o)
		if o.Site.HubInstalled() {
			hub = append(hub, o.Site)
		}
		return nil
	})
	if !finish(e, run, err) {
		return nil, ExitFailure
	}
	switch {
	case len(outs) == 0:
		fmt.Fprintf(e.stderr, "siteforge install-config: %s holds no site and is not a rendered site folder\n", diag.Clean(src))
		return nil, ExitFailure
	case len(outs) > 1:
		fmt.Fprintf(e.stderr, "siteforge install-config: %s holds %d sites: name one site (for a fleet: FLEET/sites/<name>)\n", diag.Clean(src), len(outs))
		return nil, ExitFailure
	case len(hub) == 1:
		fmt.Fprintf(e.stderr, "siteforge install-config: site %s is installed from a hub (cluster.installMethod %s): it has no install-config; the hub reads the pull secret from the Secret install.hub.pullSecretRef names, created out of band (see docs/hub.md)\n", diag.Clean(hub[0].Name), hub[0].Cluster.InstallMethod)
		return nil, ExitFailure
	}
	o := outs[0]
	in := &installInputs{site: o.Site.Name, files: map[string][]byte{}, roots: append(append([]string{}, files...), dirs...)}
	prefix := installDir + "/"
	for p, data := range o.Files {
		rel, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		if isInstallerInput(rel) {
			in.files[rel] = data
		} else {
			in.skipped = append(in.skipped, rel)
		}
	}
	sort.Strings(in.skipped)
	if _, ok := in.files[icFile]; !ok && o.Site.Cluster.Lifecycle != site.LifecycleInstall {
		fmt.Fprintf(e.stderr, "siteforge install-config: site %s has cluster.lifecycle %q: only a site to install (lifecycle install) has an install-config\n", diag.Clean(o.Site.Name), o.Site.Cluster.Lifecycle)
		return nil, ExitFailure
	}
	return in, ExitOK
}

// readPullSecret reads the pull secret from a regular file or, for "-",
// from stdin, bounded. Its errors never quote it.
func readPullSecret(stdin io.Reader, arg string) ([]byte, error) {
	if arg == "-" {
		if stdin == nil {
			return nil, errors.New("stdin is closed")
		}
		data, err := io.ReadAll(io.LimitReader(stdin, maxPullSecretSize+1))
		if err != nil {
			return nil, fmt.Errorf("reading stdin: %w", err)
		}
		if len(data) > maxPullSecretSize {
			return nil, fmt.Errorf("stdin holds more than the %d-byte limit of a pull secret", maxPullSecretSize)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, errors.New("stdin is empty: pipe the pull secret in (vault kv get -field=pullSecret ... | siteforge install-config --pull-secret - ...)")
		}
		return data, nil
	}
	data, err := fsread.File(arg, maxPullSecretSize)
	var nr *fsread.NotRegularError
	if errors.As(err, &nr) && nr.Mode&fs.ModeNamedPipe != 0 {
		return nil, fmt.Errorf("%v: pipe it into --pull-secret - instead", err)
	}
	if err != nil {
		return nil, errors.New(fsread.Describe(err))
	}
	return data, nil
}

// pullSecretHeader is the line DIR/install-config.yaml starts with.
const pullSecretHeader = "# siteforge install-config added the pullSecret (last line) to the rendered install-config.yaml: this file holds a secret; keep it out of git.\n"

// withPullSecret returns the install-config with the header line and the
// pull secret, compacted to one line of JSON in a single-quoted YAML
// scalar, appended as the last top-level field; every other byte is the
// rendered file's. It checks that the result reads back as the same
// install-config plus exactly that pullSecret. Its errors never quote the
// secret or the file.
func withPullSecret(ic, secret []byte) ([]byte, error) {
	before, err := installConfigFields(ic)
	if err != nil {
		return nil, err
	}
	if _, ok := before["pullSecret"]; ok {
		return nil, errors.New("already has a pullSecret: render never writes one; the file was edited by hand: render it again")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, secret); err != nil {
		return nil, errors.New("the pull secret is not JSON")
	}
	var b bytes.Buffer
	b.WriteString(pullSecretHeader)
	b.Write(ic)
	if len(ic) > 0 && ic[len(ic)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("pullSecret: '")
	b.WriteString(strings.ReplaceAll(compact.String(), "'", "''"))
	b.WriteString("'\n")
	after, err := installConfigFields(b.Bytes())
	if err != nil {
		return nil, errors.New("the file does not end with its top-level mapping, so the pullSecret cannot be appended: render it again")
	}
	got, ok := after["pullSecret"].(string)
	if !ok {
		return nil, errors.New("the file does not end with its top-level mapping (a second document, a document end marker), so the pullSecret cannot be appended: render it again")
	}
	delete(after, "pullSecret")
	if got != compact.String() || !reflect.DeepEqual(before, after) {
		return nil, errors.New("the pullSecret does not read back as written (it holds characters a YAML single-quoted string cannot): write it as plain JSON")
	}
	return b.Bytes(), nil
}

// installConfigFields reads an install-config (one YAML document, a
// mapping) into its fields, through the manifests reader. Its errors are
// its own: a reader's problem may quote the file.
func installConfigFields(data []byte) (map[string]any, error) {
	objs, problems := manifests.Scan(icFile, data)
	if len(problems) > 0 || len(objs) != 1 || objs[0].Kind != manifests.KindInstallConfig {
		return nil, errors.New("is not one install-config document: run siteforge lint on it, or render it again")
	}
	var fields map[string]any
	if err := objs[0].DecodeLoose(&fields); err != nil {
		return nil, errors.New("does not decode as a mapping")
	}
	return fields, nil
}

// uncoveredMirrorHosts lists the mirror registries (host[:port]) of the
// install-config's imageDigestSources / imageContentSources for which no
// auths key of the pull secret gives credentials, sorted.
func uncoveredMirrorHosts(ic []byte, keys []string) []string {
	objs, _ := manifests.Scan(icFile, ic)
	m := manifests.ReadMirrors(objs)
	have := map[string]bool{}
	for _, k := range keys {
		have[platform.AuthKeyRegistry(k)] = true
	}
	missing := map[string]bool{}
	for _, x := range m.DigestSets {
		if _, ok := m.Installer[x.Obj]; !ok {
			continue
		}
		for _, d := range x.Spec.Spec.ImageDigestMirrors {
			for _, mirror := range d.Mirrors {
				if h := platform.MirrorHost(string(mirror)); !have[h] {
					missing[h] = true
				}
			}
		}
	}
	for _, x := range m.ContentPolicies {
		if _, ok := m.Installer[x.Obj]; !ok {
			continue
		}
		for _, d := range x.Spec.Spec.RepositoryDigestMirrors {
			for _, mirror := range d.Mirrors {
				if h := platform.MirrorHost(mirror); !have[h] {
					missing[h] = true
				}
			}
		}
	}
	out := make([]string, 0, len(missing))
	for h := range missing {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

// writeAssetsDir writes files into a new folder beside dest (0700, files
// 0600, whatever the umask), then renames it to dest: dest appears whole
// or not at all. The folder is an output.Scratch registered with the abort
// path before it exists: an interrupt stops the writes, then removes it; a
// run killed outright leaves it, and the next install-config --to dest
// removes it.
func writeAssetsDir(dest string, files map[string][]byte) error {
	var sc output.Scratch
	defer guard.OnAbort(sc.Abort)()
	defer sc.Abort() // short of the commit, the folder goes
	guard.Announce(filepath.Dir(dest), "."+filepath.Base(dest)+".siteforge-")
	tmp, err := sc.Create(filepath.Dir(dest), "."+filepath.Base(dest)+".siteforge-")
	if err != nil {
		return err
	}
	if err := sc.Do(func() error { return os.Chmod(tmp, 0o700) }); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	// install-config.yaml, the file with the pull secret, last: the
	// shortest time on disk in an unfinished folder.
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == icFile) != (names[j] == icFile) {
			return names[j] == icFile
		}
		return names[i] < names[j]
	})
	for _, rel := range names {
		if !fs.ValidPath(rel) {
			return fmt.Errorf("refusing the file name %s", diag.Clean(rel))
		}
		if testHookWrite != nil {
			if err := testHookWrite(rel); err != nil {
				return err
			}
		}
		err := sc.Do(func() error {
			if err := mkdirs(tmp, path.Dir(rel)); err != nil {
				return err
			}
			return writePrivate(filepath.Join(tmp, filepath.FromSlash(rel)), files[rel])
		})
		if err != nil {
			return err
		}
	}
	// rename(2), not os.Rename: it replaces an empty directory dest (and
	// fails on a non-empty one, which appeared since the check).
	return sc.Commit(func() error {
		if err := unix.Rename(tmp, dest); err != nil {
			return fmt.Errorf("cannot move the finished folder into place: %s", fsread.Describe(err))
		}
		return nil
	})
}

// mkdirs creates the folders of rel (slash-separated) under root, 0700.
func mkdirs(root, rel string) error {
	if rel == "." {
		return nil
	}
	cur := root
	for _, part := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, part)
		if err := os.Mkdir(cur, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		if err := os.Chmod(cur, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// writePrivate creates p (it must not exist) with mode 0600 and data.
func writePrivate(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
