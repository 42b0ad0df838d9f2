package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/generators/acm"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/output"
)

// hubDelivery is render's fleet-level step: the sites of the run that
// deliver day 2 through an ACM hub (delivery.acm) become the hub's
// policies, written to DIR/hub-policies (generators/acm). The workers hand
// it each such site as it renders (rendered) or as the cache keeps it
// (kept, read back from its folder); once every site is in, files renders
// the folder. Sites without delivery.acm are not held, and a run with none
// writes nothing more.
type hubDelivery struct {
	fleet acm.Fleet
	mu    sync.Mutex
	err   error
	// clash is set when a site is named like the fleet-level folder.
	clash bool
}

func (h *hubDelivery) fail(err error) {
	h.mu.Lock()
	if h.err == nil {
		h.err = err
	}
	h.mu.Unlock()
}

// rendered takes a site as the run rendered it.
func (h *hubDelivery) rendered(o *generators.Output) error {
	if o.Site.Name == acm.Dir {
		h.mu.Lock()
		h.clash = true
		h.mu.Unlock()
	}
	s, ok, err := acm.FromOutput(o)
	if err != nil || !ok {
		return err
	}
	h.fleet.Add(s)
	return nil
}

// kept takes a site the render cache left unevaluated: its folder in dir
// holds exactly the recorded files.
func (h *hubDelivery) kept(dir string, r cacheHit) {
	if r.Name == acm.Dir {
		h.mu.Lock()
		h.clash = true
		h.mu.Unlock()
	}
	root := filepath.Join(dir, r.Name)
	s, ok, err := acm.FromFiles(r.Name, r.Files, func(p string) ([]byte, error) {
		return fsread.FileNoFollow(filepath.Join(root, filepath.FromSlash(p)), manifests.MaxFileSize)
	})
	if err != nil {
		h.fail(fmt.Errorf("%s: %w", r.Name, err))
		return
	}
	if ok {
		h.fleet.Add(s)
	}
}

// files renders the hub policies; false (after printing why) when the
// sites cannot be delivered together. ok with no files: no site delivers
// through a hub.
func (h *hubDelivery) files(e env, run siteRun) (output.Site, bool) {
	if h.err != nil {
		fmt.Fprintf(e.stderr, "siteforge render: %s\n", diag.Clean(h.err.Error()))
		return output.Site{}, false
	}
	if h.fleet.Len() == 0 {
		return output.Site{}, true
	}
	if h.clash {
		fmt.Fprintf(e.stderr, "siteforge render: a site is named %s, the folder of the hub's policies (delivery.acm): rename the site\n", acm.Dir)
		return output.Site{}, false
	}
	files, _, err := h.fleet.Files()
	if err != nil {
		var dl diag.List
		if errors.As(err, &dl) {
			printDiagnostics(e.stderr, load.Result{Diagnostics: dl.Sort(), Sources: run.Sources})
		} else {
			fmt.Fprintf(e.stderr, "siteforge render: %s\n", diag.Clean(err.Error()))
		}
		return output.Site{}, false
	}
	return output.Site{Name: acm.Dir, Files: files}, true
}
