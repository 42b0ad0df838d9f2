package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// repoLayout writes the common GitOps layout into a new git repository
// and commits it: the site in sites/lab-kustomize/, its kustomization in
// clusters/lab-kustomize/ (examples/kustomize's, with spec.paths naming
// ../../sites/lab-kustomize), and extra files.
func repoLayout(t *testing.T, extra map[string]string) (repo, kdir string) {
	t.Helper()
	ex := filepath.Join(root, "examples", "kustomize")
	toSite := strings.NewReplacer("  - site                  # ./site; or any folder of the same git repository (../../sites/<name>)\n",
		"  - ../../sites/lab-kustomize\n")
	files := map[string]string{
		"sites/lab-kustomize/site.yaml":             readFile(t, filepath.Join(ex, "site", "site.yaml")),
		"clusters/lab-kustomize/kustomization.yaml": readFile(t, filepath.Join(ex, "kustomization.yaml")),
		"clusters/lab-kustomize/siterender.yaml":    toSite.Replace(readFile(t, filepath.Join(ex, "siterender.yaml"))),
		"clusters/lab-kustomize/sitelint.yaml":      toSite.Replace(readFile(t, filepath.Join(ex, "sitelint.yaml"))),
	}
	for _, f := range []string{"siterender.yaml", "sitelint.yaml"} {
		if !strings.Contains(files["clusters/lab-kustomize/"+f], "../../sites/lab-kustomize") {
			t.Fatalf("examples/kustomize/%s no longer names its site as this test expects", f)
		}
	}
	for k, v := range extra {
		files[k] = v
	}
	repo = t.TempDir()
	writeFiles(t, repo, files)
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "--no-gpg-sign", "-m", "sites and clusters")
	return repo, filepath.Join(repo, "clusters", "lab-kustomize")
}

// TestKustomizeRepositoryLayout: kustomize builds clusters/<name> whose
// SiteRender and SiteLint name ../../sites/<name> (inside the same git
// work tree): the build holds exactly what `siteforge render --stdout`
// writes for the site, linted clean; a site outside the work tree is
// refused.
func TestKustomizeRepositoryLayout(t *testing.T) {
	kustomize(t) // skips loudly, before the repository is made, without KUSTOMIZE
	repo, kdir := repoLayout(t, nil)
	built := kustomizeBuild(t, kdir, execFlags...)
	if built.code != 0 {
		t.Fatalf("kustomize build clusters/lab-kustomize: %v", built)
	}
	if !strings.Contains(built.stderr, "SiteLint lint: 0 errors, 0 warnings") {
		t.Errorf("SiteLint reports findings on the site:\n%s", built.stderr)
	}
	rendered := siteforge(t, repo, "render", "--stdout", "sites/lab-kustomize")
	if rendered.code != 0 {
		t.Fatalf("siteforge render: %v", rendered)
	}
	got, want := byID(t, parseStream(t, built.stdout)), byID(t, parseStream(t, rendered.stdout))
	if len(want) == 0 {
		t.Fatal("siteforge render --stdout produced no objects")
	}
	for id, w := range want {
		g, ok := got[id]
		switch {
		case !ok:
			t.Errorf("kustomize output lacks %s", id)
		case !reflect.DeepEqual(g.withoutAnnotation(generatedByAnnotation), w):
			t.Errorf("%s differs from siteforge render:\n got %v\nwant %v", id, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("kustomize built %d objects, siteforge render %d", len(got), len(want))
	}
	for _, o := range got {
		if src := o.annotation(sourceAnnotation); src != "sites/lab-kustomize" {
			t.Errorf("%s: %s = %q, want the site's path from the repository root", o.id(), sourceAnnotation, src)
			break
		}
	}

	// A site outside the work tree (a sibling folder of the repository).
	outside := filepath.Join(filepath.Dir(repo), "outside-"+filepath.Base(repo))
	writeFiles(t, outside, map[string]string{"site.yaml": readFile(t, filepath.Join(repo, "sites", "lab-kustomize", "site.yaml"))})
	t.Cleanup(func() { os.RemoveAll(outside) })
	rel, _ := filepath.Rel(kdir, outside)
	writeFiles(t, kdir, map[string]string{"siterender.yaml": strings.Replace(readFile(t, filepath.Join(kdir, "siterender.yaml")), "../../sites/lab-kustomize", rel, 1)})
	refused := kustomizeBuild(t, kdir, execFlags...)
	if refused.code == 0 || !strings.Contains(refused.stderr, "leaves the git work tree holding the kustomization") {
		t.Errorf("kustomize build with a site outside the repository: %v", refused)
	}
}

// TestPreCommitRepositoryLayout runs the documented hooks (lint and impact)
// through pre-commit on the sites/<name> + clusters/<name> layout, both as
// language golang (pre-commit builds siteforge from the hook repository
// with go install ./..., modules from the run's module cache or GOPROXY)
// and as -system hooks (the siteforge on PATH): the site is one site (the
// SiteRender and SiteLint configs naming it are not a second one, and
// nothing is "already used"), a clean tree passes, and a change to the site
// is reported by impact once, for that site.
func TestPreCommitRepositoryLayout(t *testing.T) {
	t.Parallel() // see the package doc: its builds and pre-commit runs are in folders of its own
	pc := preCommit(t)
	hooks, rev := hookRepo(t)
	cache := t.TempDir() // PRE_COMMIT_HOME: pre-commit's clones and envs
	for _, variant := range hookVariants() {
		t.Run(variant.name, func(t *testing.T) {
			repo, _ := repoLayout(t, map[string]string{
				".pre-commit-config.yaml": "repos:\n- repo: " + hooks + "\n  rev: " + rev + "\n  hooks:\n" +
					"  - id: siteforge-lint" + variant.suffix + "\n" +
					"  - id: siteforge-impact" + variant.suffix + "\n",
			})
			env := hookEnv(t, variant, cache)
			res := run(t, repo, env, pc, "run", "--all-files", "--color", "never")
			if res.code != 0 {
				t.Fatalf("hooks failed on the sites/ + clusters/ layout: %v", res)
			}
			checkHookBuild(t, variant, cache)
			for _, bad := range []string{"already used", "INP002"} {
				if strings.Contains(res.stdout, bad) {
					t.Errorf("the hooks report %q: the site was read twice: %v", bad, res)
				}
			}

			// A change to the site's chrony MachineConfig: impact reports the
			// reboot of the site's master pool once, and lint still passes.
			site := filepath.Join(repo, "sites", "lab-kustomize", "site.yaml")
			changed := strings.Replace(readFile(t, site), "server ntp1.lab.example.com iburst", "server ntp2.lab.example.com iburst", 1)
			if changed == readFile(t, site) {
				t.Fatal("examples/kustomize/site/site.yaml no longer names ntp1.lab.example.com")
			}
			writeFiles(t, repo, map[string]string{"sites/lab-kustomize/site.yaml": changed})
			git(t, repo, "add", "-A")
			res = run(t, repo, env, pc, "run", "--all-files", "--color", "never")
			if res.code != 0 {
				t.Fatalf("hooks failed after a change to the site: %v", res)
			}
			for _, once := range []string{"\nlab-kustomize  master  3      reboot", "\nlab-kustomize/master: reboot: MachineConfig 99-master-chrony /etc/chrony.conf"} {
				if n := strings.Count(res.stdout, once); n != 1 {
					t.Errorf("impact prints %q %d times, want once: %v", once, n, res)
				}
			}
		})
	}
}
