package pools

import "github.com/siteforge/siteforge/internal/platform"

// Output paths (inside the site's output folder).
const (
	dir             = "pools"
	schedulerPath   = dir + "/" + platform.SchedulerManifestName
	labelScriptPath = dir + "/label-nodes.sh"
)
