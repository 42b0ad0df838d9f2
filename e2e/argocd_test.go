package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// cmpPlugin is the part of examples/argocd/plugin.yaml the repo-server
// sidecar uses.
type cmpPlugin struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		Version  string `yaml:"version"`
		Discover struct {
			FileName string `yaml:"fileName"`
		} `yaml:"discover"`
		Generate struct {
			Command []string `yaml:"command"`
			Args    []string `yaml:"args"`
		} `yaml:"generate"`
	} `yaml:"spec"`
}

func loadPlugin(t *testing.T) cmpPlugin {
	t.Helper()
	var p cmpPlugin
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join(root, "examples", "argocd", "plugin.yaml"))), &p); err != nil {
		t.Fatal(err)
	}
	if p.APIVersion != "argoproj.io/v1alpha1" || p.Kind != "ConfigManagementPlugin" || len(p.Spec.Generate.Command) == 0 {
		t.Fatalf("plugin.yaml is not a ConfigManagementPlugin with a generate command: %+v", p)
	}
	return p
}

// generate runs the plugin's generate command as the CMP sidecar does
// (argoproj/argo-cd cmpserver/plugin/plugin.go generateManifest and
// runCommand): in the app's source folder of a copy of the repository
// (repo), with the sidecar's environment, Argo CD's build environment and
// the Application's plugin env as ARGOCD_ENV_* (Argo CD docs "Config
// Management Plugins", "Build Environment").
func generate(t *testing.T, p cmpPlugin, repo, sourcePath string, appEnv map[string]string) result {
	t.Helper()
	env := []string{
		"ARGOCD_APP_NAME=" + filepath.Base(sourcePath),
		"ARGOCD_APP_NAMESPACE=argocd",
		"ARGOCD_APP_PROJECT_NAME=default",
		"ARGOCD_APP_REVISION=0123456789abcdef0123456789abcdef01234567",
		"ARGOCD_APP_SOURCE_REPO_URL=https://git.example.com/telco/sites.git",
		"ARGOCD_APP_SOURCE_PATH=" + sourcePath,
		"ARGOCD_APP_SOURCE_TARGET_REVISION=main",
		"KUBE_VERSION=1.29.0",
		"KUBE_API_VERSIONS=v1,apps/v1,config.openshift.io/v1,machineconfiguration.openshift.io/v1",
	}
	for k, v := range appEnv {
		env = append(env, "ARGOCD_ENV_"+k+"="+v)
	}
	cmd := p.Spec.Generate.Command
	return run(t, filepath.Join(repo, filepath.FromSlash(sourcePath)), env, cmd[0], append(cmd[1:], p.Spec.Generate.Args...)...)
}

// argocdMessage is the error Argo CD shows for a failed generate: the
// command, its exit status and the trimmed stderr (argoproj/argo-cd
// cmpserver/plugin/plugin.go CmdError.Error).
func argocdMessage(p cmpPlugin, res result) string {
	cmd := strings.Join(append(append([]string{}, p.Spec.Generate.Command...), p.Spec.Generate.Args...), " ")
	return "`" + cmd + "` failed exit status " + strconv.Itoa(res.code) + ": " + strings.TrimSpace(res.stderr)
}

// examplesRepo copies examples/ into a fresh folder, as the repo-server
// sends the repository to the sidecar (a copy, not the checkout).
func examplesRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	copyTree(t, filepath.Join(root, "examples"), filepath.Join(repo, "examples"), nil)
	return repo
}

// argocdSite renders one object; with policy NeverContactSource it also
// gives a render warning (the agent installation's release mirror), with
// AllowContactingSource it is strict-clean. A single node the agent
// installer can install (platform none, its rendezvous host listed).
func argocdSite(policy string) string {
	return `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: none
  installMethod: agent
  lifecycle: install
network:
  machineNetwork: [192.168.0.0/24]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes: [{name: m0, ip: 192.168.0.10}]
mirroring:
  quayCache:
    host: quay.hub.example.com:8443
    orgs:
      ocp4-mirror: quay.io/openshift-release-dev
    policy: ` + policy + `
`
}

