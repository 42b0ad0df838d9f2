package credential

import "testing"

func TestURLUserInfo(t *testing.T) {
	for u, want := range map[string]bool{
		"redfish-virtualmedia+https://root:calvin@10.1.101.11/redfish/v1/Systems/1": true,
		"redfish://admin@10.0.0.1/redfish/v1/Systems/1":                             true,
		"http://user:hunter2@proxy.example.com:3128":                                true,
		"http://proxy@example.com":                                                  true,
		"redfish://10.0.0.1/redfish/v1/Systems/1":                                   false,
		"http://proxy.example.com:3128/path@x":                                      false,
		"idrac-virtualmedia://[fd00::1]/redfish/v1/Systems/System.Embedded.1":       false,
		"user@host":             false,
		".example.com,10.0.0.0": false,
		"":                      false,
	} {
		if got := URLUserInfo(u); got != want {
			t.Errorf("URLUserInfo(%q) = %v, want %v", u, got, want)
		}
	}
}
