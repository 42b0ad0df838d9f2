package manifests

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
)

// MTUKeyfile is a NetworkManager keyfile that persists an interface MTU,
// written by a MachineConfig (docs "Changing the cluster network MTU").
type MTUKeyfile struct {
	Obj   *Object
	Role  string // MachineConfigPool role label
	Iface string
	MTU   int // ethernet.mtu; 0 when the content cannot be read
	// Path is the field path of the file's contents in the MachineConfig.
	Path []string
}

func (k MTUKeyfile) String() string {
	if k.Role == "" {
		return fmt.Sprintf("MachineConfig %s (%s)", k.Obj.Name, k.Iface)
	}
	return fmt.Sprintf("MachineConfig %s (role %s, %s)", k.Obj.Name, k.Role, k.Iface)
}

// nmMTUKeyfilePattern matches platform.NMMTUKeyfilePathFormat; the group is
// the interface.
var nmMTUKeyfilePattern = regexp.MustCompile("^" + strings.Replace(regexp.QuoteMeta(platform.NMMTUKeyfilePathFormat), "%s", "(.+)", 1) + "$")

// maxKeyfileSize bounds what is decompressed from a keyfile's contents.
const maxKeyfileSize = 1 << 20

// MTUKeyfiles lists the NetworkManager MTU keyfiles a MachineConfig
// writes: a user's, or a rendered config that merges them (what a pool's
// nodes run).
func MTUKeyfiles(mc *MachineConfig) []MTUKeyfile {
	var out []MTUKeyfile
	for i, f := range mc.Config.Storage.Files {
		m := nmMTUKeyfilePattern.FindStringSubmatch(f.Path)
		if m == nil {
			continue
		}
		k := MTUKeyfile{Obj: mc.Obj, Role: mc.Role, Iface: m[1],
			Path: []string{"spec", "config", "storage", "files", strconv.Itoa(i), "contents", "source"}}
		if data, err := f.Data(maxKeyfileSize); err == nil {
			k.MTU = keyfileMTU(string(data))
		}
		out = append(out, k)
	}
	return out
}

// keyfileMTU reads ethernet.mtu from a NetworkManager keyfile; 0 if absent.
func keyfileMTU(text string) int {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "ethernet.mtu="); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n
			}
		}
	}
	return 0
}