// TestArgoCDPluginGenerate: the plugin's generate writes only a YAML object
// stream, exactly what `siteforge render --stdout` writes for the app's
// site, and nothing at all when the render fails, with the error first in
// what Argo CD shows.
func TestArgoCDPluginGenerate(t *testing.T) {
	p := loadPlugin(t)

	t.Run("no shell", func(t *testing.T) {
		if !reflect.DeepEqual(p.Spec.Generate.Command, []string{"siteforge", "argocd", "generate"}) || len(p.Spec.Generate.Args) != 0 {
			t.Errorf("generate = %v %v, want [siteforge argocd generate] (no shell: Argo CD shows the whole command before the error)", p.Spec.Generate.Command, p.Spec.Generate.Args)
		}
	})

	t.Run("site", func(t *testing.T) {
		repo := examplesRepo(t)
		app := "examples/disconnected-quay-cache"
		discovered(t, p, filepath.Join(repo, app), true)
		res := generate(t, p, repo, app, nil)
		if res.code != 0 {
			t.Fatalf("generate: %v", res)
		}
		if len(parseStream(t, res.stdout)) == 0 {
			t.Fatal("generate printed no objects")
		}
		want := siteforge(t, filepath.Join(root, app), "render", "--stdout", ".")
		if res.stdout != want.stdout {
			t.Errorf("generate differs from siteforge render --stdout . in the app folder:\n%s", res.stdout)
		}
	})

	t.Run("fleet site", func(t *testing.T) {
		repo := examplesRepo(t)
		app := "examples/fleet/sites/store-0001"
		discovered(t, p, filepath.Join(repo, app), true)
		res := generate(t, p, repo, app, nil)
		if res.code != 0 {
			t.Fatalf("generate: %v", res)
		}
		got := parseStream(t, res.stdout)
		// The same objects the whole fleet's render has for this site,
		// with the fleet defaults applied, and nothing of the other sites.
		var want []object
		for _, o := range parseStream(t, siteforge(t, filepath.Join(root, "examples", "fleet"), "render", "--stdout", ".").stdout) {
			if o.annotation(sourceAnnotation) == "examples/fleet/sites/store-0001" { // relative to the repository root, from any folder
				want = append(want, o)
			}
		}
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("generate for a fleet site: got %d objects, want the %d of examples/fleet/sites/store-0001 in the fleet render:\n%s", len(got), len(want), res.stdout)
		}
	})

	t.Run("fleet", func(t *testing.T) {
		// A folder of several sites would deploy them all to one cluster.
		repo := examplesRepo(t)
		res := generate(t, p, repo, "examples/fleet", nil)
		if res.code == 0 || res.stdout != "" || !strings.HasPrefix(res.stderr, ".: error: the app folder holds 3 sites") {
			t.Errorf("a fleet of three sites as one app: %v", res)
		}
	})

	t.Run("strict", func(t *testing.T) {
		repo := t.TempDir()
		warn, clean := argocdSite("NeverContactSource"), argocdSite("AllowContactingSource")
		writeFiles(t, repo, map[string]string{"sites/warn/site.yaml": warn, "sites/clean/site.yaml": clean})
		// a fleet layout (sites/ at the root): paths from the fleet's root
		warning := "sites/warn/site.yaml:" + strconv.Itoa(lineOf(t, warn, "policy: Never")) + ":13: "
		for _, tc := range []struct {
			app, strict string
			ok          bool
			stderr      string // prefix
		}{
			{"sites/warn", "", true, warning + "warning: "},
			{"sites/warn", "false", true, warning + "warning: "},
			{"sites/warn", "true", false, warning + "error: "},
			{"sites/clean", "true", true, ""},
			{"sites/clean", "yes", false, `siteforge argocd generate: ARGOCD_ENV_SITEFORGE_STRICT="yes": want true or false`},
		} {
			t.Run(tc.app+"/SITEFORGE_STRICT="+tc.strict, func(t *testing.T) {
				res := generate(t, p, repo, tc.app, map[string]string{"SITEFORGE_STRICT": tc.strict})
				if ok := res.code == 0 && len(parseStream(t, res.stdout)) == 1; ok != tc.ok || !strings.HasPrefix(res.stderr, tc.stderr) {
					t.Errorf("want success %v and stderr starting %q: %v", tc.ok, tc.stderr, res)
				}
				// the warning's first line ends with its rule ID
				if tc.app == "sites/warn" && !regexp.MustCompile(`(?m)^sites/warn/site.yaml:\d+:\d+: (warning|error): .*\[MIR021\]$`).MatchString(res.stderr) {
					t.Errorf("no [MIR021] line: %v", res)
				}
				if !tc.ok && res.stdout != "" {
					t.Errorf("a failed generate wrote objects: %v", res)
				}
			})
		}
	})

	t.Run("broken site", func(t *testing.T) {
		site := readFile(t, filepath.Join(root, "examples", "disconnected-quay-cache", "site.yaml"))
		broken := strings.Replace(site, "uplinkMTU: 1500", "uplinkMtu: 1500", 1)
		repo := t.TempDir()
		writeFiles(t, repo, map[string]string{"apps/broken/site.yaml": broken})
		res := generate(t, p, repo, "apps/broken", nil)
		if res.code == 0 || res.stdout != "" {
			t.Errorf("a broken site must fail with no output (Argo CD would prune everything): %v", res)
		}
		want := "site.yaml:" + strconv.Itoa(lineOf(t, broken, "uplinkMtu")) + ":5: error: "
		if !strings.HasPrefix(res.stderr, want) {
			t.Errorf("stderr does not start with %q: %v", want, res)
		}
		// What Argo CD shows: the error right after the command.
		msg := argocdMessage(p, res)
		if i := strings.Index(msg, want); i < 0 || i > 64 {
			t.Errorf("the error starts at character %d of Argo CD's message:\n%s", i, msg)
		}
	})

	t.Run("broken fleet defaults", func(t *testing.T) {
		repo := examplesRepo(t)
		defaults := filepath.Join(repo, "examples", "fleet", "defaults.cue")
		data := readFile(t, defaults)
		broken := strings.Replace(data, "mirroring: {", "mirorring: {", 1)
		if broken == data {
			t.Fatal("examples/fleet/defaults.cue has no mirroring: { to break")
		}
		writeFiles(t, repo, map[string]string{"examples/fleet/defaults.cue": broken})
		res := generate(t, p, repo, "examples/fleet/sites/store-0001", nil)
		// relative to the fleet's root, as the fleet's own render says it
		want := "defaults.cue:" + strconv.Itoa(lineOf(t, broken, "mirorring")) + ":"
		if res.code == 0 || res.stdout != "" || !strings.HasPrefix(res.stderr, want) {
			t.Errorf("want no output and stderr starting %q: %v", want, res)
		}
	})

	t.Run("discover", func(t *testing.T) {
		// A rendered output folder holds no site.* file: Argo CD does not
		// pick the plugin for it (a directory app applies it as it is).
		out := t.TempDir()
		if res := siteforge(t, root, "render", "-o", out, "examples/fleet", "examples/disconnected-quay-cache"); res.code != 0 {
			t.Fatalf("render: %v", res)
		}
		entries, err := os.ReadDir(out)
		if err != nil || len(entries) == 0 {
			t.Fatalf("render -o wrote no site folders: %v", err)
		}
		for _, e := range entries {
			discovered(t, p, filepath.Join(out, e.Name()), false)
		}
		discovered(t, p, filepath.Join(root, "examples", "argocd"), false)
	})
}

