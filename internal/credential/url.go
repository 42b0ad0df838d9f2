package credential

import "strings"

// URLUserInfo reports whether a URL carries user-info before its host
// (redfish://user:password@host, http://user@proxy): a password, or a user
// name whose password goes with it, which siteforge never copies or
// writes. The host is what follows the first "://", up to the first "/".
// The site's checks (a BMC address) and import (a BMC address, a proxy
// URL) ask it, so import leaves out what vet would refuse.
func URLUserInfo(u string) bool {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return false
	}
	host, _, _ := strings.Cut(rest, "/")
	return strings.Contains(host, "@")
}
