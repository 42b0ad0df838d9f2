package golden

import (
	"bytes"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/generators/hub"
	"github.com/siteforge/siteforge/generators/install"
	"github.com/siteforge/siteforge/internal/site"
)

// TestDay0CopiesAreTheDay2Objects: an object the installation applies and
// Argo CD applies again on day 2 is one object, never two renderings that
// differ. For every example to install, each day-0 copy of a day-2 resource
// carries the resource's exact bytes, wherever the site's installer reads
// it: install/openshift or install/manifests for the agent and IPI
// installers, a key of a hub extra-manifests ConfigMap for hub installs.
// And no day-0 manifest is silently dropped: each is placed, or (agent
// mirror sets MCO's bootstrap would refuse next to the installer's own)
// named in install-config.yaml's header.
func TestDay0CopiesAreTheDay2Objects(t *testing.T) {
	t.Chdir("..")
	copies := 0
	for _, ex := range Examples {
		for _, o := range RenderExample(t, ex) {
			if o.Site.Cluster.Lifecycle != site.LifecycleInstall {
				if len(o.Day0) > 0 {
					t.Errorf("%s: day-0 manifests for a running cluster", o.Site.Name)
				}
				continue
			}
			placed := placedDay0(t, o)
			for _, name := range o.Day0Names() {
				m := o.Day0[name]
				if m.Resource != "" {
					copies++
					if !bytes.Equal(m.Data, o.Files[m.Resource]) {
						t.Errorf("%s: day-0 %s differs from the day-2 %s", o.Site.Name, name, m.Resource)
					}
				}
				got, ok := placed[name]
				switch {
				case ok && !bytes.Equal(got, m.Data):
					t.Errorf("%s: day-0 %s is placed with other bytes than rendered", o.Site.Name, name)
				case !ok && !mentionedAsLeftOut(o, name):
					t.Errorf("%s: day-0 %s is neither placed for the installer nor said to be left out", o.Site.Name, name)
				}
			}
		}
	}
	if copies < 5 {
		t.Fatalf("only %d day-0 copies of day-2 resources checked", copies)
	}
}

// placedDay0 reads where the finishers put the day-0 manifests, by name.
func placedDay0(t *testing.T, o *generators.Output) map[string][]byte {
	t.Helper()
	placed := map[string][]byte{}
	if o.Site.HubInstalled() {
		for _, p := range o.Paths() {
			if !strings.HasPrefix(p, hub.Dir+"/"+hub.ExtraManifestsName) {
				continue
			}
			var cm struct{ Data map[string]string }
			if err := yaml.Unmarshal(o.Files[p], &cm); err != nil {
				t.Fatalf("%s/%s: %v", o.Site.Name, p, err)
			}
			for k, v := range cm.Data {
				placed[k] = []byte(v)
			}
		}
		return placed
	}
	dir := install.Day0Dir(o.Site) + "/"
	for _, p := range o.Paths() {
		if strings.HasPrefix(p, dir) {
			placed[strings.TrimPrefix(p, dir)] = o.Files[p]
		}
	}
	return placed
}

// mentionedAsLeftOut: the day-0 manifest is named as left out where the
// finisher explains it: the install-config header of an agent or IPI
// install, the ClusterInstance header of a hub install (in a "Left out"
// sentence, not merely mentioned).
func mentionedAsLeftOut(o *generators.Output, name string) bool {
	if o.Site.HubInstalled() {
		for _, line := range leftOutSentence(o.Files[hub.ClusterInstancePath]) {
			if strings.Contains(line, name) {
				return true
			}
		}
		return false
	}
	return bytes.Contains(o.Files["install/install-config.yaml"], []byte(name))
}

// leftOutSentence returns the words of the ClusterInstance header's "Left
// out of the extra manifests:" paragraph, up to its first full stop that
// ends a sentence.
func leftOutSentence(data []byte) []string {
	var header []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		header = append(header, strings.Fields(strings.TrimPrefix(line, "#"))...)
	}
	text := strings.Join(header, " ")
	i := strings.Index(text, "Left out of the extra manifests: the day-0 copies of ")
	if i < 0 {
		return nil
	}
	text = text[i:]
	if j := strings.Index(text, ". "); j >= 0 {
		text = text[:j]
	}
	return strings.Fields(text)
}