// discovered checks whether spec.discover.fileName matches the app folder,
// as the cmp-server matches it (argoproj/argo-cd cmpserver/plugin/plugin.go
// matchRepository: filepath.Glob of the app path joined with fileName).
func discovered(t *testing.T, p cmpPlugin, app string, want bool) {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(app, p.Spec.Discover.FileName))
	if err != nil {
		t.Fatalf("discover.fileName %q: %v", p.Spec.Discover.FileName, err)
	}
	if got := len(m) > 0; got != want {
		t.Errorf("discover.fileName %q matches %s: %v (%v), want %v", p.Spec.Discover.FileName, app, got, m, want)
	}
}

// TestArgoCDRepoServerPatch builds examples/argocd with kustomize: the
// repo-server gets the siteforge sidecar running argocd-cmp-server with
// plugin.yaml mounted where the CMP server reads it.
func TestArgoCDRepoServerPatch(t *testing.T) {
	res := kustomizeBuild(t, filepath.Join(root, "examples", "argocd"), "build")
	if res.code != 0 {
		t.Fatalf("kustomize build examples/argocd: %v", res)
	}
	var deploy struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct {
						Name         string   `yaml:"name"`
						Command      []string `yaml:"command"`
						VolumeMounts []struct {
							Name      string `yaml:"name"`
							MountPath string `yaml:"mountPath"`
							SubPath   string `yaml:"subPath"`
						} `yaml:"volumeMounts"`
					} `yaml:"containers"`
					Volumes []struct {
						Name      string `yaml:"name"`
						ConfigMap *struct {
							Name string `yaml:"name"`
						} `yaml:"configMap"`
					} `yaml:"volumes"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	var pluginCM string
	for _, o := range parseStream(t, res.stdout) {
		b, err := yaml.Marshal(map[string]any(o))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case o.kind() == "Deployment" && o.meta("name") == "argocd-repo-server":
			if err := yaml.Unmarshal(b, &deploy); err != nil {
				t.Fatal(err)
			}
		case o.kind() == "ConfigMap" && o.meta("name") == "siteforge-cmp-plugin":
			data, _ := o["data"].(map[string]any)
			pluginCM, _ = data["plugin.yaml"].(string)
		}
	}
	if pluginCM != readFile(t, filepath.Join(root, "examples", "argocd", "plugin.yaml")) {
		t.Errorf("ConfigMap siteforge-cmp-plugin does not hold plugin.yaml")
	}
	pod := deploy.Spec.Template.Spec
	volumes := map[string]string{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = ""
		if v.ConfigMap != nil {
			volumes[v.Name] = v.ConfigMap.Name
		}
	}
	var found bool
	for _, c := range pod.Containers {
		if c.Name != "siteforge" {
			continue
		}
		found = true
		if !reflect.DeepEqual(c.Command, []string{"/var/run/argocd/argocd-cmp-server"}) {
			t.Errorf("sidecar command = %v, want argocd-cmp-server", c.Command)
		}
		mounts := map[string]bool{}
		for _, m := range c.VolumeMounts {
			if _, ok := volumes[m.Name]; !ok {
				t.Errorf("sidecar mounts volume %s, which the pod lacks", m.Name)
			}
			mounts[m.MountPath] = true
			if m.MountPath == "/home/argocd/cmp-server/config/plugin.yaml" && (m.SubPath != "plugin.yaml" || volumes[m.Name] != "siteforge-cmp-plugin") {
				t.Errorf("plugin.yaml is not mounted from ConfigMap siteforge-cmp-plugin: %+v", m)
			}
		}
		for _, p := range []string{"/var/run/argocd", "/home/argocd/cmp-server/plugins", "/home/argocd/cmp-server/config/plugin.yaml", "/tmp"} {
			if !mounts[p] {
				t.Errorf("sidecar lacks a mount at %s", p)
			}
		}
	}
	if !found {
		t.Errorf("argocd-repo-server has no siteforge sidecar:\n%s", res.stdout)
	}
}

// TestArgoCDApplicationSet: one Application per sites/* folder, using the
// plugin by the name Argo CD gives it (<name>-<version>), and every bundled
// fleet site generates under the ApplicationSet's settings (strict).
func TestArgoCDApplicationSet(t *testing.T) {
	p := loadPlugin(t)
	var set struct {
		Kind string `yaml:"kind"`
		Spec struct {
			Generators []struct {
				Git *struct {
					Directories []struct {
						Path string `yaml:"path"`
					} `yaml:"directories"`
				} `yaml:"git"`
			} `yaml:"generators"`
			Template struct {
				Spec struct {
					Source struct {
						Path   string `yaml:"path"`
						Plugin struct {
							Name string `yaml:"name"`
							Env  []struct {
								Name  string `yaml:"name"`
								Value string `yaml:"value"`
							} `yaml:"env"`
						} `yaml:"plugin"`
					} `yaml:"source"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	data, err := os.ReadFile(filepath.Join(root, "examples", "argocd", "applicationset.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	if set.Kind != "ApplicationSet" || len(set.Spec.Generators) == 0 || set.Spec.Generators[0].Git == nil ||
		len(set.Spec.Generators[0].Git.Directories) == 0 || set.Spec.Generators[0].Git.Directories[0].Path != "sites/*" {
		t.Errorf("applicationset.yaml is not a git directory generator over sites/*: %+v", set)
	}
	src := set.Spec.Template.Spec.Source
	if want := p.Metadata.Name + "-" + p.Spec.Version; src.Plugin.Name != want {
		t.Errorf("the ApplicationSet uses plugin %q, want %q", src.Plugin.Name, want)
	}
	if src.Path != "{{.path.path}}" {
		t.Errorf("source.path = %q, want the generated folder", src.Path)
	}
	// Every setting the ApplicationSet passes is one the plugin reads (an
	// unknown SITEFORGE_* fails the generation), with a value it accepts;
	// it sets SITEFORGE_STRICT=true, so every bundled fleet site, generated
	// as its Application would be (examples/fleet as the repository: its
	// defaults at the root, sites/*), must be strict-clean.
	env := map[string]string{}
	for _, e := range src.Plugin.Env {
		env[e.Name] = e.Value
	}
	if env["SITEFORGE_STRICT"] != "true" {
		t.Errorf("the ApplicationSet sets SITEFORGE_STRICT=%q, want true (a warning fails the sync instead of deploying it)", env["SITEFORGE_STRICT"])
	}
	repo := t.TempDir()
	copyTree(t, filepath.Join(root, "examples", "fleet"), repo, nil)
	apps, err := filepath.Glob(filepath.Join(repo, "sites", "*"))
	if err != nil || len(apps) == 0 {
		t.Fatalf("examples/fleet has no sites/*: %v", err)
	}
	for _, dir := range apps {
		app := filepath.Join("sites", filepath.Base(dir))
		res := generate(t, p, repo, app, env)
		if res.code != 0 || len(parseStream(t, res.stdout)) == 0 {
			t.Errorf("Application %s with the ApplicationSet's env %v: %v", app, env, res)
		}
		if strings.Contains(res.stderr, "warning: ") {
			t.Errorf("Application %s: a warning under SITEFORGE_STRICT=true: %s", app, res.stderr)
		}
	}
}
