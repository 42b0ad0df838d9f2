package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestContainerfilePinned: the bundled Containerfile builds from pinned
// base images (a release tag or a digest, never latest or no tag), and the
// build context leaves local builds, VCS data and test data out
// (.containerignore for podman, .dockerignore for docker, the same rules).
func TestContainerfilePinned(t *testing.T) {
	cf := readFile(t, filepath.Join(root, "examples", "Containerfile"))
	args := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^ARG (\w+)=(\S+)$`).FindAllStringSubmatch(cf, -1) {
		args[m[1]] = m[2]
	}
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(cf, -1)
	if len(froms) < 2 {
		t.Fatalf("want a build and a runtime stage, found %d FROM lines", len(froms))
	}
	pinned := regexp.MustCompile(`^[a-z0-9.-]+(:[0-9]+)?/[a-z0-9/._-]+(:[0-9][A-Za-z0-9._-]*|@sha256:[a-f0-9]{64})$`)
	for _, m := range froms {
		img := m[1]
		if v := regexp.MustCompile(`^\$\{(\w+)\}$`).FindStringSubmatch(img); v != nil {
			img = args[v[1]]
		}
		if !pinned.MatchString(img) {
			t.Errorf("FROM %s (%s): not pinned to a release tag or a digest", m[1], img)
		}
	}
	for _, f := range []string{".containerignore", ".dockerignore"} {
		rules := readFile(t, filepath.Join(root, f))
		for _, want := range []string{".git", "bin", "golden", "**/testdata"} {
			if !strings.Contains(rules, "\n"+want+"\n") {
				t.Errorf("%s does not leave out %s", f, want)
			}
		}
	}
}

// TestReleaseContainerfile: the release image's Containerfile (make
// release) runs on the same pinned runtime image as examples/Containerfile
// and copies the release binary of its target platform.
func TestReleaseContainerfile(t *testing.T) {
	arg := regexp.MustCompile(`(?m)^ARG RUNTIME_IMAGE=(\S+)$`)
	release := readFile(t, filepath.Join(root, "Containerfile"))
	example := readFile(t, filepath.Join(root, "examples", "Containerfile"))
	r, e := arg.FindStringSubmatch(release), arg.FindStringSubmatch(example)
	if r == nil || e == nil || r[1] != e[1] {
		t.Errorf("the runtime images differ: Containerfile %v, examples/Containerfile %v", r, e)
	}
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(release, -1)
	if len(froms) != 1 || froms[0][1] != "${RUNTIME_IMAGE}" {
		t.Errorf("Containerfile: FROM lines %v, want one, FROM ${RUNTIME_IMAGE}", froms)
	}
	for _, want := range []string{"ARG TARGETOS\n", "ARG TARGETARCH\n", "COPY siteforge-${TARGETOS}-${TARGETARCH} /usr/local/bin/siteforge\n", `ENTRYPOINT ["siteforge"]`} {
		if !strings.Contains(release, want) {
			t.Errorf("Containerfile lacks %q", want)
		}
	}
}
