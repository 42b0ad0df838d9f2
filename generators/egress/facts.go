package egress

import "github.com/siteforge/siteforge/internal/platform"

// Output paths.
const (
	dir              = "egress"
	labelScriptPath  = dir + "/label-egress-assignable-nodes.sh"
	sdnScriptPath    = dir + "/sdn-egress-ips.sh"
	objectPathFormat = dir + "/egressip-%s.yaml"
)

// openShiftSDN assigns egress IPs per NetNamespace, by namespace name.
const openShiftSDN = platform.OpenShiftSDN
