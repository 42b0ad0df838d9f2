package e2e

import (
	"os"
	"path/filepath"
	"reflect"
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

// generate runs the plugin's generate command as the CMP sidecar does: in
// the app's source folder, with Argo CD's build environment and the
// Application's env as ARGOCD_ENV_*.
func generate(t *testing.T, p cmpPlugin, appDir, sourcePath string, appEnv map[string]string) result {
	t.Helper()
	env := []string{
		"ARGOCD_APP_NAME=" + filepath.Base(appDir),
		"ARGOCD_APP_NAMESPACE=argocd",
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
	return run(t, appDir, env, cmd[0], append(cmd[1:], p.Spec.Generate.Args...)...)
}

// TestArgoCDPluginGenerate: the plugin's generate writes only a YAML object
// stream, exactly what `siteforge render --stdout` writes for the app's
// site, and nothing at all when the render fails.
func TestArgoCDPluginGenerate(t *testing.T) {
	p := loadPlugin(t)

	t.Run("site", func(t *testing.T) {
		app := filepath.Join(root, "examples", "disconnected-quay-cache")
		discovered(t, p, app)
		res := generate(t, p, app, "examples/disconnected-quay-cache", nil)
		if res.code != 0 {
			t.Fatalf("generate: %v", res)
		}
		objs := parseStream(t, res.stdout)
		if len(objs) == 0 {
			t.Fatal("generate printed no objects")
		}
		want := siteforge(t, app, "render", "--stdout", ".")
		if res.stdout != want.stdout {
			t.Errorf("generate differs from siteforge render --stdout .:\n%s", res.stdout)
		}
	})

	t.Run("fleet site", func(t *testing.T) {
		fleet := filepath.Join(root, "examples", "fleet")
		app := filepath.Join(fleet, "sites", "store-0001")
		discovered(t, p, app)
		res := generate(t, p, app, "examples/fleet/sites/store-0001", nil)
		if res.code != 0 {
			t.Fatalf("generate: %v", res)
		}
		got := parseStream(t, res.stdout)
		// The same objects the whole fleet's render has for this site,
		// with the fleet defaults applied, and nothing of the other sites.
		var want []object
		for _, o := range parseStream(t, siteforge(t, fleet, "render", "--stdout", ".").stdout) {
			if o.annotation(sourceAnnotation) == "sites/store-0001" {
				want = append(want, o)
			}
		}
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("generate for a fleet site: got %d objects, want the %d of sites/store-0001 in the fleet render:\n%s", len(got), len(want), res.stdout)
		}
	})

	t.Run("strict", func(t *testing.T) {
		app := filepath.Join(root, "examples", "disconnected-quay-cache")
		strict := siteforge(t, app, "render", "--stdout", "--strict", ".")
		res := generate(t, p, app, "examples/disconnected-quay-cache", map[string]string{"SITEFORGE_STRICT": "true"})
		if (res.code == 0) != (strict.code == 0) || res.stdout != strict.stdout {
			t.Errorf("ARGOCD_ENV_SITEFORGE_STRICT=true does not render as --strict: %v\nwant: %v", res, strict)
		}
		if res.code != 0 && res.stdout != "" {
			t.Errorf("a failed strict render wrote objects: %v", res)
		}
		bad := generate(t, p, app, "examples/disconnected-quay-cache", map[string]string{"SITEFORGE_STRICT": "maybe"})
		if bad.code == 0 || bad.stdout != "" || !strings.Contains(bad.stderr, "SITEFORGE_STRICT") {
			t.Errorf("an invalid SITEFORGE_STRICT was accepted: %v", bad)
		}
	})

	t.Run("broken site", func(t *testing.T) {
		site := readFile(t, filepath.Join(root, "examples", "disconnected-quay-cache", "site.yaml"))
		broken := strings.Replace(site, "uplinkMTU: 1500", "uplinkMtu: 1500", 1)
		app := t.TempDir()
		writeFiles(t, app, map[string]string{"site.yaml": broken})
		res := generate(t, p, app, "sites/broken", nil)
		if res.code == 0 || res.stdout != "" {
			t.Errorf("a broken site must fail with no output (Argo CD would prune everything): %v", res)
		}
		if want := "site.yaml:" + strconv.Itoa(lineOf(t, broken, "uplinkMtu")) + ":5: error:"; !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q: %v", want, res)
		}
	})
}

// discovered checks that spec.discover.fileName matches the app folder.
func discovered(t *testing.T, p cmpPlugin, app string) {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(app, p.Spec.Discover.FileName))
	if err != nil || len(m) == 0 {
		t.Errorf("discover.fileName %q does not match %s", p.Spec.Discover.FileName, app)
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
// plugin by the name Argo CD gives it (<name>-<version>).
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
								Name string `yaml:"name"`
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
	args := strings.Join(p.Spec.Generate.Args, " ")
	for _, e := range src.Plugin.Env {
		if !strings.Contains(args, "ARGOCD_ENV_"+e.Name) {
			t.Errorf("the ApplicationSet sets %s, which the plugin does not read as ARGOCD_ENV_%s", e.Name, e.Name)
		}
	}
}
